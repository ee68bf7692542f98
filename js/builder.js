// builder.js: build a graph definition step by step.

import { EdgegraphError } from './errors.js';
import { END } from './definition.js';
import { hasOwn } from './objects.js';

export class GraphBuilder {
  #nodes = {};
  #edges = {};
  #entry = undefined;
  #state = undefined;

  /** @param {string} name @param {Function | object} node */
  addNode(name, node) {
    if (hasOwn(this.#nodes, name)) throw new EdgegraphError('DUPLICATE_NODE', `node '${name}' is added twice`, { node: name });
    this.#nodes[name] = node;
    return this;
  }

  /** A static edge; `to` may be a list of nodes to run in parallel. */
  addEdge(from, to) {
    this.#claim(from);
    this.#edges[from] = to;
    return this;
  }

  /**
   * A conditional edge: a router function `(state) => nodeName` (sync or
   * async), or a declarative `{ path, cases, default }`. `targets` lists the
   * nodes the router may choose (for validation and diagrams).
   */
  addConditionalEdge(from, router, targets = undefined) {
    this.#claim(from);
    if (typeof router === 'function') this.#edges[from] = targets ? { router, targets } : router;
    else this.#edges[from] = router;
    return this;
  }

  setEntryPoint(name) { this.#entry = name; return this; }

  /** Reducers and defaults: "frame" (the default) or { reducers, defaults }. */
  setState(state) { this.#state = state; return this; }

  /** The definition, for `new GraphEngine(definition, options)`. */
  build() {
    const def = { nodes: { ...this.#nodes }, edges: { ...this.#edges }, entryPoint: this.#entry };
    if (this.#state !== undefined) def.state = this.#state;
    return def;
  }

  #claim(from) {
    if (hasOwn(this.#edges, from)) {
      throw new EdgegraphError('INVALID_DEFINITION', `node '${from}' already has an outgoing edge`, { node: from });
    }
  }
}

export { END };
