// definition.js: turn a JS graph definition (functions for nodes and
// routers) into the JSON definition the core validates, plus the tables
// that map handler and router names back to functions.

import { EdgegraphError } from './errors.js';
import { hasOwn, isPlainObject } from './objects.js';
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


const DEFINITION_KEYS = ['nodes', 'edges', 'entryPoint', 'end', 'state', 'name', 'maxSteps', 'version', 'renamedNodes', 'migrate'];


/**
 * @param {any} definition
 * @param {{ handlers?: Record<string, Function>, routers?: Record<string, Function>, maxSteps?: number, retry?: object, cache?: object }} options
 */
export function normalizeDefinition(definition, options = {}) {
  if (!isPlainObject(definition)) throw new EdgegraphError('INVALID_DEFINITION', 'a graph definition must be an object with nodes, edges and entryPoint');
  const handlers = new Map();
  const routers = new Map();
  const subgraphs = new Map();
  for (const [name, fn] of Object.entries(options.handlers ?? {})) handlers.set(name, fn);
  for (const [name, fn] of Object.entries(options.routers ?? {})) routers.set(name, fn);
  // A misspelt key (entrypoint, edge) would otherwise vanish silently.
  for (const key of Object.keys(definition)) {
    if (!DEFINITION_KEYS.includes(key)) {
      throw new EdgegraphError('INVALID_DEFINITION', `unknown field '${key}' in the graph definition; the known fields are ${DEFINITION_KEYS.join(', ')}`);
    }
  }
  const json = {};
  for (const key of ['entryPoint', 'end', 'state', 'name', 'version', 'renamedNodes']) if (definition[key] !== undefined) json[key] = definition[key];
  if (definition.migrate !== undefined && typeof definition.migrate !== 'function') throw new EdgegraphError('INVALID_DEFINITION', "'migrate' must be a function (state, fromVersion) => state");
  if (definition.maxSteps !== undefined) json.maxSteps = definition.maxSteps;
  // Reducers written in JS: the core gets 'last', the JS layer folds (host-reducers.js).
  const split = splitStateReducers(json.state);
  if (split.reducers) json.state = split.state;

  const nodes = definition.nodes;
  if (!isPlainObject(nodes)) throw new EdgegraphError('INVALID_DEFINITION', "'nodes' must be an object of node name -> node function");
  json.nodes = {};
  // Nodes and routers named by a string, checked once every function is known
  // (options.handlers may hold them). One pass over the nodes and one over the
  // edges: this runs for every graph, and LangGraph programs compile theirs often.
  const named = [];
  // Retry and timeout policies and error edges, for the run (the core checks them when it parses the graph).
  const policies = new Map();
  const errorEdges = new Set();
  for (const name of Object.keys(nodes)) {
    const node = nodes[name];
    let spec;
    if (typeof node === 'function') {
      if (node[KIND] === 'end') spec = { kind: 'end' };
      else { spec = {}; handlers.set(name, node); }
    } else if (isPlainObject(node) && node.kind === 'subgraph') {
      // The engine binds a handler that runs the child graph.
      if (node.graph === null || typeof node.graph !== 'object') {
        throw new EdgegraphError('INVALID_DEFINITION', `nodes.${name}: a subgraph node needs 'graph' (a GraphEngine or a definition)`, { node: name });
      }
      const { graph, input, output, options: childOptions, around, persist, holdPause, ...rest } = node;
      subgraphs.set(name, { graph, input, output, options: childOptions, around, persist, holdPause });
      spec = rest;
      handlers.set(name, () => ({})); // placeholder until the engine binds it
      if (rest.handler !== undefined) named.push(name);
    } else if (isPlainObject(node)) {
      // The function leaves the spec; the rest is copied as it is (no `delete`: V8 makes such objects slow).
      const fn = typeof node.handler === 'function' ? 'handler' : typeof node.run === 'function' ? 'run' : null;
      spec = {};
      for (const key of Object.keys(node)) if (key !== fn && key !== 'cache') spec[key] = node[key];
      if (fn) handlers.set(name, node[fn]);
      // A cache policy wraps the node's function (node-cache.js); the core never sees it.
      if (node.cache !== undefined) {
        const run = handlers.get(spec.handler ?? name);
        if (typeof run === 'function') { handlers.set(name, cachedHandler(name, run, node.cache, options.cache)); if (spec.handler !== undefined) spec.handler = name; }
      }
      if (spec.kind !== 'end' && spec.kind !== 'human' && !(fn && spec.handler === undefined)) named.push(name);
    } else {
      throw new EdgegraphError('INVALID_DEFINITION', `nodes.${name} must be a function or a node object`, { node: name });
    }
    // options.retry: the default of every node without its own (checked by the core as theirs;
    // not part of the graph's identity, as a node's retry is not).
    if (options.retry !== undefined && spec.kind !== 'end' && spec.retry === undefined) spec.retry = options.retry;
    if (spec.retry || spec.timeoutMs) policies.set(name, { retry: spec.retry, timeoutMs: spec.timeoutMs });
    if (spec.onError !== undefined) errorEdges.add(name);
    json.nodes[name] = spec;
  }

  json.edges = {};
  const edges = definition.edges ?? {};
  if (!isPlainObject(edges)) throw new EdgegraphError('INVALID_DEFINITION', "'edges' must be an object of source node -> edge");
  const namedRouters = [];
  for (const from of Object.keys(edges)) {
    const edge = edges[from];
    if (typeof edge === 'function') {
      routers.set(from, edge);
      json.edges[from] = { router: from };
    } else if (isPlainObject(edge) && typeof edge.router === 'function') {
      routers.set(from, edge.router);
      json.edges[from] = { ...edge, router: from };
    } else {
      if (isPlainObject(edge) && typeof edge.router === 'string') namedRouters.push(from);
      json.edges[from] = edge;
    }
  }

  // Every function node and router must have a function: a programmer error,
  // caught here at construction rather than mid-run.
  for (const name of named) {
    const handler = json.nodes[name].handler ?? name;
    if (typeof handlers.get(handler) !== 'function') {
      throw new EdgegraphError('UNKNOWN_HANDLER', `node '${name}' has no function: pass one in nodes.${name} or options.handlers['${handler}']`, { node: name });
    }
  }
  for (const from of namedRouters) {
    const edge = json.edges[from];
    if (typeof routers.get(edge.router) !== 'function') {
      throw new EdgegraphError('UNKNOWN_HANDLER', `the edge from '${from}' names router '${edge.router}', which has no function: pass it in options.routers`, { node: from });
    }
  }
  // Subgraph nodes keep their child's checkpoint under state.subgraphs.<node>;
  // the frame preset merges that key, other schemas get the reducer here.
  if (subgraphs.size && isPlainObject(json.state)) {
    json.state = { ...json.state, reducers: { subgraphs: 'merge', ...(json.state.reducers ?? {}) } };
  }
  return { json, handlers, routers, subgraphs, hostReducers: split.reducers, policies, errorEdges };
}
