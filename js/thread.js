// thread.js: what a run writes under a thread id. Every step boundary (and
// every finished task of a parallel step) queues a record: the core's task
// list and the state patch since the previous record, or the whole state
// when a snapshot is due, printed by the core (src/eg_record.c). Writes
// happen in order; after a failed write nothing more is written (the chain
// would skip that record's patch).

import { EdgegraphError } from './errors.js';
import { checkThreadId } from './checkpointer.js';
import { asDelta, prefixOf, seal, sealed, seedOf, seedStart } from './records.js';

/**
 * `{ threadId, checkpointId? }`, whatever the values: a missing or undefined
 * threadId (`{ checkpointId: 3 }` too) is an error, never a new run.
 */
export function isThreadRef(v) {
  if (v === null || typeof v !== 'object') return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k === 'threadId' || k === 'checkpointId');
}

/** eg_run_record's flags (src/edgegraph.h). */
const SNAPSHOT = 1, DELTA = 2, SEALED = 4;

export class ThreadWriter {
  /** The first write error; the run stops on it. */
  error = null;
  #queue = Promise.resolve();
  /** Writes queued and not yet settled well: at 0 the next one need not wait its turn (above, it must: it would overtake a queued one). */
  #inFlight = 0;
  /** The core's run this writer records (bind). */
  #core = null;
  #handle = 0;
  /**
   * The checkpoint fields before "status" (text) of the record the next one
   * follows, when the run's own may differ (the first record of a run that
   * continues a thread); null once the run wrote one: its records follow its own.
   */
  #prefix;
  /** The hash of "thread/", where each record's checksum seed starts. */
  #seedStart;

  /**
   * @param {import('./checkpointer.js').Checkpointer} checkpointer
   * @param {string} id the thread
   * @param {number|null} parentId the record this run continues (null starts a chain)
   * @param {number} depth records since the last snapshot
   * @param {object} [meta] the parent record's checkpoint fields (deltas are written against them)
   * @param {number} [nextId] the id of the run's first record: one above the thread's
   *   highest when the run's start was read (undefined: read it at the first write)
   */
  constructor(checkpointer, id, parentId, depth, meta, nextId) {
    this.checkpointer = checkpointer;
    this.id = id;
    this.parentId = parentId;
    this.depth = depth;
    // As text, like the core's: only its fields before "status" are compared (records.js).
    this.#prefix = meta === undefined ? undefined : prefixOf(JSON.stringify(meta));
    this.nextId = nextId;
    this.#seedStart = seedStart(id);
  }

  /** One kept for good, for its shape (why: Run's #shape, run.js). */
  static #shape = new ThreadWriter(null, '', null, 0);

  /**
   * Record the core's run `handle`: from here on the core keeps the state
   * patch its steps hand out until the next record takes it. Called before
   * the run's first step.
   */
  bind(core, handle) {
    this.#core = core;
    this.#handle = handle;
    core.runRecordPatches(handle);
  }

  /** The size of this run's last snapshot (0: none yet), and of the records written since. */
  #snapshotBytes = 0;
  #bytesSince = 0;

  /**
   * Whether the next record is a snapshot: `snapshotEvery` records after the
   * last, once those records hold a quarter of its size. A large state with
   * small steps is snapshotted less often, so a step's share of the snapshot
   * follows the size of its change, not of the state, and rebuilding a
   * checkpoint reads at most a quarter more than the snapshot; at the latest
   * every 10 x snapshotEvery records.
   */
  #snapshotTime() {
    const every = this.checkpointer.snapshotEvery, n = this.depth + 1;
    return n >= every && (this.#bytesSince * 4 >= this.#snapshotBytes || n >= every * 10);
  }

  /** Set when the state was replaced whole (a migration): the next record is a snapshot, not a patch. */
  snapshotDue = false;

  /** Whether the run's first record is written: the thread is this run's until it ends. */
  claimed = false;

  /** The status of the run's last record written (a field from the start: a property added later is a new shape). */
  lastStatus;

  /** Written by updateState: its records say so (`"u":1` before "m"; getStateHistory shows `update: true`). */
  byUpdate = false;

