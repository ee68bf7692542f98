// errors.js: LangGraph's error classes, as edgegraph errors with stable
// codes. `name` is LangGraph's, so `e.name === 'GraphRecursionError'` and
// `instanceof` checks written for LangGraph keep working.

import { EdgegraphError } from './edgegraph.js';

/**
 * What every error of LangGraph's extends: an EdgegraphError here, so a catch written for either
 * matches. Its code is `extra.code`, else its class's (NODE_FAILED for this one); its lc_error_code
 * `extra.lc_error_code` (LangGraph's field), else its class's; its message, when none is given, its class's (errorClass).
 */
export class BaseLangGraphError extends EdgegraphError {
  constructor(text = new.target.text, extra) {
    super(extra?.code ?? new.target.code ?? 'NODE_FAILED', text, extra);
    this.name = new.target.name;
    this.lc_error_code = extra?.lc_error_code ?? new.target.lc;
  }
}

/** LangGraph's error class `name`: a BaseLangGraphError with its code, lc_error_code and message. */
function errorClass(name, code, lc, text) {
  // A class made as an object's computed key takes that key as its name (for stack traces and constructor.name).
  return Object.assign({ [name]: class extends BaseLangGraphError {} }[name], { code, lc, text });
}

/** More supersteps than `recursionLimit` (LangGraph counts supersteps, not node runs). */
export const GraphRecursionError = errorClass('GraphRecursionError', 'MAX_STEPS_EXCEEDED', 'GRAPH_RECURSION_LIMIT');

/** Two writes to a last-value channel in one superstep, or a bad update. */
export const InvalidUpdateError = errorClass('InvalidUpdateError', 'PARALLEL_CONFLICT', 'INVALID_CONCURRENT_GRAPH_UPDATE');

/** A node no edge reaches (LangGraph's own class for it). */
export const UnreachableNodeError = errorClass('UnreachableNodeError', 'UNREACHABLE_NODE', 'UNREACHABLE_NODE');

/** A graph that cannot be built (no entry, an unknown node in an edge, ...). */
export const GraphValidationError = errorClass('GraphValidationError', 'INVALID_DEFINITION');

/** invoke() without input on a thread that has nothing to continue. */
export const EmptyInputError = errorClass('EmptyInputError', 'INVALID_INPUT', undefined, 'Received no input for __start__');

export const isGraphRecursionError = (e) => e instanceof GraphRecursionError;

// LangGraph's other error classes, for the programs that throw or test for them. (Pure: a
// program's bundle keeps those it uses. Their constructors take (message, extra), as above.)

/** A node's try ran past its `timeout` (addNode's option): the engine's NODE_TIMEOUT, as run-error.js raises it. */
export const NodeTimeoutError = /* @__PURE__ */ errorClass('NodeTimeoutError', 'NODE_TIMEOUT');
export const isNodeTimeoutError = (e) => e?.name === 'NodeTimeoutError';
/** A resume's answer for an interrupt that is not pending: the engine's UNKNOWN_INTERRUPT (thread-resume.js). */
export const UnknownInterruptError = /* @__PURE__ */ errorClass('UnknownInterruptError', 'UNKNOWN_INTERRUPT');
export const GraphValueError = /* @__PURE__ */ errorClass('GraphValueError', 'INVALID_INPUT');
export const EmptyChannelError = /* @__PURE__ */ errorClass('EmptyChannelError', 'INVALID_INPUT');
export const StateGraphInputError = /* @__PURE__ */ errorClass('StateGraphInputError', 'INVALID_INPUT', undefined, 'Invalid StateGraph input. Make sure to pass a valid StateDefinition, Annotation.Root, or Zod schema.');
export const MultipleSubgraphsError = /* @__PURE__ */ errorClass('MultipleSubgraphError', 'INVALID_DEFINITION');   // (LangGraph's name)
export const RemoteException = /* @__PURE__ */ errorClass('RemoteException', 'NODE_FAILED');

export const isUnknownInterruptError = (e) => e?.name === 'UnknownInterruptError';

/** What a node's errorHandler (LangGraph 1.7's) gets: the node that failed (its last try), and what it threw. */
export class NodeError {
  constructor(node, error) { this.node = node; this.error = error; }
}
export const isNodeError = (e) => e instanceof NodeError;
