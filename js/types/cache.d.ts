// Node caching (js/node-cache.js): a node's result reused for equal input within a time to live.

/** A node's cache policy (nodes.<name>.cache); the engine needs the option `cache`. */
export interface NodeCachePolicy<S extends object = any> {
  /** How long a result is reused, in milliseconds (default: until the cache is cleared). */
  ttlMs?: number;
  /** The input a result is kept under (default: a Send's argument, else the state without the run's own keys). */
  key?: (state: Readonly<S>, context: { readonly arg?: unknown }) => unknown;
}

/** Where results are kept, in LangGraph's BaseCache shape (its caches fit): ttl in seconds. */
export interface NodeCache {
  get(keys: Array<[namespace: string[], key: string]>): Promise<Array<{ key: [string[], string]; value: unknown }>>;
  set(pairs: Array<{ key: [namespace: string[], key: string]; value: unknown; ttl?: number }>): Promise<void>;
  clear(namespaces?: string[][]): Promise<void>;
}

/** Results in memory, each until its ttl runs out. */
export declare class InMemoryCache implements NodeCache {
  get(keys: Array<[namespace: string[], key: string]>): Promise<Array<{ key: [string[], string]; value: unknown }>>;
  set(pairs: Array<{ key: [namespace: string[], key: string]; value: unknown; ttl?: number }>): Promise<void>;
  clear(namespaces?: string[][]): Promise<void>;
}

/**
 * `call()`'s value, or the one `cache` holds for node `node` and `key` (made a string with JSON
 * unless it is one) within `ttl` seconds; a call that throws stores nothing. What node caching runs on.
 */
export declare function cachedCall<T>(cache: NodeCache, entry: { node: string; key: unknown; ttl?: number }, call: () => T | Promise<T>): Promise<{ value: T; cached: boolean }>;

/** Forget the results of these nodes in `cache` (every node's: cache.clear()). */
export declare function clearNodeCache(cache: NodeCache, nodes: string[]): Promise<void>;
