// step.js: one step of a run as the core hands it out, read. The core prints
// it as one flat JSON array (eg_run_next_flat, src/edgegraph.h):
//   [status, n, op..., task..., outcome]
// n ops of "s"|"p"|"d", the path's length, its elements and the value (none
// for "d"); each task as five values, its node as a number into the graph's
// node table (eg_run_graph_nodes). JSON.parse makes an object for every
// object and array in its text, and a string for every string: those were
// most of a step's decoding. Here a step of a few small ops and one task is
// one array with the ops' strings, and the ops go straight into the mirror.

import { applyOp, copyJSON, same } from './patch.js';
import { echoed } from './echo.js';

// ("e", an echo, pushes what a task's result held: echo.js.)
const OPS = { s: 'set', p: 'push', d: 'del', e: 'push' };
const ROOT = [];

/**
 * Apply the step's ops to `mirror` and read the rest. With `keepOps` (a
 * listener gets the patch), the ops are also returned as [op, path, value?]
 * (eg_run_next's shape) and the mirror takes copies of their values; without,
 * `patch` is null and the mirror takes the values as they are (`ops`: how
 * many there were). `nodes`: the
 * graph's [name, handler, router] by number; `statuses`: status names by number;
 * `echo`: the results the step's tasks submitted (echo.js), which echo ops push.
 * `messagesReshaped`: an op did something to state.messages other than append.
 * @returns {{ status: string, patch: any[] | null, ops: number, tasks: any[], messagesReshaped: boolean, interrupts?: any[], error?: any }}
 */
export function readStep(flat, mirror, keepOps, nodes, statuses, echo) {
  const n = flat[1];
  const patch = keepOps ? [] : null;
  const take = keepOps ? copyJSON : same;
  let at = 2, messagesReshaped = false;
  for (let i = 0; i < n; i++) {
    const op = OPS[flat[at]], depth = flat[at + 1], from = at + 2, echoes = flat[at] === 'e';
    at = from + depth;
    const value = echoes ? echoed(echo, flat, from, depth, flat[at++], flat[at++]) : op === 'del' ? undefined : flat[at++];
    if (depth === 0) applyOp(mirror, op, ROOT, 0, 0, value, take);
    else applyOp(mirror, op, flat, from, depth, value, take);
    if (depth > 0 && flat[from] === 'messages' && (op !== 'push' || depth !== 1)) messagesReshaped = true;
    if (patch) {
      const path = flat.slice(from, from + depth);
      patch.push(op === 'del' ? [op, path] : [op, path, value]);
    }
  }
  const tasks = [];
  const end = flat.length - 1;
  for (; at < end; at += 5) {
    const index = flat[at], superstep = flat[at + 1], node = nodes[flat[at + 3]];
    const task = flat[at + 2] === 1
      ? { index, id: `${superstep}.r${index}`, kind: 'route', node: node[0], router: node[2] }
      : { index, id: `${superstep}.${index}`, kind: 'node', node: node[0], handler: node[1] };
    if (flat[at + 4] !== 0) Object.assign(task, flat[at + 4]);   // arg, answers, keep
    tasks.push(task);
  }
  const step = { status: statuses[flat[0]], patch, ops: n, tasks, messagesReshaped };
  // A stopped run's { interrupts } or { error }.
  if (flat[end] !== 0) Object.assign(step, flat[end]);
  return step;
}
