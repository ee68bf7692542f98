// stores.js: where checkpoints live. A store is async functions over string
// keys and string values:
//   get(key) -> string | undefined    put(key, value)    delete(key)
//   list(prefix) -> keys, sorted
//   create(key, value) -> boolean: write only if the key is absent, atomically
//   createNow(key, value) -> boolean (optional): create, synchronous: the
//     write is done when it returns (MemoryStore); a run uses it when it is there
// Each put must be atomic for its key. create is what makes a thread's runs
// exclusive: two resumes of one thread both try to create the same record,
// and exactly one gets true (the Checkpointer relies on it; see create.js
// for stores without it).

import { localStorageClaim, localStorageCreate } from './locks.js';

/** In memory: for tests, single processes and short-lived workers. */
export class MemoryStore {
  #map = new Map();
  /** One kept for good, for its shape (objects.js's SHAPE). */
  static #shape = new MemoryStore();
  async get(key) { return this.#map.get(key); }
  async put(key, value) { this.#map.set(key, String(value)); }
  async create(key, value) { return this.createNow(key, value); }
  /** create, done when it returns: a run's records are written without waiting a turn of the event loop. */
  createNow(key, value) {
    if (this.#map.has(key)) return false;
    this.#map.set(key, String(value));
    return true;
  }
  async delete(key) { this.#map.delete(key); }
  async list(prefix = '') { return [...this.#map.keys()].filter((k) => k.startsWith(prefix)).sort(); }
  /** Bytes held (keys and values, as UTF-16 length): for measurements. */
  get size() { let n = 0; for (const [k, v] of this.#map) n += k.length + v.length; return n; }
}

/**
 * window.localStorage (or any Storage), under a key prefix. localStorage has
 * no transactions: create runs under a Web Lock (navigator.locks) named
 * after the prefix, so tabs of one origin take turns.
 */
export class LocalStorageStore {
  constructor(storage = globalThis.localStorage, prefix = 'edgegraph:', locks = globalThis.navigator?.locks) { this.storage = storage; this.prefix = prefix; this.locks = locks; }
  async get(key) { return this.storage.getItem(this.prefix + key) ?? undefined; }
  async put(key, value) { this.storage.setItem(this.prefix + key, String(value)); }
  async create(key, value) { return localStorageCreate(this, key, value); }
  /** Held by a run of the thread while it runs (another tab's run is THREAD_BUSY): locks.js. */
  claim(threadId) { return localStorageClaim(this, threadId); }
  async delete(key) { this.storage.removeItem(this.prefix + key); }
  async list(prefix = '') {
    const out = [];
    for (let i = 0; i < this.storage.length; i++) {
      const k = this.storage.key(i);
      if (k?.startsWith(this.prefix + prefix)) out.push(k.slice(this.prefix.length));
    }
    return out.sort();
  }
}

/** IndexedDB in browsers (larger and asynchronous; localStorage is the fallback). */
export class IndexedDBStore {
  #db;
  constructor(name = 'edgegraph', factory = globalThis.indexedDB) {
    this.#db = new Promise((resolve, reject) => {
      const req = factory.open(name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore('kv');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  /** `fn(store, done)` runs in one transaction; it resolves with what `done` was given (or its request's result). */
  async #tx(mode, fn) {
    const db = await this.#db;
    return new Promise((resolve, reject) => {
      const tx = db.transaction('kv', mode);
      let value;
      const result = fn(tx.objectStore('kv'), (v) => { value = v; });
      tx.oncomplete = () => resolve(value !== undefined ? value : result?.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }
  async get(key) { return (await this.#tx('readonly', (s) => s.get(key))) ?? undefined; }
  async put(key, value) { await this.#tx('readwrite', (s) => s.put(String(value), key)); }
  /** The check and the write in one readwrite transaction: IndexedDB runs those one at a time, across tabs. */
  async create(key, value) {
    return this.#tx('readwrite', (s, done) => {
      const seen = s.getKey(key);
      seen.onsuccess = () => {
        if (seen.result !== undefined) return done(false);
        s.add(String(value), key);
        done(true);
      };
    });
  }
  async delete(key) { await this.#tx('readwrite', (s) => s.delete(key)); }
  async list(prefix = '') {
    const range = IDBKeyRange.bound(prefix, `${prefix}\uffff`);
    return ((await this.#tx('readonly', (s) => s.getAllKeys(range))) ?? []).map(String).sort();
  }
}

/** The best store a browser has: IndexedDB, else localStorage, else memory. */
export function browserStore(name = 'edgegraph') {
  if (globalThis.indexedDB) return new IndexedDBStore(name);
  if (globalThis.localStorage) return new LocalStorageStore(globalThis.localStorage, `${name}:`);
  return new MemoryStore();
}

/** Workers KV has getWithMetadata; Durable Object storage and plain maps do not. */
const isWorkersKV = (kv) => typeof kv.getWithMetadata === 'function';

/**
 * Any async key-value API of the same shape: Cloudflare Durable Object
 * storage (list returns a Map; create runs in storage.transaction), Workers
 * KV (list returns { keys: [{ name }] }; eventually consistent, so create
 * cannot be exclusive: see docs/checkpoints.md), or a plain object with
 * get/put/delete/list (and create, if it has one).
 */
export function kvStore(kv) {
  const get = async (s, key) => { const v = await s.get(key); return v === null || v === undefined ? undefined : String(v); };
  const store = {
    get: (key) => get(kv, key),
    async put(key, value) { await kv.put(key, String(value)); },
    async delete(key) { await kv.delete(key); },
    async list(prefix = '') {
      const r = await kv.list({ prefix });
      const keys = r instanceof Map ? [...r.keys()] : Array.isArray(r) ? r : (r?.keys ?? []).map((k) => k.name ?? k);
      return keys.map(String).sort();
    },
  };
  if (typeof kv.create === 'function') store.create = async (key, value) => Boolean(await kv.create(key, String(value)));
  else if (typeof kv.transaction === 'function') {
    // Durable Object storage: the read and the write commit together or not at all.
    store.create = (key, value) => kv.transaction(async (txn) => {
      if ((await get(txn, key)) !== undefined) return false;
      await txn.put(key, String(value));
      return true;
    });
  } else if (isWorkersKV(kv)) store.exclusive = false;
  return store;
}
