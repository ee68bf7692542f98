// checkpointer.js: a thread's checkpoints in a store, as a chain of records.
// A record holds the run's checkpoint without its state (tasks, status, the
// checksum of the whole) and the state patch since its parent record; every
// `snapshotEvery` records (later for a large state: thread.js), and at the
// start of a chain, the full state. So a 100-step run stores 100 small
// records, not 100 copies of the state.
//
// Keys: <thread>/r/<id> -> record; <thread>/head -> a recent record's id (a
// hint: the thread's latest record is the highest id present at or above it;
// it moves where a run stops, and every 16 records of a run in between).
// Records are written with create-if-absent and numbered one after another:
// a run continuing record n of a thread whose highest id is h writes h+1,
// h+2, ... and a second run that read the same h finds h+1 taken
// (THREAD_BUSY). A record is committed when it exists: a crash at any point
// leaves the thread's latest record readable and resumable.
//
// Record fields (short: a thread holds many): p parent id, t time (ms),
// d records since the last snapshot, s state (snapshots) or x patch (deltas),
// m the checkpoint without its state (snapshots, and a run's first record)
// or its fields from "status" on (deltas; format 1 kept those that changed),
// v the record format (absent: 1). A record is the core's text put together,
// never parsed and printed again on its way to the store (records.js,
// src/eg_record.c).

import { applyPatch } from './patch.js';
import { EdgegraphError } from './errors.js';
import { createOnce, mergeMeta, recordKey, threadBusy, unseal } from './records.js';
import { nextOf } from './checkpoint-tasks.js';

/** The head moves at least this often (records): see save. */
const HEAD_EVERY = 16;

const idOf = (key) => Number(key.slice(key.lastIndexOf('/') + 1));

/**
 * Per store, the threads whose run ended in this process at a mid-run
 * record (a failed write, a listener that threw): store -> Map(thread -> id).
 * Such a record is no run in flight, though it looks like one from outside.
 */
const stopped = new WeakMap();

export class Checkpointer {
  /**
   * @param {{ get: Function, put: Function, delete: Function, list: Function, create?: Function }} store
   * @param {{ snapshotEvery?: number, keepLast?: number, keepFor?: number, leaseMs?: number }} [options]
   *   keepLast: keep the thread's newest N records, keepFor: those younger
   *   than this many ms (with both, a record either keeps stays), and the
   *   older ones they are built from; leaseMs: how long a mid-run latest
   *   record means a run is in flight (resume is THREAD_BUSY) rather than a run that died.
   */
  constructor(store, { snapshotEvery = 100, keepLast = undefined, keepFor = undefined, leaseMs = 300_000 } = {}) {
    for (const [name, v, min] of [['keepLast', keepLast, 1], ['keepFor', keepFor, 0]]) {
      if (v !== undefined && !(Number.isInteger(v) && v >= min)) throw new EdgegraphError('INVALID_OPTIONS', `Checkpointer ${name}: a whole number >= ${min} (got ${v})`);
    }
    this.keepFor = keepFor;
    this.store = store;
    this.snapshotEvery = snapshotEvery;
    this.keepLast = keepLast;
    this.leaseMs = leaseMs;
  }

  /** One kept for good, for its shape (objects.js's SHAPE). */
  static #shape = new Checkpointer(null);

  /**
   * Write record `id` of a thread, only if no record has that id: `text`, the
   * record sealed for the store (records.js: by the core, or by `seal`).
   * THREAD_BUSY when the id is taken. The head moves to it when `last` (the
   * run stopped there: it is where the next run starts) and every HEAD_EVERY
   * records: a step is one write, and finding the latest record reads at
   * most HEAD_EVERY - 1 more after a run that died mid-way.
   * Returns undefined when all of it is done (a store with createNow: the
   * record is in the store, and nothing waited a turn of the event loop),
   * else a promise of it; a synchronous failure throws.
   */
  save(threadId, id, text, last = true) {
    const made = createOnce(this.store, recordKey(threadId, id), text);
    if (typeof made?.then === 'function') return made.then((ok) => this.#created(threadId, id, ok, last));
    return this.#created(threadId, id, made, last);
  }

  /** The rest of save once the record's create answered `ok`. */
  #created(threadId, id, ok, last) {
    if (!ok) throw threadBusy(threadId, `another run wrote its record ${id} first`);
    const head = last || id % HEAD_EVERY === 0;
    const prune = (this.keepLast !== undefined || this.keepFor !== undefined) && id % Math.max(this.keepLast ?? 0, 16) === 0;
    if (head || prune) return this.#afterRecord(threadId, id, head, prune);
  }

