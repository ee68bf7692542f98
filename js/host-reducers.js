// host-reducers.js: reducers written in JS in a graph's state definition
// (`state: { reducers: { notes: (a, b) => a + b } }`). The core cannot call a
// function, so the path is declared to it as last-write-wins and the JS layer
// folds the step's writes before the core commits them: each node's write (its
// delta, never its whole state) in branch order, over the value the state held
// before the step. The core then stores one folded value in the step's results,
// so a checkpoint holds it; the function itself is never serialized: the graph
// supplies it again on restore, as it does routers.

import { EdgegraphError } from './errors.js';
import { hasOwn, isPlainObject } from './objects.js';

/**
 * Split a definition's `state` into what the core reads (functions replaced by
 * 'last') and the functions by path, or null when there are none.
 */
export function splitStateReducers(state) {
  if (!isPlainObject(state) || !isPlainObject(state.reducers)) return { state, reducers: null };
  let reducers = null;
  const named = {};
  for (const [path, r] of Object.entries(state.reducers)) {
    if (typeof r === 'function') { (reducers ??= new Map()).set(path, r); named[path] = 'last'; } else named[path] = r;
  }
  return reducers ? { state: { ...state, reducers: named }, reducers } : { state, reducers: null };
}

const segments = (path) => path.split('.');

function read(obj, segs) {
  for (const s of segs) { if (!isPlainObject(obj) || !hasOwn(obj, s)) return undefined; obj = obj[s]; }
  return obj;
}

/** Whether a result writes `segs` (a key present, even if undefined: JSON drops it then). */
function writes(obj, segs) {
  for (const s of segs) { if (!isPlainObject(obj) || !hasOwn(obj, s)) return false; obj = obj[s]; }
  return obj !== undefined;
}

/** A copy of `obj` with `segs` set to `value`, or removed when `remove`; the caller's object is untouched. */
function withPath(obj, segs, value, remove) {
  const [head, ...rest] = segs;
  const out = { ...obj };
  if (rest.length) out[head] = withPath(obj[head], rest, value, remove);
  else if (remove) delete out[head];
  else out[head] = value;
  return out;
}

/** Whether a result writes any path that has a JS reducer. */
export function writesHostPath(reducers, value) {
  if (!isPlainObject(value)) return false;
  for (const path of reducers.keys()) if (writes(value, segments(path))) return true;
  return false;
}

/**
 * Fold the writes of one step. `entries` are { node, value } in branch order;
 * `state` is the state before the step. Returns the values to hand the core:
 * for each path, the last writer carries the folded value and the others none.
 * A reducer that throws is a REDUCER_FAILED naming the path and the node
 * (`error.index` says which entry).
 */
export function foldWrites(reducers, state, entries) {
  const out = entries.map((e) => e.value);
  for (const [path, fn] of reducers) {
    const segs = segments(path);
    let acc = read(state, segs);
    let last = -1;
    for (let i = 0; i < entries.length; i++) {
      if (!writes(out[i], segs)) continue;
      const update = read(out[i], segs);
      try {
        // A missing or null value is set, as with the built-in reducers.
        acc = acc === undefined || acc === null ? update : fn(acc, update);
      } catch (e) {
        const err = new EdgegraphError('REDUCER_FAILED', `the reducer of '${path}' threw on the write of node '${entries[i].node}': ${e?.message ?? String(e)}`, { node: entries[i].node, cause: e });
        err.index = i;
        throw err;
      }
      if (last >= 0) out[last] = withPath(out[last], segs, undefined, true);
      last = i;
    }
    if (last >= 0) out[last] = withPath(out[last], segs, acc, false);
  }
  return out;
}

/**
 * The state a resumed step's writes fold over: `state` with each path that has a
 * JS reducer set to the value its kept results carry (`kept`: the results of the
 * step's tasks that finished before its pause or failure, in branch order; the
 * last writer of a path carries its fold, foldWrites'). The core applies the kept
 * results first (eg_step.c), so the fold of the others carries the whole step.
 */
function keptState(reducers, state, kept) {
  let out = state;
  for (const path of reducers.keys()) {
    const segs = segments(path);
    for (const result of kept) if (writes(result, segs)) out = withPath(out, segs, read(result, segs), false);
  }
  return out;
}

/**
 * What JS-reduced writes of a stopped step fold over: `state` with the results
 * its finished tasks kept (from the run's checkpoint without its state), which
 * the core applies first; `state` itself when they kept none.
 */
export function keptBase(core, handle, reducers, state) {
  const kept = JSON.parse(core.runCheckpointMeta(handle)).tasks.filter((t) => t.state === 'done' && t.kind !== 'route').map((t) => t.result);
  return kept.length ? keptState(reducers, state, kept) : state;
}

/**
 * An edit's (updateState's, a resume's update) writes of the JS-reduced paths,
 * folded over the state as the core holds it once the edit is in: with the
 * stopped step's kept results first (eg_run_apply settles them before it).
 */
export const foldEdit = (core, handle, reducers, state, node, value) => foldWrites(reducers, keptBase(core, handle, reducers, state), [{ node, value }])[0];
