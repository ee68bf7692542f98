// error-handler.js: LangGraph 1.7's addNode(name, fn, { errorHandler }) (and
// setNodeDefaults' errorHandler): once a node's last try has failed, the
// handler's result (an update or a Command) is the node's; its branch goes
// where the handler's Command goes, else it ends (LangGraph's handler is a node
// of its own, without edges: the node's are not followed). Loaded on a node's
// first failure (graph-runner.js, which hands it what it needs of its own modules).

import { isGraphInterrupt } from './edgegraph.js';
import { NodeError } from './errors.js';
import { Command, isCommand, resultCommand } from './command.js';
import { END } from './graph.js';

// The node's context once its handler ran (a sync node's call hands what the handler throws here again: it stands).
const HANDLED = Symbol('handled');

/**
 * What node `node`'s try `ctx.attempt` that threw `error` yields: what `handedOff` (nested.js's)
 * makes of it, a handoff's result or an interrupt thrown on; the error again while `retry` (the
 * node's engine retry) has tries left for it (the engine runs the next); else the handler's result,
 * `handler(input, NodeError, config)`.
 */
export function handled(error, config, ctx, input, node, handler, retry, handedOff) {
  if (ctx[HANDLED]) throw error;
  try {
    return handedOff(error, config);
  } catch (e) {
    if (isGraphInterrupt(e) || (retry && ctx.attempt < retry.attempts && retry.retryOn(e))) throw e;
    ctx[HANDLED] = true;
    return Promise.resolve(handler(input, new NodeError(node, e), config)).then(alone);
  }
}

/**
 * A handler's result as a Command that goes where it says, or ends the branch, and nowhere else
 * (graph-runner.js's #finish reads `alone`): an update (none: nothing written), a Command, or a
 * list of them (as a node's, one Command). What no node may return (a string, a list without a
 * Command) is left as it is, which the node's result check refuses.
 */
function alone(out) {
  const command = out == null ? new Command() : isCommand(out) ? out : Array.isArray(out) ? resultCommand(out) : typeof out === 'object' ? new Command({ update: out }) : null;
  return command ? Object.assign(new Command({ ...command, goto: command.goto ?? END }), { alone: true }) : out;
}
