// run-error.js: what a failed run raises (graph-runner.js's invoke, loaded with the first
// run that fails): what the node threw, as LangGraph raises it. A graph invoked inside
// a node that failed keeps its failed checkpoint with the node's task first (nested.js),
// so that a resume goes on from its failed node, not its start.

import { GraphRecursionError, InvalidUpdateError, NodeTimeoutError } from './errors.js';
import { keepCall } from './nested-end.js';

/** The error a run that ended with `result` (status ERROR) raises; `nested`: the call inside a node it was (nested.js's nestedCall), if any. */
export function failedRun(result, nested) {
  if (nested) keepCall(nested, { checkpoint: result.checkpoint, ids: [] });
  return thrownOf(result.error);
}

/** What a failed run raises, as LangGraph's: what the node threw; edgegraph's codes keep their meaning. */
function thrownOf(error) {
  let cause = error?.cause;
  // A subgraph node's failure wraps its child's node's: what that node threw is innermost.
  while (cause?.code === 'NODE_FAILED' && cause.cause !== undefined) cause = cause.cause;
  if (cause instanceof GraphRecursionError || cause instanceof InvalidUpdateError) return cause;
  if (error.code === 'NODE_FAILED' && cause instanceof Error) return cause;
  if (error.code === 'PARALLEL_CONFLICT') return new InvalidUpdateError(`Invalid update for channel: ${error.message}`);
  // A try past its timeout (addNode's timeout: the engine's timeoutMs): LangGraph's NodeTimeoutError, naming the node.
  if (error.code === 'NODE_TIMEOUT') return Object.assign(new NodeTimeoutError(error.message, { node: error.node, cause }), { kind: 'run' });
  return error;
}
