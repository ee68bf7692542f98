// definition.js: turn a JS graph definition (functions for nodes and
// routers) into the JSON definition the core validates, plus the tables
// that map handler and router names back to functions.

import { EdgegraphError } from './errors.js';
import { isPlainObject, isPlainRecord as isRecord } from './objects.js';
import { splitStateReducers } from './host-reducers.js';
import { cachedHandler } from './node-cache.js';

export const END = '__end__';
const KIND = Symbol.for('edgegraph.nodeKind');

/** The END node of the seed API: its function is never run. */
export function createEndNode() {
  const end = () => ({});
  Object.defineProperty(end, KIND, { value: 'end' });
  return end;
}

/** Returns the definition as given; in TypeScript it types the nodes' and routers' arguments. */
export function defineGraph(definition) {
  return definition;
}

/**
 * A router's answer that runs `node` with its own input (LangGraph's Send):
 * the node gets it as `context.arg`. Return a list of these to fan out.
 */
export function send(node, arg) {
  return { node, arg };
}

/**
 * Nodes and edges already listed, with their functions: what
 * edgegraph/langgraph's compile() hands over (definition[PREPARED] = { entries,
 * handlers, routers }: each node's name, spec and edge in turn in `entries`
 * (see preparedParts), and maps of name -> function). This writes their JSON
 * text and the node table in one pass: for 1,000 nodes, building the nodes
 * and edges objects, listing their keys and JSON.stringify were two fifths of
 * a compile. `definition.nodes` may still hold nodes of the ordinary kind (a
 * subgraph); the core checks the whole text as any other. Its edges are in
 * `entries`: that entry gives no `edges` beside them. Symbol.for: that entry
 * is a bundle of its own.
 */
const PREPARED = Symbol.for('edgegraph.preparedGraph');

// isRecord: an object JSON.stringify writes as it is (its own keys, function values
// dropped: the node's function is one), not a class instance whose prototype may have a toJSON.

// What the core gets for a function node, and for createEndNode()'s.
const FUNCTION_NODE = Object.freeze({});
const END_NODE = Object.freeze({ kind: 'end' });

/**
 * The definition as the core's JSON text, and the tables of functions. A
 * node or edge object goes into the text as it is (JSON.stringify drops its
 * function): only a function node, a subgraph, a cache policy, a default
 * retry or a router function makes a new object. This runs for every graph,
 * and LangGraph programs compile theirs often, often with 1,000 nodes.
 * @param {any} definition
 * @param {{ handlers?: Record<string, Function>, routers?: Record<string, Function>, maxSteps?: number, retry?: object, cache?: object }} options
 * @returns {{ text: string, json: object, handlers: Map, routers: Map, subgraphs: Map, hostReducers: Map | null, policies: Map, errorEdges: Set, nodeTable?: Array | null }}
 *   json: what `text` was made from (its nodes and edges may be the caller's own objects: read only its other fields)
 */
