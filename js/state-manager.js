// state-manager.js: the StateManager of seed 002 over the C core. Every
// method takes a state and returns a new one; arguments are never mutated
// (states cross into the core as JSON and come back as fresh objects).

import { getCore } from './loader.js';
import { EdgegraphError } from './errors.js';
import { CoreObject } from './handle.js';
import { deepFreeze, hasOwn } from './objects.js';


function getPath(obj, path) {
  let v = obj;
  for (const k of path) { if (!hasOwn(v, k)) return undefined; v = v[k]; }
  return v;
}

function setPath(obj, path, value) {
  let v = obj;
  for (const k of path.slice(0, -1)) {
    if (!hasOwn(v, k) || v[k] === null || typeof v[k] !== 'object') Object.defineProperty(v, k, { value: {}, writable: true, enumerable: true, configurable: true });
    v = v[k];
  }
  Object.defineProperty(v, path.at(-1), { value, writable: true, enumerable: true, configurable: true });
}

export class StateManager extends CoreObject {
  #core;
  #handle;
  #functions; // [{ path: string[], partition, fn }]

  /**
   * @param {Record<string, string | ((current: unknown, incoming: unknown) => unknown)>} [reducers]
   *   by dotted path, e.g. { 'scratch.messages': 'concat', 'scratch.best': (a, b) => Math.max(a, b) }
   */
  constructor(reducers = {}) {
    const core = getCore();
    const named = {};
    const functions = [];
    for (const [path, reducer] of Object.entries(reducers ?? {})) {
      if (typeof reducer === 'function') {
        // The core treats the path as last-write-wins; JS computes the value.
        functions.push({ path: path.split('.'), fn: reducer });
        named[path] = 'last';
      } else {
        named[path] = reducer;
      }
    }
    const handle = core.smNew(JSON.stringify(named));
    super('StateManager', () => core.smFree(handle));
    this.#core = core;
    this.#handle = handle;
    this.#functions = functions;
  }

  /** The core handle; DISPOSED after dispose(). */
  get #h() {
    this.assertAlive();
    return this.#handle;
  }

  /** A clean state; `input` is deep-frozen. */
  initialize(input) {
    return this.#finish(this.#core.smInitialize(this.#h, JSON.stringify(input ?? null)));
  }

  /** Write `patch` into state.scratch through the reducers. */
  updateScratch(state, patch) { return this.#update(state, 'scratch', patch); }

  /** Write `patch` into state.artifacts (reducers at artifacts.* apply; otherwise last write wins). */
  updateArtifacts(state, patch) { return this.#update(state, 'artifacts', patch); }

  /** Write `patch` into state.memory. */
  updateMemory(state, patch) { return this.#update(state, 'memory', patch); }

  /** currentNodeId = nodeId, visitedNodes += nodeId, iteration += 1. */
  recordNodeVisit(state, nodeId) {
    this.assertAlive();
    if (typeof nodeId !== 'string') throw new EdgegraphError('INVALID_INPUT', 'recordNodeVisit needs a node id (string)');
    return this.#finish(this.#core.smVisit(this.#h, JSON.stringify(state), nodeId));
  }

  /**
   * Merge parallel branch states into `baseState`: each branch's delta
   * (what it wrote, not its whole state) goes through the reducers in branch
   * order, for scratch and artifacts. Different values written to one path
   * without a reducer are a PARALLEL_CONFLICT error.
   */
  mergeParallelBranches(baseState, branchStates) {
    this.assertAlive();
    if (!Array.isArray(branchStates)) throw new EdgegraphError('INVALID_INPUT', 'mergeParallelBranches needs a list of branch states');
    const merged = JSON.parse(this.#core.smMerge(this.#h, JSON.stringify(baseState), JSON.stringify(branchStates)));
    for (const { path, fn } of this.#functions) {
      if (path[0] !== 'scratch' && path[0] !== 'artifacts') continue;
      const base = getPath(baseState, path);
      let acc = base;
      for (const branch of branchStates) {
        const value = getPath(branch, path);
        if (value === undefined || JSON.stringify(value) === JSON.stringify(base)) continue;
        acc = acc === undefined ? value : fn(acc, value);
      }
      if (acc !== undefined) setPath(merged, path, acc);
    }
    deepFreeze(merged.input);
    return merged;
  }

  #update(state, partition, patch) {
    this.assertAlive();
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
      throw new EdgegraphError('INVALID_INPUT', `the ${partition} patch must be an object`);
    }
    let toCore = patch;
    const own = this.#functions.filter((f) => f.path[0] === partition);
    if (own.length) {
      toCore = { ...patch };
      for (const { path, fn } of own) {
        const key = path.slice(1);
        const incoming = getPath(patch, key);
        if (incoming === undefined) continue;
        const current = getPath(state, path);
        if (key.length === 1) toCore[key[0]] = current === undefined ? incoming : fn(current, incoming);
        else { toCore = structuredClone(toCore); setPath(toCore, key, current === undefined ? incoming : fn(current, incoming)); }
      }
    }
    return this.#finish(this.#core.smUpdate(this.#h, JSON.stringify(state), partition, JSON.stringify(toCore)));
  }

  #finish(json) {
    const state = JSON.parse(json);
    deepFreeze(state.input);
    return state;
  }
}

