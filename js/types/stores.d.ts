// Types of edgegraph: checkpoint stores and the Checkpointer (re-exported by js/index.d.ts).

import { GraphStatus } from './core.js';

/** A page of a thread's history: `limit` checkpoints older than `before` (a checkpointId), newest first. */
export interface HistoryOptions { limit?: number; before?: number; values?: boolean }

// ---- checkpoints ----

/** Where checkpoints live: string keys and values; each put atomic for its key. */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  /** Write only if the key is absent, atomically: true when this call wrote it. Without it (or with exclusive: false) runs of a thread are not exclusive, and edgegraph warns once. */
  create?(key: string, value: string): Promise<boolean>;
  /** create, synchronous: the write is done when it returns (MemoryStore). Where a store has it, a run writes each step's record through it without waiting a turn of the event loop. */
  createNow?(key: string, value: string): boolean;
  /** Hold a thread for one run's length, where create alone is not enough (LocalStorageStore: a Web Lock): the release function, or null while another run holds it (that run is THREAD_BUSY). */
  claim?(threadId: string): Promise<(() => void) | null>;
  exclusive?: boolean;
  delete(key: string): Promise<void>;
  /** Keys with this prefix, sorted. */
  list(prefix?: string): Promise<string[]>;
}

export class MemoryStore implements KeyValueStore {
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  create(key: string, value: string): Promise<boolean>;
  createNow(key: string, value: string): boolean;
  delete(key: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
  /** Bytes held. */
  readonly size: number;
}
export class LocalStorageStore implements KeyValueStore {
  /** `locks`: navigator.locks (the default), which makes create exclusive across tabs. */
  constructor(storage?: Storage, prefix?: string, locks?: LockManager);
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  create(key: string, value: string): Promise<boolean>;
  /** A Web Lock on the thread for a run's length (localStorage copies to other tabs asynchronously). */
  claim(threadId: string): Promise<(() => void) | null>;
  delete(key: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
}
export class IndexedDBStore implements KeyValueStore {
  constructor(name?: string, factory?: IDBFactory);
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  create(key: string, value: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
}
/** Node, Deno and Bun only (the node entry): files in a folder, written atomically. */
export class FileStore implements KeyValueStore {
  constructor(dir: string);
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  create(key: string, value: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
}
/** IndexedDB, else localStorage, else memory. */
export function browserStore(name?: string): KeyValueStore;
/** Durable Object storage, Workers KV, or any async get/put/delete/list({ prefix }). */
export function kvStore(kv: {
  get(key: string): Promise<unknown>;
  put(key: string, value: string): Promise<unknown>;
  delete(key: string): Promise<unknown>;
  list(options: { prefix: string }): Promise<Map<string, unknown> | { keys: Array<{ name: string }> } | string[]>;
  /** Durable Object storage: create-if-absent runs in one transaction. */
  transaction?: unknown;
}): KeyValueStore;

/** What SqlStore needs of a database: rows of a query, and a statement run; both with ? bindings. */
export interface SqlAdapter {
  all(query: string, ...bindings: unknown[]): Promise<Array<Record<string, any>>>;
  run(query: string, ...bindings: unknown[]): Promise<unknown>;
}
/** Checkpoints in SQLite-flavoured SQL: edgegraph_records, keyed (thread_id, id); a record is one INSERT ... ON CONFLICT DO NOTHING. The node and workerd entries (not the browser one). */
export class SqlStore {
  constructor(adapter: SqlAdapter);
}
export interface SqlStore extends KeyValueStore { create(key: string, value: string): Promise<boolean> }
/** Durable Object SQLite storage (ctx.storage.sql of a class in new_sqlite_classes). */
export function doSqlStore(sql: { exec(query: string, ...bindings: any[]): { toArray(): any[] } }): SqlStore;
/** Cloudflare D1 (a D1Database binding). */
export function d1Store(db: { prepare(query: string): { bind(...values: any[]): { all(): Promise<{ results?: any[] }>; run(): Promise<unknown> } } }): SqlStore;
/** Node 22.5 and later (the node entry): a SQLite file, or an open node:sqlite DatabaseSync. Without node:sqlite, its first use is INVALID_OPTIONS. */
export function sqliteStore(pathOrDatabase: string | { prepare(sql: string): any; exec(sql: string): void }): SqlStore;

/** A thread's checkpoints as records: the state's changes, with a full snapshot every snapshotEvery records (a large state: once the records since hold a quarter of it, at most 10 x snapshotEvery). */
export class Checkpointer {
  /**
   * keepLast: keep a thread's newest N checkpoints; keepFor: those younger than this many ms (with
   * both, either keeps one); and the older records they are built from.
   * leaseMs (300000): how long a mid-run latest checkpoint means a run in flight.
   */
  constructor(store: KeyValueStore, options?: { snapshotEvery?: number; keepLast?: number; keepFor?: number; leaseMs?: number });
  readonly store: KeyValueStore;
  readonly snapshotEvery: number;
  readonly keepLast: number | undefined;
  readonly keepFor: number | undefined;
  readonly leaseMs: number;
  load(threadId: string, id?: number): Promise<{ id: number; parent: number | null; createdAt: number; status: GraphStatus; state: unknown; checkpoint: string } | undefined>;
  history(threadId: string, options?: HistoryOptions): Promise<Array<{ id: number; parent: number | null; createdAt: number; status: GraphStatus; superstep: number; pendingTasks: string[]; routing: string[]; /** Written by updateState. */ update?: true; values?: unknown }>>;
  deleteThread(threadId: string): Promise<void>;
}
