// checkpointer.js: a thread's checkpoints in a store, as a chain of records.
// A record holds the run's checkpoint without its state (tasks, status, the
// checksum of the whole) and the state patch since its parent record; every
// `snapshotEvery` records, and at the start of a chain, the full state. So
// a 100-step run stores 100 small records, not 100 copies of the state.
//
// Keys: <thread>/head -> the latest record's id; <thread>/r/<id> -> record.
// A record is written before head moves, and carries its own checksum: a
// crash mid-write leaves the previous checkpoint as the readable latest.
// Head is the commit: a record above it (written, then the head's put
// failed) is not a checkpoint, and the thread's next record replaces it.
//
// Record fields (short: a thread holds many): p parent id, t time (ms),
// d records since the last snapshot, s state (snapshots) or x patch (deltas),
// m the checkpoint without its state (snapshots) or the fields of it that
// changed since the parent (deltas).

import { applyPatch } from './patch.js';
import { EdgegraphError } from './errors.js';

const pad = (n) => String(n).padStart(10, '0');

/** FNV-1a over the text: enough to notice a torn or truncated write. */
function sum(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return (h >>> 0).toString(16).padStart(8, '0');
}

function seal(record) {
  const body = JSON.stringify(record);
  return `${sum(body)}${body}`;
}

function unseal(text) {
  if (typeof text !== 'string' || text.length < 9) return undefined;
  const body = text.slice(8);
  if (sum(body) !== text.slice(0, 8)) return undefined;
  try { return JSON.parse(body); } catch { return undefined; }
}

/** The fields of `next` that differ from `prev` (a shallow diff of JSON values, compared without printing them). */
function changed(prev, next) {
  if (!prev) return next;
  const same = (a, b) => {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k) || !same(a[k], b[k])) return false;
    return true;
  };
  const out = {};
  for (const k of Object.keys(next)) if (!same(prev[k], next[k])) out[k] = next[k];
  return out;
}

export class Checkpointer {
  /**
   * @param {{ get: Function, put: Function, delete: Function, list: Function }} store
   * @param {{ snapshotEvery?: number }} [options]
   */
  constructor(store, { snapshotEvery = 100 } = {}) {
    this.store = store;
    this.snapshotEvery = snapshotEvery;
  }

  /**
   * Append a record to a thread. `parent`: the id it follows (null starts a
   * chain); `state` is stored whole when a snapshot is due, otherwise `patch`.
   * @returns {Promise<number>} the record's id
   */
  async save(threadId, { parent, meta, patch, state, depth, previousMeta }) {
    const head = await this.#head(threadId);
    const id = (head ?? 0) + 1;
    const record = { p: parent, t: Date.now(), d: depth };
    if (state !== undefined) { record.s = state(); record.m = meta; } else { record.x = patch; record.m = changed(previousMeta, meta); }
    await this.store.put(`${threadId}/r/${pad(id)}`, seal(record));
    await this.store.put(`${threadId}/head`, String(id));
    return { id, depth };
  }

  /** Whether the thread has a committed checkpoint (a head), readable or not. */
  async exists(threadId) {
    return (await this.#head(threadId)) !== undefined;
  }

  /** The latest readable record id of a thread, or undefined. */
  async #head(threadId) {
    const h = Number(await this.store.get(`${threadId}/head`));
    return Number.isFinite(h) && h > 0 ? h : undefined;
  }

  async #record(threadId, id) {
    const r = unseal(await this.store.get(`${threadId}/r/${pad(id)}`));
    if (r) r.id = id;
    return r;
  }

  /**
   * A full checkpoint (JSON text the engine restores from) with its state.
   * Without an id: the latest; a damaged latest record falls back to the one before.
   */
  async load(threadId, id) {
    const head = await this.#head(threadId);
    if (head === undefined) return undefined;
    if (id !== undefined) return id <= head ? this.#build(threadId, id) : undefined;
    // Only the last write can be torn: if the head record does not read, the
    // newest record before it is the latest. A chain broken further back is
    // lost data, and says so (undefined) rather than falling back further.
    if (await this.#record(threadId, head)) return this.#build(threadId, head);
    const ids = (await this.store.list(`${threadId}/r/`)).map((k) => Number(k.slice(k.lastIndexOf('/') + 1))).filter((n) => n < head).sort((a, b) => b - a);
    for (const n of ids) if (await this.#record(threadId, n)) return this.#build(threadId, n);
    return undefined;
  }

  async #build(threadId, id) {
    const chain = [];
    for (let at = id; at !== null && at !== undefined;) {
      const r = await this.#record(threadId, at);
      if (!r) return undefined;
      chain.push(r);
      if (r.s !== undefined) break;
      // A parent is always an earlier record: anything else is a broken chain, not a loop.
      if (!(r.p < at)) return undefined;
      at = r.p;
    }
    const base = chain.at(-1);
    if (!base || base.s === undefined) return undefined;
    // Each record was parsed afresh: the snapshot is ours to patch.
    const state = base.s;
    let meta = base.m;
    for (let i = chain.length - 2; i >= 0; i--) {
      applyPatch(state, chain[i].x ?? []);
      meta = { ...meta, ...chain[i].m };
    }
    const top = chain[0];
    // The checksum in the metadata covers the rebuilt state: a lost or
    // damaged patch is caught when the engine restores this.
    return { id: top.id, parent: top.p, createdAt: top.t, depth: top.d, status: meta.status, meta, state, checkpoint: JSON.stringify({ ...meta, state }) };
  }

  /**
   * Records of a thread, newest first: { id, parent, createdAt, status, superstep, ... }.
   * Oldest first, each record's metadata is its parent's plus what changed: one
   * read per record, no state rebuilt. A record that does not read, or whose
   * parent does not, is left out (as load() would not read it).
   */
  async history(threadId) {
    const out = [];
    const head = await this.#head(threadId);
    if (head === undefined) return out;
    const ids = (await this.store.list(`${threadId}/r/`)).map((k) => Number(k.slice(k.lastIndexOf('/') + 1))).filter((id) => id <= head).sort((a, b) => a - b);
    const metas = new Map();
    for (const id of ids) {
      const r = await this.#record(threadId, id);
      const base = !r ? undefined : r.s !== undefined ? {} : r.p < id ? metas.get(r.p) : undefined;
      if (!base) continue;
      const m = { ...base, ...r.m };
      metas.set(id, m);
      const open = m.tasks.filter((t) => (t.state ?? 'pending') !== 'done');
      out.push({ id, parent: r.p, createdAt: r.t, status: m.status, superstep: m.superstep,
        pendingTasks: open.filter((t) => t.kind !== 'route').map((t) => t.node), routing: open.filter((t) => t.kind === 'route').map((t) => t.node) });
    }
    return out.reverse();
  }

  /** Remove a thread's records. */
  async deleteThread(threadId) {
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
