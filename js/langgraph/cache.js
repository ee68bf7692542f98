// cache.js: LangGraph's node caching (addNode(name, fn, { cachePolicy }) with
// compile({ cache })) over edgegraph's node cache (js/node-cache.js).

import { cachedCall, InMemoryCache, EdgegraphError } from './edgegraph.js';
import { isCommand, Command } from './command.js';

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
 * (compiled.js calls the node as it is, with no wrapper on its hot path).
 */
export function withCache(name, fn, policy, cache) {
  if (!policy || !cache) return null;
  const { ttl, keyFunc } = policy === true ? {} : policy;
  // (The key: LangGraph passes the input to keyFunc as a list of arguments.)
  return (input, config) => cachedCall(cache, { node: name, key: keyFunc ? keyFunc([input]) : input, ttl }, async () => storable(await fn(input, config)));
}

/**
 * A node's result as JSON keeps it (the cache stores its JSON): a Command as this entry's (whose
 * JSON is one: an edgegraph Command's brand is a symbol, which JSON drops). A LangChain message's
 * JSON is its serialized form ({ lc: 1, ... }), which messages.js reads as the message itself.
 */
const storable = (out) => (Array.isArray(out) ? out.map(storable) : isCommand(out) ? new Command(out) : out);