export function normalizeDefinition(definition, options = {}) {
  if (!isPlainObject(definition)) throw new EdgegraphError('INVALID_DEFINITION', 'a graph definition must be an object with nodes, edges and entryPoint');
  const prepared = definition[PREPARED];
  const handlers = prepared ? prepared.handlers : new Map();
  const routers = prepared ? prepared.routers : new Map();
  const subgraphs = new Map();
  for (const [name, fn] of Object.entries(options.handlers ?? {})) handlers.set(name, fn);
  for (const [name, fn] of Object.entries(options.routers ?? {})) routers.set(name, fn);
  // The core gets the other fields as they are: a misspelt one (entrypoint, edge) is its
  // INVALID_DEFINITION naming it, not a field that vanishes silently; so is one JSON cannot
  // hold (a function: null here), or `__proto__` (an own key of `json`, which has no prototype).
  // (nodes and edges: below.)
  const json = { __proto__: null };
  for (const key of Object.keys(definition)) {
    const v = definition[key];
    if (key !== 'nodes' && key !== 'edges' && key !== 'migrate' && v !== undefined) json[key] = 'function bigint symbol'.includes(typeof v) ? null : v;
  }
  if (definition.migrate !== undefined && typeof definition.migrate !== 'function') throw new EdgegraphError('INVALID_DEFINITION', "'migrate' must be a function (state, fromVersion) => state");
  // Reducers written in JS: the core gets 'last', the JS layer folds (host-reducers.js).
  const split = splitStateReducers(json.state);
  if (split.reducers) json.state = split.state;

  const nodes = prepared ? definition.nodes ?? {} : definition.nodes;
  if (!isPlainObject(nodes)) throw new EdgegraphError('INVALID_DEFINITION', "'nodes' must be an object of node name -> node function");
  // What the core gets, once a node's JSON is not the node as it is (until then, `nodes` itself).
  let specs = isRecord(nodes) ? null : {};
  const names = Object.keys(nodes);
  // Nodes and routers named by a string: [node, handler name], checked once every function is known (options.handlers may hold them).
  const named = [];
  // Retry and timeout policies and error edges, for the run (the core checks them when it parses the graph).
  const policies = new Map();
  const errorEdges = new Set();
  const defaultRetry = options.retry;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const node = nodes[name];
    let spec = node;
    if (typeof node === 'function') {
      if (node[KIND] === 'end') spec = END_NODE;
      else { spec = FUNCTION_NODE; handlers.set(name, node); }
    } else if (isPlainObject(node) && node.kind === 'subgraph') {
      // The engine binds a handler that runs the child graph.
      if (node.graph === null || typeof node.graph !== 'object') {
        throw new EdgegraphError('INVALID_DEFINITION', `nodes.${name}: a subgraph node needs 'graph' (a GraphEngine or a definition)`, { node: name });
      }
      const { graph, input, output, options: childOptions, around, persist, holdPause, ...rest } = node;
      subgraphs.set(name, { graph, input, output, options: childOptions, around, persist, holdPause });
      spec = rest;
      handlers.set(name, () => ({})); // placeholder until the engine binds it
      if (rest.handler !== undefined) named.push([name, rest.handler]);
    } else if (isPlainObject(node)) {
      // The node's function, if it has one: in handler, else in run (then handler may name another).
      const fnKey = typeof node.handler === 'function' ? 'handler' : typeof node.run === 'function' ? 'run' : null;
      const handler = fnKey === 'handler' ? undefined : node.handler;
      if (fnKey) handlers.set(name, node[fnKey]);
      // A function drops out of the JSON by itself; a cache policy is the JS layer's alone.
      if (node.cache !== undefined || !isRecord(node)) {
        spec = {};
        for (const key of Object.keys(node)) if (key !== fnKey && key !== 'cache') spec[key] = node[key];
      }
      // A cache policy wraps the node's function (node-cache.js); the core never sees it.
      if (node.cache !== undefined) {
        const run = handlers.get(handler ?? name);
        if (typeof run === 'function') { handlers.set(name, cachedHandler(name, run, node.cache, options.cache)); if (handler !== undefined) spec.handler = name; }
      }
      if (node.kind !== 'end' && node.kind !== 'human' && !(fnKey && handler === undefined)) named.push([name, spec.handler ?? name]);
    } else {
      throw new EdgegraphError('INVALID_DEFINITION', `nodes.${name} must be a function or a node object`, { node: name });
    }
    // options.retry: the default of every node without its own (checked by the core as theirs;
    // not part of the graph's identity, as a node's retry is not).
    if (defaultRetry !== undefined && spec.kind !== 'end' && spec.retry === undefined) spec = { ...spec, retry: defaultRetry };
    if (spec !== node && !specs) specs = copyOf(nodes, names, i);
    if (specs) specs[name] = spec;
    notePolicy(policies, name, spec);
    if (spec.onError !== undefined) errorEdges.add(name);
  }

  const edges = definition.edges ?? {};
  if (!isPlainObject(edges)) throw new EdgegraphError('INVALID_DEFINITION', "'edges' must be an object of source node -> edge");
  // Likewise the edges: a router function is named after its source.
  let edgeSpecs = isRecord(edges) ? null : {};
  const sources = Object.keys(edges);
  for (let i = 0; i < sources.length; i++) {
    const from = sources[i];
    const edge = edges[from];
    let spec = edge;
    if (typeof edge === 'function') {
      routers.set(from, edge);
      spec = { router: from };
    } else if (isPlainObject(edge) && typeof edge.router === 'function') {
      routers.set(from, edge.router);
      spec = { ...edge, router: from };
    } else if (isPlainObject(edge) && typeof edge.router === 'string') {
      // Every router must have a function: a programmer error, caught here at construction rather than mid-run.
      named.push([from, edge.router, true]);
    }
    if (spec !== edge && !edgeSpecs) edgeSpecs = copyOf(edges, sources, i);
    if (edgeSpecs) edgeSpecs[from] = spec;
  }

  for (const [name, handler, isRouter] of named) {
    if (isRouter) {
      if (typeof routers.get(handler) !== 'function') throw new EdgegraphError('UNKNOWN_HANDLER', `the edge from '${name}' names router '${handler}', which has no function: pass it in options.routers`, { node: name });
    } else if (typeof handlers.get(handler) !== 'function') {
      throw new EdgegraphError('UNKNOWN_HANDLER', `node '${name}' has no function: pass one in nodes.${name} or options.handlers['${handler}']`, { node: name });
    }
  }
  // Subgraph nodes keep their child's checkpoint under state.subgraphs.<node>;
  // the frame preset merges that key, other schemas get the reducer here.
  if (subgraphs.size && isPlainObject(json.state)) {
    json.state = { ...json.state, reducers: { subgraphs: 'merge', ...(json.state.reducers ?? {}) } };
  }
  // A prepared graph's text: the fields so far, then its nodes (before the ordinary ones) and edges.
  const parts = prepared ? preparedParts(prepared.entries, policies) : null;
  const text = parts ? preparedText(JSON.stringify(json), parts, JSON.stringify(specs ?? nodes)) : null;
  json.nodes = specs ?? nodes;
  json.edges = edgeSpecs ?? edges;
  // A prepared graph of its nodes alone numbers them as its text lists them: its
  // table is the core's (eg_run_graph_nodes), which a 1,000-node graph's first run parsed.
  const nodeTable = names.length ? null : parts?.table;
  return { text: text ?? JSON.stringify(json), json, handlers, routers, subgraphs, hostReducers: split.reducers, policies, errorEdges, nodeTable };
}

