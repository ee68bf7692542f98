// graph.js: LangGraph's StateGraph builder. It only records nodes and edges;
// compile() (graph-runner.js) turns them into an edgegraph definition that runs
// on the C core like any other graph.

import { channelsOf } from './annotation.js';
import { GraphValidationError, UnreachableNodeError } from './errors.js';
import { CompiledStateGraph } from './compiled.js';
import { EMPTY, SHAPE } from '../objects.js';
import { isObject } from './messages.js';
import { isToolNode, runTools, loadCalls } from './tool-node.js';

export const START = '__start__';
export const END = '__end__';

/** Run `node` with `args` as its whole input (LangGraph's Send). */
export class Send {
  constructor(node, args) { this.lg_name = 'Send'; this.node = node; this.args = args; }
  toJSON() { return { ...this }; }   // plain data (the engine refuses class instances without toJSON)
}

/** Whether `n` names a node of `nodes`, START or END. (A module function, not a closure made per compile: V8 drops a closure's optimized code at a full GC; see graph-runner.js.) */
const isNode = (nodes, n) => nodes.has(n) || n === END || n === START;

/**
 * A runnable's invoke() as a node function, called with the parent's config without its thread
 * (made apart: addNode's own frame captures nothing). A ToolNode (LangGraph's too) runs here
 * (tool-node.js), with the node's config as LangGraph's gets it; async, so that interrupt() in a
 * tool finds its node after an await.
 */
const invokerOf = (runnable) => (isToolNode(runnable) && loadCalls()
  ? async (s, c) => runTools(runnable, s, c)
  : (s, c) => runnable.invoke(s, { ...c, configurable: { ...c?.configurable, thread_id: undefined, checkpoint_id: undefined } }));

export class StateGraph {
  /** @type {Map<string, { fn: Function, options: object }>} */
  nodes = new Map();
  /** @type {Array<[string, string]>} static edges */
  edges = [];
  /** @type {Array<[string[], string]>} waiting edges: the target runs once every source has */
  joins = [];
  /** @type {Map<string, Array<{ path: Function, pathMap?: object }>>} */
  branches = new Map();
  channels;
  /** @type {Set<string> | null} the keys invoke() returns, when an output schema says */
  output;
  /** @type {Set<string> | null} the keys invoke() takes, when an input schema says */
  input;
  /** @type {Set<string> | null} the state schema's own keys, once a node's input schema adds private channels (what other nodes get) */
  stateKeys = null;

  /** `options`: LangGraph 1.x's { input, output } schemas (a context schema, the other second argument, shapes no state). */
  constructor(schema, options) {
    if (schema === SHAPE) return;
    if (schema === undefined) throw new GraphValidationError('StateGraph needs a state: an Annotation.Root or { channels }');
    const io = options?.input || options?.output ? { state: schema, input: options.input, output: options.output } : schema;
    ({ channels: this.channels, input: this.input, output: this.output } = channelsOf(io));
  }

  /** One kept for good, for its shape (objects.js's SHAPE). */
  static #shape = new StateGraph(SHAPE);

  /** addNode(name, fn, options?) or addNode({ name: fn, ... }). */
  addNode(name, fn, options) {
    if (isObject(name) && !Array.isArray(name)) {
      for (const [n, f] of Object.entries(name)) this.addNode(n, f);
      return this;
    }
    if (typeof name !== 'string' || !name) throw new GraphValidationError('a node needs a name');
    if (name === START || name === END) throw new GraphValidationError(`Node \`${name}\` is reserved.`);
    if (name.includes('|') || name.includes(':')) throw new GraphValidationError(`'${name}' is not a valid node name: '|' and ':' are reserved`);
    if (this.nodes.has(name)) throw new GraphValidationError(`Node \`${name}\` already present.`, { code: 'DUPLICATE_NODE', node: name });
    if (this.channels.has(name)) throw new GraphValidationError(`'${name}' is already being used as a state key`, { node: name });
    // A compiled graph of this entry runs as a subgraph node (subgraph-node.js); another
    // runnable is called with the parent's config, without its thread.
    const subgraph = typeof fn?.invoke === 'function' ? fn : null;
    const run = typeof fn === 'function' ? fn : subgraph && invokerOf(subgraph);
    if (!run) throw new GraphValidationError(`node '${name}' needs a function or a compiled graph`, { node: name });
    // A node's own input schema may declare channels the graph's does not (LangGraph's private state):
    // they join the graph's, and invoke() still takes and returns the graph's own, which other nodes get.
    if (options?.input) {
      this.stateKeys ??= new Set(this.channels.keys());
      this.output ??= this.stateKeys;
      this.input ??= this.stateKeys;
      for (const [key, c] of channelsOf(options.input).channels) if (!this.channels.has(key)) this.channels.set(key, c);
    }
    this.nodes.set(name, { fn: run, options: options ?? EMPTY, subgraph });   // (EMPTY: no object made a node without options)
    return this;
  }

