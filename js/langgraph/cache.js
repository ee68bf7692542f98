// cache.js: LangGraph's node caching (addNode(name, fn, { cachePolicy }) with
// compile({ cache })) over edgegraph's node cache (js/node-cache.js).

import { InMemoryCache, EdgegraphError } from './edgegraph.js';

export { InMemoryCache };

/** compile({ cache }): a cache by shape (get, set, clear), as LangGraph's BaseCache. */
export function cacheOf(cache) {
  if (cache === undefined || cache === null) return null;
  if (typeof cache?.get === 'function' && typeof cache.set === 'function' && typeof cache.clear === 'function') return cache;
  throw new EdgegraphError('INVALID_OPTIONS', 'compile({ cache }) takes a cache with get, set and clear');
}

/**
 * `fn(input, config)` as an async function of cachedCall's `{ value, cached }`: with a cache and a policy
 * (`true`, or { ttl: seconds, keyFunc([input]) => string }), a result kept for
 * an equal input within its ttl is `value`, and `cached` says so. Without either: null
 * (graph-runner.js calls the node as it is, with no wrapper on its hot path). The call is cache-run.js's,
 * loaded with a cached node's first (its cache lookup is awaited before the node runs anyway).
 */
export function withCache(name, fn, policy, cache) {
  if (!policy || !cache) return null;
  const { ttl, keyFunc } = policy === true ? {} : policy;
  return (input, config) => import('./cache-run.js').then((m) => m.cachedRun(name, fn, keyFunc, ttl, cache, input, config));
}
