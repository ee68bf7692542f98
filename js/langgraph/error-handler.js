// error-handler.js: LangGraph 1.7's addNode(name, fn, { errorHandler }) (and
// setNodeDefaults' errorHandler): once a node's last try has failed, the
// handler's result (an update or a Command) is the node's; its branch goes
// where the handler's Command goes, else it ends (LangGraph's handler is a node
// of its own, without edges: the node's are not followed). Loaded on a node's
// first failure (graph-runner.js, which hands it what it needs of its own modules).

import { isGraphInterrupt } from './edgegraph.js';
import { NodeError } from './errors.js';
import { Command, isCommand } from './command.js';
import { END } from './graph.js';

/**
 * What node `node`'s try `ctx.attempt` that threw `error` yields: what `handedOff` (nested.js's)
 * makes of it, a handoff's result or an interrupt thrown on; the error again while `retry` (the
 * node's engine retry) has tries left for it (the engine runs the next); else the handler's result,
 * `handler(input, NodeError, config)`.
 */
export function handled(error, config, ctx, input, node, handler, retry, handedOff) {
  try {
    return handedOff(error, config);
  } catch (e) {
    if (isGraphInterrupt(e) || (retry && ctx.attempt < retry.attempts && retry.retryOn(e))) throw e;
    return Promise.resolve(handler(input, new NodeError(node, e), config)).then(alone);
  }
}

/** A handler's result as a Command that goes where it says, or ends the branch, and nowhere else (graph-runner.js's #finish reads `alone`). */
function alone(out) {
  const command = isCommand(out) ? out : new Command({ update: out });
  return Object.assign(new Command({ ...command, goto: command.goto ?? END }), { alone: true });
}