  /** The record is committed: a failure from here on says so (`written`), so the run knows it holds the thread. */
  async #afterRecord(threadId, id, head, prune) {
    if (head) {
      try {
        await this.store.put(`${threadId}/head`, String(id));
      } catch (e) {
        throw Object.assign(new Error(e?.message ?? String(e), { cause: e }), { written: id });
      }
    }
    if (prune) await this.#prune(threadId, id);
  }

  /**
   * A run's hold on a thread, where the store has one beyond its record
   * create (LocalStorageStore: a Web Lock for as long as the run lasts):
   * the release function; THREAD_BUSY while another run holds it.
   */
  async claim(threadId) {
    if (typeof this.store.claim !== 'function') return () => {};
    const release = await this.store.claim(threadId);
    if (!release) throw threadBusy(threadId, 'another run of it is in flight (in this tab or another)');
    return release;
  }

  /** The highest record id of a thread (0 when it has none): the head hint, then the records above it. */
  async top(threadId) {
    const hint = Number(await this.store.get(`${threadId}/head`));
    let top = Number.isInteger(hint) && hint > 0 ? hint : 0;
    // Above the hint: the records whose head write was lost or raced, a few
    // at most. A store that answers every key is broken, and says so.
    for (let n = 0; (await this.store.get(recordKey(threadId, top + 1))) != null; n++, top++) {
      if (n === 1000) throw new EdgegraphError('INVALID_CHECKPOINT', `thread '${threadId}': the store has records past ${top} that its head (${hint}) does not account for: it returns values for keys never written`);
    }
    return top;
  }

  /** A run of this process ended at record `id` of the thread, which was taken mid-run. */
  markStopped(threadId, id) {
    if (!stopped.has(this.store)) stopped.set(this.store, new Map());
    stopped.get(this.store).set(threadId, id);
  }

  /**
   * Whether `loaded` (the thread's latest checkpoint) belongs to a run in
   * flight: taken mid-run, within the lease, by a run not known to have ended.
   */
  inFlight(threadId, loaded) {
    return loaded.status === 'RUNNING' && Date.now() - loaded.createdAt < this.leaseMs && stopped.get(this.store)?.get(threadId) !== loaded.id;
  }

  /** Whether the thread has any record, readable or not. */
  async exists(threadId) {
    return (await this.top(threadId)) > 0;
  }

  async #read(threadId, id) {
    return unseal(threadId, id, await this.store.get(recordKey(threadId, id)));
  }

  /** Record ids of a thread below `below`, newest first (one list: the slow path). */
  async #idsBelow(threadId, below) {
    return (await this.store.list(`${threadId}/r/`)).map(idOf).filter((n) => n < below).sort((a, b) => b - a);
  }

  /**
   * A full checkpoint (JSON text the engine restores from) with its state,
   * and `next`, the id the thread's next record takes. Without an id: the
   * latest that reads; a damaged or missing latest record falls back to the
   * one before, and the thread continues from there.
   */
  async load(threadId, id) {
    const top = await this.top(threadId);
    if (top === 0) return undefined;
    if (id !== undefined) return id <= top ? { ...(await this.#build(threadId, id)), next: top + 1 } : undefined;
    let first = await this.#read(threadId, top);
    if (first.record) return { ...(await this.#build(threadId, top)), next: top + 1 };
    // A newer edgegraph wrote the latest: continuing an older one would drop its work.
    if (first.error?.code === 'CHECKPOINT_VERSION') throw first.error;
    for (const n of await this.#idsBelow(threadId, top)) {
      const r = await this.#read(threadId, n);
      if (r.record) return { ...(await this.#build(threadId, n)), next: top + 1 };
      if (first.missing) first = r;
    }
    if (first.error) throw first.error;
    return undefined;
  }

  /** The checkpoint of record `id`, rebuilt from its chain; a typed error names a broken link. */
  async #build(threadId, id) {
    const chain = [];
    for (let at = id; ;) {
      const { record, error } = await this.#read(threadId, at);
      if (error) throw error;
      if (!record) throw new EdgegraphError('INVALID_CHECKPOINT', `record ${at} of thread '${threadId}' is missing${at === id ? '' : `: record ${id} is built from it`}`);
      chain.push(record);
      if (record.s !== undefined) break;
      // A parent is always an earlier record: anything else is a broken chain, not a loop.
      if (!(record.p < at)) throw new EdgegraphError('INVALID_CHECKPOINT', `record ${at} of thread '${threadId}' has no snapshot to be built from (parent ${record.p})`);
      at = record.p;
    }
    const base = chain.at(-1);
    // Each record was parsed afresh: the snapshot is ours to patch.
    const state = base.s;
    let meta = base.m;
    for (let i = chain.length - 2; i >= 0; i--) {
      applyPatch(state, chain[i].x ?? []);
      meta = mergeMeta(meta, chain[i]);
    }
    const top = chain[0];
    // The checksum in the metadata covers the rebuilt state: a lost or
    // damaged patch is caught when the engine restores this.
    return { id: top.id, parent: top.p, createdAt: top.t, depth: top.d, status: meta.status, meta, state, checkpoint: JSON.stringify({ ...meta, state }) };
  }

  /**
   * Records of a thread, newest first: { id, parent, createdAt, status,
   * superstep, pendingTasks, routing, update? (true: written by updateState), values? }. `limit` records with ids
   * below `before`: one read per record (and, with `values`, the reads that
   * rebuild the oldest entry's state). A record that does not read is left out.
   */
  async history(threadId, { limit = Infinity, before = Infinity, values = false } = {}) {
    const out = [];
    let ids = null;
    for (let id = Math.min(await this.top(threadId), before - 1); id > 0 && out.length < limit;) {
      const { record: r, missing } = await this.#read(threadId, id);
      if (r) {
        out.push({ id, parent: r.p, createdAt: r.t, status: r.m.status, superstep: r.m.superstep, ...nextOf(r.m.tasks), ...(r.u && { update: true }), record: r });
      }
      // Records below a gap (retention, a lost write) are found by one list, not by probing.
      if (missing && !ids) ids = await this.#idsBelow(threadId, id);
      id = ids ? ids.find((n) => n < id) ?? 0 : id - 1;
    }
    if (values) await this.#values(threadId, out);
    for (const entry of out) delete entry.record;
    return out;
  }

  /** Each entry's state: the oldest rebuilt from its chain, the others patched from their parent's when it is in the page. */
  async #values(threadId, entries) {
    const states = new Map();
    for (const entry of [...entries].reverse()) {
      const parent = states.get(entry.record.p);
      let state;
      if (entry.record.s !== undefined) state = entry.record.s;
      else if (parent !== undefined) { state = structuredClone(parent); applyPatch(state, entry.record.x ?? []); }
      else state = (await this.#build(threadId, entry.id)).state;
      states.set(entry.id, state);
      entry.values = state;
    }
  }

  /** Per thread, what pruning learnt of each record it read: id -> { p parent (null: a snapshot, or unreadable), t time }. */
  #links = new Map();

  async #link(threadId, id) {
    if (!this.#links.has(threadId)) this.#links.set(threadId, new Map());
    const links = this.#links.get(threadId);
    if (!links.has(id)) {
      const { record } = await this.#read(threadId, id);
      links.set(id, { p: record && record.s === undefined && record.p < id ? record.p : null, t: record?.t ?? 0 });
    }
    return links.get(id);
  }

  /**
   * Retention: delete the records older than the kept ones (the newest
   * `keepLast`, those younger than `keepFor`) that no kept record is built
   * from (its chain back to a snapshot, fork points included). Each record is
   * read once per process: later prunes read only the records since.
   */
  async #prune(threadId, top) {
    const ids = (await this.#idsBelow(threadId, top + 1)).reverse();
    let oldest = top + 1;
    if (this.keepLast !== undefined) oldest = Math.min(oldest, top - this.keepLast + 1);
    if (this.keepFor !== undefined) {
      // Records are written in time order: the first young enough, by bisection.
      const since = Date.now() - this.keepFor;
      let lo = 0, hi = ids.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if ((await this.#link(threadId, ids[mid])).t >= since) hi = mid; else lo = mid + 1; }
      oldest = Math.min(oldest, ids[lo] ?? top, top);   // the latest always stays
    }
    const needed = new Set();
    for (const id of ids) {
      for (let at = id; id >= oldest && at !== null && !needed.has(at); at = (await this.#link(threadId, at)).p) needed.add(at);
    }
    for (const id of ids) {
      if (id >= oldest) break;
      if (!needed.has(id)) { await this.store.delete(recordKey(threadId, id)); this.#links.get(threadId)?.delete(id); }
    }
  }

  /** Remove a thread's records, newest first (a crash part-way leaves a shorter, readable thread), then its head. */
  async deleteThread(threadId) {
    this.#links.delete(threadId);
    for (const id of await this.#idsBelow(threadId, Infinity)) await this.store.delete(recordKey(threadId, id));
    for (const key of await this.store.list(`${threadId}/`)) await this.store.delete(key);
  }
}

/**
 * A thread id is a non-empty string without "/". `where` names what gave it:
 * an option (INVALID_OPTIONS) or an argument (INVALID_INPUT).
 */
export function checkThreadId(threadId, where = 'the threadId option', code = 'INVALID_OPTIONS') {
  if (typeof threadId !== 'string' || !threadId || threadId.includes('/')) {
    const got = threadId === undefined ? 'undefined' : typeof threadId === 'string' ? JSON.stringify(threadId) : String(threadId);
    throw new EdgegraphError(code, `${where}: a threadId is a non-empty string without "/" (got ${got})`);
  }
}
