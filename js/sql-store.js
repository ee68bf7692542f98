// sql-store.js: checkpoints in SQLite-flavoured SQL (Durable Object SQLite
// storage, Cloudflare D1, node:sqlite). One schema:
//   edgegraph_records (thread_id, id, value)  PRIMARY KEY (thread_id, id)
//   edgegraph_kv (key, value)                 anything else a Checkpointer keeps
// A record is one INSERT ... ON CONFLICT DO NOTHING: one statement, one
// transaction, and the primary key makes it create-if-absent across every
// connection. A thread's head is max(id) over its records (the index of the
// primary key answers it), so moving it is no write at all.
//
// The store speaks to the database through an adapter of two calls, each
// returning a promise: all(query, ...bindings) -> rows, run(query, ...bindings).
// doSqlStore, d1Store (here) and sqliteStore (node-sqlite-store.js) make them.

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS edgegraph_records (thread_id TEXT NOT NULL, id INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (thread_id, id))',
  'CREATE TABLE IF NOT EXISTS edgegraph_kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
];

const INSERT_RECORD = 'INSERT INTO edgegraph_records (thread_id, id, value) VALUES (?, ?, ?)';
const INSERT_KV = 'INSERT INTO edgegraph_kv (key, value) VALUES (?, ?)';
const RECORD = /^(.+)\/r\/(\d{10})$/;
const HEAD = /^(.+)\/head$/;
const recordKey = (threadId, id) => `${threadId}/r/${String(id).padStart(10, '0')}`;
/** A LIKE pattern matching keys that start with `prefix` (with \ as the escape). */
const like = (prefix) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class SqlStore {
  #db;
  #ready;
  /** @param {{ all: (q: string, ...b: unknown[]) => Promise<object[]>, run: (q: string, ...b: unknown[]) => Promise<unknown> }} adapter */
  constructor(adapter) {
    this.#db = adapter;
    this.#ready = null;
  }

  /** The schema, made once per store (CREATE ... IF NOT EXISTS). */
  #schema() {
    this.#ready ??= (async () => { for (const q of SCHEMA) await this.#db.run(q); })();
    return this.#ready;
  }

  async #all(q, ...b) { await this.#schema(); return this.#db.all(q, ...b); }
  async #run(q, ...b) { await this.#schema(); return this.#db.run(q, ...b); }

  async get(key) {
    let m;
    if ((m = RECORD.exec(key))) {
      return (await this.#all('SELECT value FROM edgegraph_records WHERE thread_id = ? AND id = ?', m[1], Number(m[2])))[0]?.value ?? undefined;
    }
    if ((m = HEAD.exec(key))) {
      const top = (await this.#all('SELECT max(id) AS top FROM edgegraph_records WHERE thread_id = ?', m[1]))[0]?.top;
      return top === null || top === undefined ? undefined : String(top);
    }
    return (await this.#all('SELECT value FROM edgegraph_kv WHERE key = ?', key))[0]?.value ?? undefined;
  }

  async put(key, value) {
    let m;
    const replace = 'DO UPDATE SET value = excluded.value';
    if ((m = RECORD.exec(key))) await this.#run(`${INSERT_RECORD} ON CONFLICT (thread_id, id) ${replace}`, m[1], Number(m[2]), String(value));
    else if (!HEAD.test(key)) await this.#run(`${INSERT_KV} ON CONFLICT (key) ${replace}`, key, String(value));
  }

  /** True when this call inserted the row: the primary key refuses a second one. */
  async create(key, value) {
    const m = RECORD.exec(key);
    const rows = m
      ? await this.#all(`${INSERT_RECORD} ON CONFLICT DO NOTHING RETURNING id`, m[1], Number(m[2]), String(value))
      : await this.#all(`${INSERT_KV} ON CONFLICT DO NOTHING RETURNING key`, key, String(value));
    return rows.length === 1;
  }

  async delete(key) {
    let m;
    if ((m = RECORD.exec(key))) await this.#run('DELETE FROM edgegraph_records WHERE thread_id = ? AND id = ?', m[1], Number(m[2]));
    else if (!HEAD.test(key)) await this.#run('DELETE FROM edgegraph_kv WHERE key = ?', key);
  }

  /** Keys under `prefix`, sorted: a thread's records come from its index range. */
  async list(prefix = '') {
    const slash = prefix.indexOf('/');
    const records = slash >= 0
      ? await this.#all('SELECT thread_id, id FROM edgegraph_records WHERE thread_id = ? ORDER BY id', prefix.slice(0, slash))
      : await this.#all("SELECT thread_id, id FROM edgegraph_records WHERE thread_id LIKE ? ESCAPE '\\'", like(prefix));
    const keys = records.map((r) => recordKey(r.thread_id, r.id));
    // A thread with records has a head (its max id), as a key-value store would.
    for (const t of new Set(records.map((r) => r.thread_id))) keys.push(`${t}/head`);
    for (const r of await this.#all("SELECT key FROM edgegraph_kv WHERE key LIKE ? ESCAPE '\\'", like(prefix))) keys.push(r.key);
    return keys.filter((k) => k.startsWith(prefix)).sort();
  }
}

/**
 * Durable Object SQLite storage (ctx.storage.sql, a class with
 * `useSQLite`/new_sqlite_classes): exec(query, ...bindings) is synchronous,
 * and the object's requests wait while it runs.
 */
export function doSqlStore(sql) {
  return new SqlStore({
    all: async (q, ...b) => sql.exec(q, ...b).toArray(),
    run: async (q, ...b) => { sql.exec(q, ...b).toArray(); },
  });
}

/** Cloudflare D1 (env.DB): prepare(query).bind(...bindings).all() / .run(). */
export function d1Store(db) {
  return new SqlStore({
    all: async (q, ...b) => (await db.prepare(q).bind(...b).all()).results ?? [],
    run: (q, ...b) => db.prepare(q).bind(...b).run(),
  });
}