  /**
   * Queue a record of the run as it is now, the core's text taken now (a
   * string does not change while the write waits in the queue), never parsed
   * here. When nothing waits and the record's id is known, the core prints
   * it whole and sealed; else it prints the checkpoint and the patch (or
   * state), and the head and checksum are added at its turn, when its id
   * and parent are known. `status`: the run's (the caller may know it).
   * Undefined when the record is written (or the write failed: `error`) by
   * the time it returns, else a promise that resolves when every queued write
   * has settled.
   */
  save(emit, status = this.#core.runStatus(this.#handle)) {
    if (this.error) return this.#queue;
    const snapshot = this.snapshotDue || this.parentId === null || this.#snapshotTime();
    this.snapshotDue = false;
    this.depth = snapshot ? 0 : this.depth + 1;
    const depth = this.depth;
    // A delta leaves out the fields before "status" when its parent has the same:
    // always when the parent is this run's (null); a stored one's (text) are compared.
    const prefix = snapshot ? undefined : this.#prefix;
    const flags = snapshot ? SNAPSHOT : prefix === null ? DELTA : 0;
    let text, body;
    if (this.#inFlight === 0 && this.nextId !== undefined && typeof prefix !== 'string' && !this.byUpdate) {
      const id = this.nextId;
      text = sealed(this.id, id, this.#core.runRecord(this.#handle, flags | SEALED, seedOf(this.id, id, this.#seedStart), this.parentId ?? -1, Date.now(), depth));
    } else {
      body = this.#core.runRecord(this.#handle, flags);
      if (typeof prefix === 'string') body = asDelta(body, prefix);
      // (After the head seal() adds: "u" is the record's, not the checkpoint's.)
      if (this.byUpdate) body = `"u":1,${body}`;
    }
    this.#prefix = null;
    const size = (text ?? body).length;
    if (snapshot) { this.#snapshotBytes = size; this.#bytesSince = 0; } else this.#bytesSince += size;
    // Nothing in flight and nothing failed (the usual case: a run awaits each
    // step's record): write at once, without a turn through the queue, and
    // into a synchronous store (createNow) without a promise at all.
    if (this.#inFlight++ === 0) {
      const writing = this.#write(text, body, depth, status, emit);
      return writing ? (this.#queue = writing) : undefined;
    }
    return (this.#queue = this.#queue.then(() => this.#write(text, body, depth, status, emit)));
  }

  /**
   * Write one record: `text` as sealed, or `body` sealed now that its id and
   * parent are known. Undefined when it is written (or failed) by the time it
   * returns, else a promise of that.
   */
  #write(text, body, depth, status, emit) {
    // After a failed write nothing more is written: a later record would skip its patch.
    if (this.error) return;
    // The run's first record (its id unknown until the thread's top is read).
    if (this.nextId === undefined) return this.#writeFirst(text, body, depth, status, emit);
    // Each record takes the next id with create-if-absent: a second run on
    // the thread finds it taken (THREAD_BUSY) before its first node runs.
    const id = this.nextId;
    let saving;
    try {
      saving = this.checkpointer.save(this.id, id, text ?? seal(this.id, id, this.parentId, depth, body), status !== 'RUNNING');
    } catch (e) {
      this.#failed(e, status);
      return;
    }
    if (!saving) return this.#written(id, status, emit);
    return saving.then(() => this.#written(id, status, emit), (e) => this.#failed(e, status));
  }

  async #writeFirst(text, body, depth, status, emit) {
    try {
      this.nextId ??= (await this.checkpointer.top(this.id)) + 1;
    } catch (e) {
      this.#failed(e, status);
      return;
    }
    return this.#write(text, body, depth, status, emit);
  }

  /** Record `id` is in the store. */
  #written(id, status, emit) {
    this.nextId = id + 1;
    this.claimed = true;
    this.parentId = id;
    this.lastStatus = status;
    // A listener that throws is the caller's error, as for any other event, not a failed write.
    emit?.({ type: 'checkpoint', threadId: this.id, checkpointId: id, status });
    this.#inFlight--;
  }

  /** The write failed: the run stops on its error (`written`: the record went in, a later part failed). */
  #failed(e, status) {
    this.error ??= e;
    if (e?.written) { this.claimed = true; this.parentId = e.written; this.lastStatus = status; }
  }

  /** The run ended (whatever way): a last record taken mid-run is not a run in flight. */
  async close() {
    await this.#queue.catch(() => {});   // a listener's error is the run's, already thrown
    if (this.claimed && this.lastStatus === 'RUNNING') this.checkpointer.markStopped(this.id, this.parentId);
  }
}

/** A writer for `threadId`, or null without one; a thread needs a checkpointer. */
export function openThread(checkpointer, threadId, parentId = null, depth = 0, meta = undefined, nextId = undefined) {
  if (threadId === undefined || threadId === null) return null;
  if (!checkpointer) throw new EdgegraphError('INVALID_OPTIONS', 'a threadId needs a checkpointer in the engine options');
  checkThreadId(threadId);
  return new ThreadWriter(checkpointer, threadId, parentId, depth, meta, nextId);
}
