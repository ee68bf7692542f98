// stores.js: where checkpoints live. A store is four async functions over
// string keys and string values:
//   get(key) -> string | undefined    put(key, value)    delete(key)
//   list(prefix) -> keys, sorted
// Each put must be atomic for its key (the Checkpointer relies on it).

/** In memory: for tests, single processes and short-lived workers. */
export class MemoryStore {
  #map = new Map();
  async get(key) { return this.#map.get(key); }
  async put(key, value) { this.#map.set(key, String(value)); }
  async delete(key) { this.#map.delete(key); }
  async list(prefix = '') { return [...this.#map.keys()].filter((k) => k.startsWith(prefix)).sort(); }
  /** Bytes held (keys and values, as UTF-16 length): for measurements. */
  get size() { let n = 0; for (const [k, v] of this.#map) n += k.length + v.length; return n; }
}

/** window.localStorage (or any Storage), under a key prefix. */
export class LocalStorageStore {
  constructor(storage = globalThis.localStorage, prefix = 'edgegraph:') { this.storage = storage; this.prefix = prefix; }
  async get(key) { return this.storage.getItem(this.prefix + key) ?? undefined; }
  async put(key, value) { this.storage.setItem(this.prefix + key, String(value)); }
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
  async #tx(mode, fn) {
    const db = await this.#db;
    return new Promise((resolve, reject) => {
      const tx = db.transaction('kv', mode);
      const result = fn(tx.objectStore('kv'));
      tx.oncomplete = () => resolve(result.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }
  async get(key) { return (await this.#tx('readonly', (s) => s.get(key))) ?? undefined; }
  async put(key, value) { await this.#tx('readwrite', (s) => s.put(String(value), key)); }
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

/**
 * Any async key-value API of the same shape: Cloudflare Durable Object
 * storage (list returns a Map), Workers KV (list returns { keys: [{ name }] }),
 * or a plain object with get/put/delete/list.
 */
export function kvStore(kv) {
  return {
    async get(key) { const v = await kv.get(key); return v === null || v === undefined ? undefined : String(v); },
    async put(key, value) { await kv.put(key, String(value)); },
    async delete(key) { await kv.delete(key); },
    async list(prefix = '') {
      const r = await kv.list({ prefix });
      const keys = r instanceof Map ? [...r.keys()] : Array.isArray(r) ? r : (r?.keys ?? []).map((k) => k.name ?? k);
      return keys.map(String).sort();
    },
  };
}
