// compiled.js: a compiled StateGraph, LangGraph's face of a GraphRunner
// (graph-runner.js), which runs it on edgegraph's GraphEngine: invoke,
// stream and batch, the thread's state (thread-state.js, loaded on first
// use), its subgraphs and diagram, withConfig and dispose.

import { clearNodeCache } from './edgegraph.js';
import { GraphRunner } from './graph-runner.js';
import { graphData } from './graph-data.js';
import { EMPTY } from '../objects.js';
import { cacheOf } from './cache.js';
import { callConfig, NO_CONFIG } from './config.js';

// A compiled graph's runner, for a parent graph that uses it as a node (else
// undefined). A private field, not a WeakMap: V8 keeps a WeakMap's values through
// minor GCs, so every compiled graph's closures would reach the old generation.
export let runnerOf;

/** A stream's chunks, collected. */
async function chunksOf(stream) {
  const chunks = [];
  for await (const chunk of await stream) chunks.push(chunk);
  return chunks;
}

/**
 * A compiled graph's threads' state (getState, getStateHistory, updateState): thread-state.js, loaded on
 * first use, as an app that only runs graphs never reads it (it is a third of what this entry would load).
 */
const threads = (runner) => import('./thread-state.js').then((m) => m.threadState(runner));

export class CompiledStateGraph {
  #runner;
  #config;
  static { runnerOf = (graph) => (graph instanceof CompiledStateGraph ? graph.#runner : undefined); }
  /** One kept for good, for its shape (../objects.js's SHAPE): GraphRunner's own, without a graph. */
  static #shape = new CompiledStateGraph(null, {}, new GraphRunner());

  constructor(builder, options, runner = new GraphRunner(builder, options), config = NO_CONFIG) {
    this.builder = builder;
    for (const key of ['checkpointer', 'cache', 'interruptBefore', 'interruptAfter']) this[key] = options[key];
    this.name = options.name ?? 'LangGraph';
    this.#runner = runner;
    this.#config = config;
  }

  /** The run's values; with a streamMode other than 'values', its chunks (LangGraph's invoke() collects them so). */
  invoke(input, config) {
    const call = callConfig(this.#runner, this.#config, config);
    return call.streamMode === undefined || call.streamMode === 'values' ? this.#runner.invoke(input, call) : chunksOf(this.#runner.stream(input, call));
  }
  stream(input, config) { return this.#runner.stream(input, callConfig(this.#runner, this.#config, config)); }
  getState(config, options) { return threads(this.#runner).then((t) => t.getState(config, options)); }
  updateState(config, values, asNode) { return threads(this.#runner).then((t) => t.updateState(config, values, asNode)); }
  async *getStateHistory(config, options) { yield* (await threads(this.#runner)).getStateHistory(config, options); }
  /** invoke() of each input, together (LangChain's Runnable.batch): `config` one for all, or one each. */
  batch(inputs, config, options) {
    return Promise.all(inputs.map((input, i) => {
      const run = this.invoke(input, Array.isArray(config) ? config[i] : config);
      return options?.returnExceptions ? run.catch((e) => e) : run;   // (LangChain's: a failed input's error in its place)
    }));
  }

  /**
   * The compiled graphs used as its nodes, as [name, graph] (LangGraph's): `namespace`, only the one
   * there (`<node>|<child node>`, with `recurse`); `recurse`, their own too, named so.
   */
  *getSubgraphs(namespace, recurse) {
    for (const [name, graph] of this.#runner.children) {
      if (namespace !== undefined && !namespace.startsWith(name)) continue;
      if (namespace === name) { yield [name, graph]; return; }
      if (namespace === undefined) yield [name, graph];
      if (recurse) for (const [child, g] of graph.getSubgraphs(namespace?.slice(name.length + 1), recurse)) yield [`${name}|${child}`, g];
    }
  }

  async *getSubgraphsAsync(namespace, recurse) { yield* this.getSubgraphs(namespace, recurse); }

  /** The graph as data, as LangGraph's getGraph() (graph-data.js), with edgegraph's Mermaid diagram. */
  getGraph() { const { engine } = this.#runner; return graphData(this.builder, () => engine.toMermaid()); }
  async getGraphAsync() { return this.getGraph(); }

  /** Forget the results the cache keeps for this graph's nodes. */
  async clearCache() { const cache = cacheOf(this.cache); if (cache) await clearNodeCache(cache, [...this.builder.nodes.keys()]); }

  /** The same graph with `config` as every call's defaults (recursionLimit, configurable, ...). */
  withConfig(config) {
    // This graph's fields are the options the constructor reads.
    return new CompiledStateGraph(this.builder, this, this.#runner, { ...EMPTY, ...this.#config, ...config });
  }

  /** Free the engine's WebAssembly memory now (otherwise when the graph is collected). */
  dispose() {
    this.#runner.engine.dispose();
  }
}
if (typeof Symbol.dispose === 'symbol') CompiledStateGraph.prototype[Symbol.dispose] = CompiledStateGraph.prototype.dispose;
