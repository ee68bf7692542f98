// cache-run.js: a cached node's call (cache.js's withCache): its key, the cache's result or the
// node's, kept as JSON. Loaded with a cached node's first call.

import { cachedCall, EdgegraphError } from './edgegraph.js';
import { isCommand, Command } from './command.js';

/** Node `name`'s `fn(input, config)` through `cache`: cachedCall's `{ value, cached }`. */
export function cachedRun(name, fn, keyFunc, ttl, cache, input, config) {
  // (The key: LangGraph passes the input to keyFunc as a list of arguments.)
  return cachedCall(cache, { node: name, key: keyFunc ? keyOf(name, keyFunc([input])) : input, ttl }, async () => storable(await fn(input, config)));
}

/**
 * A keyFunc's key: a string. Anything else (undefined from a misspelt key, say) would be one key
 * for every input, one input's result served to another: refused, naming the node.
 */
function keyOf(node, key) {
  if (typeof key !== 'string') throw new EdgegraphError('INVALID_OPTIONS', `cachePolicy.keyFunc of node '${node}' must return a string (got ${typeof key})`, { node });
  return key;
}

/**
 * A node's result as JSON keeps it (the cache stores its JSON): a Command as this entry's (whose
 * JSON is one: an edgegraph Command's brand is a symbol, which JSON drops). A LangChain message's
 * JSON is its serialized form ({ lc: 1, ... }), which messages.js reads as the message itself.
 */
const storable = (out) => (Array.isArray(out) ? out.map(storable) : isCommand(out) ? new Command(out) : out);