  /** addEdge(from, to); a list of sources is a join: `to` waits for all of them. */
  addEdge(from, to) {
    const join = Array.isArray(from);
    if (join ? from.includes(END) : from === END) throw new GraphValidationError('END cannot be a start node');
    if (to === START) throw new GraphValidationError('START cannot be an end node');
    if (join) this.joins.push([from.slice(), to]);
    else this.edges.push([from, to]);
    return this;
  }

  /** A router after `from`: `path(state, config)` returns node names, Sends or END; `pathMap` maps its answers to nodes. */
  addConditionalEdges(from, path, pathMap) {
    if (isObject(from)) ({ source: from, path, pathMap } = from);
    if (typeof path !== 'function') throw new GraphValidationError(`the conditional edge from '${from}' needs a function`);
    this.branches.set(from, [...(this.branches.get(from) ?? []), { path, pathMap }]);
    return this;
  }

  /** Nodes one after the other: a list of functions (named by `fn.name`), of [name, fn], or { name: fn }. */
  addSequence(nodes) {
    const list = Array.isArray(nodes) ? nodes.map((n) => (Array.isArray(n) ? n : [n.name, n])) : Object.entries(nodes);
    if (list.length < 1) throw new GraphValidationError('Sequence requires at least one node.');
    // (A name already used: addNode's DUPLICATE_NODE.)
    list.forEach(([name, fn], i) => {
      this.addNode(name, fn);
      if (i) this.addEdge(list[i - 1][0], name);
    });
    return this;
  }

  /**
   * LangGraph 1.7's graph-wide node options (retryPolicy, cachePolicy, timeout, errorHandler), applied at
   * compile(): a node's own win, then a later call's. (`nodeDefaults`: each call's, latest first; a field left undefined is none.)
   */
  setNodeDefaults(defaults) {
    (this.nodeDefaults ??= []).unshift(defaults);
    return this;
  }

  setEntryPoint(name) { return this.addEdge(START, name); }
  setFinishPoint(name) { return this.addEdge(name, END); }

  /** @param {{ checkpointer?: object, interruptBefore?: string[] | '*', interruptAfter?: string[] | '*', name?: string }} [options] */
  compile(options) {
    this.#validate();
    return new CompiledStateGraph(this, options ?? {});
  }

  #validate() {
    const { nodes, edges, joins, branches } = this;
    // Sources and targets in plain lists (a join's sources are a list): no flatMap, spread or destructured pair an edge.
    const sources = [], targets = [];
    for (let i = 0; i < edges.length; i++) { sources.push(edges[i][0]); targets.push(edges[i][1]); }
    for (const [from, to] of joins) { sources.push(...from); targets.push(to); }
    sources.push(...branches.keys());
    if (!sources.includes(START)) throw new GraphValidationError('Graph must have an entrypoint: add at least one edge from START to another node');
    for (const s of sources) if (!isNode(nodes, s)) throw new GraphValidationError(`Found edge starting at unknown node '${s}'`, { node: s });
    for (const t of targets) if (!isNode(nodes, t)) throw new GraphValidationError(`Found edge ending at unknown node \`${t}\``, { node: t });
    const reached = new Set(targets);
    // Every node needs a way in: an edge, a branch's path map (a list's values are its items), a
    // branch without one (it may go anywhere but back to its source; `free`: their sources), or another node's `ends`.
    const free = new Set();
    for (const [from, list] of branches) {
      for (const { pathMap } of list) {
        if (pathMap === undefined) free.add(from);
        else for (const t of Object.values(pathMap)) {
          if (!isNode(nodes, t)) throw new GraphValidationError(`At '${from}' node, 'path' and 'pathMap' map to unknown node \`${t}\``, { node: from });
          reached.add(t);
        }
      }
    }
    for (const { options } of nodes.values()) if (options.ends) for (const t of options.ends) reached.add(t);
    for (const name of nodes.keys()) {
      if (!reached.has(name) && ![...free].some((from) => from !== name)) throw new UnreachableNodeError(`Node \`${name}\` is not reachable (a Command's targets go in { ends })`, { node: name });
    }
  }
}
