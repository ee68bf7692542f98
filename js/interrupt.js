// interrupt.js: a node pausing itself. A JS stack cannot be saved, so
// interrupt(value) throws a GraphInterrupt that the Run hands to the core
// instead of a result; the run pauses, and on resume the node runs again from
// the top with the answers the core kept for its task: the i-th interrupt()
// call of the task returns the answer to interrupt id `<node>:<step>.<task>:<i>`
// (stable in every runtime and after a restore). Side effects before an
// interrupt() run again on resume.
//
// The node's context carries interrupt(); the global interrupt() finds the
// node's context synchronously during a node's call everywhere, and across
// the awaits of an async node function where AsyncLocalStorage exists (Node,
// Bun, Deno; workerd with nodejs_als).

import { EdgegraphError } from './errors.js';
import { hasOwn } from './objects.js';

const BRAND = Symbol.for('edgegraph.interrupt');
/** Internal fields of a node's context (the subgraph node reads them). */
export const TASK = Symbol.for('edgegraph.task');

/** Thrown by interrupt() to pause the run; do not catch it (or rethrow it: see isGraphInterrupt). */
export class GraphInterrupt extends Error {
  /** @param {Array<{ id: string, value: unknown }>} interrupts @param {unknown} [keep] */
  constructor(interrupts, keep) {
    super(`interrupted: ${interrupts.map((i) => i.id).join(', ')}`);
    this.name = 'GraphInterrupt';
    this.interrupts = interrupts;
    if (keep !== undefined) this.keep = keep;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** Whether `e` is an interrupt (from any copy of edgegraph): a catch-all in a node must rethrow it. */
export function isGraphInterrupt(e) {
  return e !== null && typeof e === 'object' && e[BRAND] === true;
}

/**
 * A run option (internal: edgegraph/langgraph's): { value, steps }, an answer for the
 * first interrupt() of each task within the run's first `steps` steps of nodes (LangGraph's
 * resume while none is pending is for the tasks about to run, not for a later question).
 */
export const NEXT_ANSWER = Symbol.for('edgegraph.nextAnswer');

/**
 * The interrupt() of one call of a task's node. `task` is the core's task
 * ({ node, id, answers? }); each call of the node gets a fresh one, so the
 * i-th call of interrupt() asks the i-th id again. `next` (the run's NEXT_ANSWER,
 * `taken` once expired, or null): LangGraph's resume given while no interrupt
 * was pending, which the first unanswered interrupt() of each task about to
 * run takes instead of pausing (LangGraph gives it to each; a subgraph node's
 * child asks again). It becomes the task's answer: on the task's own tries, and
 * kept with the task (its `keep`) if a later call pauses or the node fails
 * (run.js), so a resume re-runs it alike.
 */
export function interruptFor(task, next = null) {
  const base = `${task.node}:${task.id}`;
  // The core's answers, and those taken without pausing, which a function node's task keeps (`keep`: a subgraph node's is its child's).
  const answers = (task.answers = { ...task.keep?.answers, ...task.answers });
  let calls = 0;
  const interrupt = (value) => {
    const id = `${base}:${calls++}`;
    if (hasOwn(answers, id)) return answers[id];
    // One answer a task: its keep (set here, on this try or an earlier one) says it took one, and holds it.
    if (next && !next.taken && !task.keep) {
      task.keep = { answers };
      return (answers[id] = next.value);
    }
    throw new GraphInterrupt([{ id, value: value === undefined ? null : value }], task.keep);
  };
  return { interrupt, internal: { base, answers, keep: task.keep } };
}

// The node whose call is on the stack now (a stack: a subgraph's node runs
// inside its parent's), and AsyncLocalStorage where the runtime has one.
const stack = [];
const ALS = globalThis.AsyncLocalStorage ?? globalThis.process?.getBuiltinModule?.('node:async_hooks')?.AsyncLocalStorage;
const storage = typeof ALS === 'function' ? new ALS() : null;

const AsyncFunction = (async () => {}).constructor;

/**
 * Call `node(state, engine, ctx)` with `ctx` as the current node's context: on the stack
 * while it runs synchronously, and in AsyncLocalStorage for an async
 * function's awaits (only then: storage.run costs a few microseconds a call), and for any
 * node inside another's call (a subgraph's, a graph's a node runs): else the awaits of a
 * function returning a promise would find the outer node's there. A router is called with
 * `ctx` null: no node's context is current in it (not the node whose call it may be inside).
 */
export function inNode(ctx, node, state, engine) {
  stack.push(ctx);
  try {
    return storage && (node instanceof AsyncFunction || storage.getStore()) ? storage.run(ctx, node, state, engine, ctx) : node(state, engine, ctx);
  } finally {
    stack.pop();
  }
}

/**
 * The context of the node whose call is running now (undefined outside one),
 * found as interrupt() finds it: during the node's synchronous call in every
 * runtime, after an await of an async node function where AsyncLocalStorage exists.
 */
export function currentNodeContext() {
  const top = stack.at(-1);   // (null: a router's call)
  return (top === undefined ? storage?.getStore() : top) ?? undefined;
}

/**
 * Pause the run from inside a node: returns the answer when the run is
 * resumed with one, else throws a GraphInterrupt. Prefer `context.interrupt`,
 * which works everywhere, after any await.
 */
export function interrupt(value) {
  const ctx = currentNodeContext();
  if (!ctx) {
    throw new EdgegraphError('INTERRUPT_OUTSIDE_NODE', 'interrupt() was called outside a node: call it during a node\'s call, or use the context argument\'s interrupt() (the third argument of a node), which works after an await in every runtime');
  }
  return ctx.interrupt(value);
}