// A prepared node spec of null: a node any Command may go to that is no join (most of a LangGraph graph's).
const PLAIN_NODE = '{"jumpTarget":true,"join":false}';
/** Names that need no escape in JSON (most: JSON.stringify of each cost a 1,000-node compile a tenth). */
const PLAIN_NAME = /^[\w .-]*$/;
// (Module functions, not closures made per graph: V8 drops a closure's optimized code at a full GC.)
const asIs = (name) => name;
const escapedInner = (name) => JSON.stringify(name).slice(1, -1);

/**
 * The members of a prepared graph's "nodes" and "edges" as JSON text, and its node table
 * ([name, handler, router] in the text's order, as eg_run_graph_nodes lists them). `entries`:
 * name, spec, edge of each node in turn; a spec of null is PLAIN_NODE, one of undefined a node
 * of `definition.nodes` instead; an edge of null is a router named after its node, one of
 * { targets } such a router with its declared targets. A spec's
 * retry policy goes into `policies` too (the run applies it: node-policy.js).
 */
function preparedParts(entries, policies) {
  let all = '';
  for (let i = 0; i < entries.length; i += 3) all += entries[i];
  // A name as it goes between quotes: as it is when none needs an escape (one test of them all, no string made a name).
  const inner = PLAIN_NAME.test(all) ? asIs : escapedInner;
  // (Texts grown member by member: ropes, which the engine flattens once; a list of members
  // joined made a string of each, and cost more.)
  let nodes = '', edges = '';
  const table = [];
  for (let i = 0; i < entries.length; i += 3) {
    const name = entries[i], spec = entries[i + 1], edge = entries[i + 2], key = inner(name);
    if (spec !== undefined) nodes += (nodes ? ',"' : '"') + key + '":' + (spec === null ? PLAIN_NODE : JSON.stringify(spec));
    if (spec) notePolicy(policies, name, spec);
    const routed = edge === null || edge.targets !== undefined;
    table.push([name, name, routed ? name : null]);
    edges += (i ? ',"' : '"') + key + '":' + (routed ? `{"router":"${key}"${edge ? `,"targets":${JSON.stringify(edge.targets)}` : ''}}` : typeof edge === 'string' ? `"${inner(edge)}"` : JSON.stringify(edge));
  }
  return { nodes, edges, table };
}

/** A node's retry and timeout, when it has either: for the run (node-policy.js applies them). */
function notePolicy(policies, name, spec) {
  if (spec.retry || spec.timeoutMs) policies.set(name, { retry: spec.retry, timeoutMs: spec.timeoutMs });
}

/** `head` (an object's JSON) with the members "nodes" (prepared.nodes, then those of `ordinary`, an object's JSON) and "edges". */
function preparedText(head, prepared, ordinary) {
  const others = ordinary.slice(1, -1);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"nodes":{${prepared.nodes}${prepared.nodes && others ? ',' : ''}${others}},"edges":{${prepared.edges}}}`;
}

/** A copy of `object`'s first `n` entries (`keys`: its keys). */
function copyOf(object, keys, n) {
  const out = {};
  for (let i = 0; i < n; i++) out[keys[i]] = object[keys[i]];
  return out;
}
