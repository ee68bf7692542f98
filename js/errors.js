// errors.js: the one error class of edgegraph. Every error has a stable `code`
// (the table is src/eg_codes.def) and a message naming the node, path or
// field at fault. Secrets never go into messages: they are built from graph
// names and core messages only.

export class EdgegraphError extends Error {
  /**
   * @param {string} code stable code, e.g. "UNKNOWN_NODE"
   * @param {string} message
   * @param {{ node?: string, cause?: unknown }} [extra]
   */
  constructor(code, message, extra = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'EdgegraphError';
    this.code = code;
    if (extra.node !== undefined) this.node = extra.node;
  }
}
