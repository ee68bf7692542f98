// errors.js: the one error class of edgegraph. Every error has a stable `code`
// (the table is src/eg_codes.def) and a message naming the node, path or
// field at fault. Secrets never go into messages: they are built from graph
// names and core messages only.

// Modules loaded on first use (tracing.js, mcp.js, the providers) are bundled
// apart and carry their own copy of this class: `instanceof EdgegraphError`
// holds for an error of any copy through this brand (a global symbol).
const BRAND = Symbol.for('edgegraph.EdgegraphError');

export class EdgegraphError extends Error {
  static [Symbol.hasInstance](value) {
    const own = Function.prototype[Symbol.hasInstance].call(this, value);
    return own || (this === EdgegraphError && value !== null && typeof value === 'object' && value[BRAND] === true);
  }

  get [BRAND]() { return true; }

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

/** What a thrown value says, as JSON for the core and events: its message, name and code. */
export function describeThrown(e) {
  if (e instanceof Error) {
    const out = { message: e.message || e.name, name: e.name };
    if (typeof e.code === 'string') out.code = e.code;
    return out;
  }
  return { message: String(e) };
}
