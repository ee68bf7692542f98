// errors.js: LangGraph's error classes, as edgegraph errors with stable
// codes. `name` is LangGraph's, so `e.name === 'GraphRecursionError'` and
// `instanceof` checks written for LangGraph keep working.

import { EdgegraphError } from './edgegraph.js';

/**
 * LangGraph's error class `name`: an EdgegraphError with code `code` (unless `extra.code` gives
 * another), LangGraph's lc_error_code `lcCode` (unless `extra.lc` gives another; undefined: none),
 * and `message` when none is given.
 */
function errorClass(name, code, lcCode, message) {
  // A class made as an object's computed key takes that key as its name (for stack traces and constructor.name).
  return { [name]: class extends EdgegraphError {
    constructor(text = message, extra) {
      super(extra?.code ?? code, text, extra);
      // (EdgegraphError's constructor made `name` a writable, configurable own property: only these change.)
      Object.defineProperty(this, 'name', { value: name, enumerable: false });
      this.lc_error_code = extra?.lc ?? lcCode;
    }
  } }[name];
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
