// invocations.js: what a graph's nodes read of the run they belong to, its
// Invocation (stream.js: LangGraph's stream modes over edgegraph's), whose code
// loads with the entry's first invoke() or stream(): an app's first load is
// the graph API alone, and stream.js (with the stream-mode code it builds on)
// comes in with the first run.

/** A token handler's mark (stream.js's tokenHandler): config.js leaves an outer node's out of a graph invoked inside it. */
export const TOKENS = Symbol('tokens');

/** stream.js's Invocation once a run loaded it (else undefined): a run's path reads it in hand, awaiting nothing. */
export let Invocation;

/** The Invocation class, loaded by the first call. */
export async function loadInvocation() {
  return (Invocation ??= (await import('./stream.js')).Invocation);
}

/**
 * The Invocation a node's task runs for: its run's `configurable` (graph-runner.js's runOptions puts it
 * there; the engine hands it to every node's context, and on to a subgraph node's child run unless
 * that has its own); undefined in a run started on the engine itself.
 */
export const invocationIn = (ctx) => (Invocation !== undefined && ctx.configurable instanceof Invocation ? ctx.configurable : undefined);

/**
 * A task's step as LangGraph numbers it (`config.metadata.langgraph_step`, the debug stream's):
 * the engine counts a run's input step as its superstep 1 (`<runId>:<superstep>.<index>`), LangGraph as its step 0.
 * (../stream-modes.js's superstepOf less one, read here: that module loads with a run's first stream, after import.)
 */
export const stepOf = (taskId) => parseInt(taskId.slice(taskId.lastIndexOf(':') + 1), 10) - 1;
