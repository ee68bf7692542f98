// errors.js: LangGraph's error classes, as edgegraph errors with stable
// codes. `name` is LangGraph's, so `e.name === 'GraphRecursionError'` and
// `instanceof` checks written for LangGraph keep working.

import { EdgegraphError } from './edgegraph.js';

/** `lcCode`: LangGraph's lc_error_code (undefined: none). */
class LangGraphError extends EdgegraphError {
  constructor(code, name, lcCode, message, extra) {
    super(code, message, extra);
    Object.defineProperty(this, 'name', { value: name, enumerable: false, configurable: true, writable: true });
    this.lc_error_code = lcCode;
  }
}

/** More supersteps than `recursionLimit` (LangGraph counts supersteps, not node runs). */
export class GraphRecursionError extends LangGraphError {
  constructor(message, extra) { super('MAX_STEPS_EXCEEDED', 'GraphRecursionError', 'GRAPH_RECURSION_LIMIT', message, extra); }
}

/** Two writes to a last-value channel in one superstep, or a bad update. */
export class InvalidUpdateError extends LangGraphError {
  constructor(message, extra) { super(extra?.code ?? 'PARALLEL_CONFLICT', 'InvalidUpdateError', 'INVALID_CONCURRENT_GRAPH_UPDATE', message, extra); }
}

/** A graph that cannot be built (no entry, an unknown node in an edge, ...). */
export class GraphValidationError extends LangGraphError {
  constructor(message, extra) { super(extra?.code ?? 'INVALID_DEFINITION', 'GraphValidationError', undefined, message, extra); }
}

/** invoke() without input on a thread that has nothing to continue. */
export class EmptyInputError extends LangGraphError {
  constructor(message) { super('INVALID_INPUT', 'EmptyInputError', undefined, message); }
}

export const isGraphRecursionError = (e) => e instanceof GraphRecursionError;
