// node-cache.js: a node's result reused for equal input within a time to
// live. The cache has LangGraph's shape (get/set/clear over [namespace, key]
// pairs, ttl in seconds), so its InMemoryCache and others of that shape plug
// in too; one namespace per node, so two nodes never share a result. A
// cached result is handed to the run like a fresh one: the node's events and
// writes come in the same order. A call that throws (an interrupt() too)
// stores nothing.

import { EdgegraphError } from './errors.js';
import { Command, isCommand } from './command.js';

/** Results in memory, each until its ttl (seconds) runs out; none: until cleared. */
export class InMemoryCache {
  #spaces = new Map();

  /** @param {Array<[string[], string]>} keys @returns {Promise<Array<{ key: [string[], string], value: unknown }>>} */
  async get(keys) {
    const now = Date.now();
    const out = [];
    for (const fullKey of keys) {
      const space = this.#spaces.get(fullKey[0].join(','));
      const entry = space?.get(fullKey[1]);
      if (!entry) continue;
      if (entry.expires !== null && now >= entry.expires) { space.delete(fullKey[1]); continue; }
      out.push({ key: fullKey, value: entry.value });
    }
    return out;
  }

  /** @param {Array<{ key: [string[], string], value: unknown, ttl?: number }>} pairs */
  async set(pairs) {
    const now = Date.now();
    for (const { key: [namespace, key], value, ttl } of pairs) {
      const name = namespace.join(',');
      if (!this.#spaces.has(name)) this.#spaces.set(name, new Map());
      this.#spaces.get(name).set(key, { value, expires: ttl === undefined || ttl === null ? null : now + ttl * 1000 });
    }
  }

  /** @param {string[][]} [namespaces] those to empty; none: everything */
  async clear(namespaces = []) {
    if (!namespaces.length) this.#spaces.clear();
    for (const namespace of namespaces) this.#spaces.delete(namespace.join(','));
  }
}

const NAMESPACE = '__edgegraph_node__';

/** The cache namespace of node `node`. */
const cacheNamespace = (node) => [NAMESPACE, node];

/** Forget the results of these nodes (all of them: cache.clear()). */
export function clearNodeCache(cache, nodes) {
  return cache.clear(nodes.map(cacheNamespace));
}

/** Whether `cache` has the shape a node cache needs. */
function isNodeCache(cache) {
  return cache !== null && typeof cache === 'object' && ['get', 'set', 'clear'].every((m) => typeof cache[m] === 'function');
}

/**
 * `call()`'s value, or the one stored for (`node`, `key`) within its ttl
 * (seconds): { value, cached }. The value is stored as JSON, so each hit is a
 * fresh copy (its caller may change it freely).
 */
export async function cachedCall(cache, { node, key, ttl }, call) {
  const fullKey = [cacheNamespace(node), typeof key === 'string' ? key : JSON.stringify(key) ?? 'undefined'];
  const [hit] = await cache.get([fullKey]);
  if (hit) {
    // A Command's brand is a symbol, which JSON drops: `c` says the value was one.
    const { v, c } = JSON.parse(hit.value);
    return { value: c ? new Command(v) : v, cached: true };
  }
  const value = await call();
  await cache.set([{ key: fullKey, value: JSON.stringify(isCommand(value) ? { v: { ...value }, c: 1 } : { v: value }), ttl }]);
  return { value, cached: false };
}

// The engine's bookkeeping, left out of a node's default cache key (it changes every step).
const RUN_KEYS = new Set(['stepCount', 'status', 'currentNode', 'nextNode', 'error', 'subgraphs', 'pendingAskUser']);

/**
 * A node function of edgegraph's own API with a cache policy
 * `{ ttlMs?, key?: (state, ctx) => unknown }` (nodes.<name>.cache); the key
 * defaults to the node's input: a Send's argument, else the state without
 * the run's own keys.
 */
export function cachedHandler(name, handler, policy, cache) {
  if (!isNodeCache(cache)) {
    throw new EdgegraphError('INVALID_DEFINITION', `nodes.${name}.cache needs a cache to keep results in: pass the engine option cache (e.g. new InMemoryCache())`, { node: name });
  }
  if (policy === null || typeof policy !== 'object' || (policy.key !== undefined && typeof policy.key !== 'function')
      || (policy.ttlMs !== undefined && !(Number.isFinite(policy.ttlMs) && policy.ttlMs > 0))) {
    throw new EdgegraphError('INVALID_DEFINITION', `nodes.${name}.cache must be { ttlMs?: a number > 0, key?: (state, ctx) => value }`, { node: name });
  }
  const keyOf = policy.key ?? ((state, ctx) => {
    if (ctx.arg !== undefined) return ctx.arg;
    const input = {};
    for (const k of Object.keys(state)) if (!RUN_KEYS.has(k)) input[k] = state[k];
    return input;
  });
  const ttl = policy.ttlMs === undefined ? undefined : policy.ttlMs / 1000;
  return async (state, engine, ctx) => (await cachedCall(cache, { node: name, key: keyOf(state, ctx), ttl }, () => handler(state, engine, ctx))).value;
}
