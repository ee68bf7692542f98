// checkpoint.js: LangGraph's checkpointers over edgegraph's stores. A saver
// here holds an edgegraph store (MemoryStore, FileStore, browserStore(),
// kvStore(...)): the compiled graph writes edgegraph's checkpoint chains to it,
// so a thread written through this entry resumes with GraphEngine too.

import { MemoryStore, EdgegraphError, Checkpointer } from './edgegraph.js';
import { configOf, threadRef } from './thread-config.js';

/** Whether `store` has an edgegraph store's get and put. */
const isStore = (store) => typeof store?.get === 'function' && typeof store.put === 'function';

/** Checkpoints over any edgegraph store (LangGraph's BaseCheckpointSaver's place). */
export class BaseCheckpointSaver {
  /** @param {{ get: Function, put: Function, delete: Function, list: Function }} store */
  constructor(store) {
    if (!isStore(store)) {
      throw new EdgegraphError('INVALID_OPTIONS', 'BaseCheckpointSaver needs an edgegraph store');
    }
    this.store = store;
    this.#records = new Checkpointer(store);
  }

  #records;

  /**
   * LangGraph's read API over the records: { config, checkpoint: { id, ts,
   * channel_values }, metadata, parentConfig } of a thread's latest checkpoint
   * (or of `configurable.checkpoint_id`), or undefined.
   */
  async getTuple(config) {
    if (config?.configurable?.thread_id === undefined) return undefined;
    const { threadId: thread, checkpointId } = threadRef(config.configurable);
    const loaded = await this.#records.load(thread, checkpointId);
    if (!loaded) return undefined;
    const tuple = {
      config: configOf(thread, loaded.id),
      checkpoint: { v: 1, id: String(loaded.id), ts: new Date(loaded.createdAt).toISOString(), channel_values: loaded.state?.channels ?? {} },
      metadata: { status: loaded.status },
    };
    if (loaded.parent != null) tuple.parentConfig = configOf(thread, loaded.parent);
    return tuple;
  }

  /** The checkpoint of getTuple(). */
  async get(config) { return (await this.getTuple(config))?.checkpoint; }

  /** A thread's checkpoints as tuples, newest first. */
  async *list(config, { limit } = {}) {
    const threadId = config?.configurable?.thread_id;
    const records = await this.#records.history(String(threadId));
    for (const r of records.slice(0, limit)) yield await this.getTuple({ configurable: { thread_id: threadId, checkpoint_id: r.id } });
  }

  /** Forget a thread: every checkpoint of it (LangGraph's deleteThread, a chat's "clear"). */
  async deleteThread(threadId) { await this.#records.deleteThread(String(threadId)); }

  /** Writing is the engine's: a saver here is read through LangGraph's API, written by runs. */
  async put() { throw new EdgegraphError('INVALID_OPTIONS', 'put(): runs write the savers of edgegraph/langgraph'); }
  async putWrites() { return this.put(); }
}

/** Checkpoints in memory (LangGraph's MemorySaver). */
export class MemorySaver extends BaseCheckpointSaver {
  constructor() { super(new MemoryStore()); }
  /** One kept for good, for its shape (../objects.js's SHAPE). */
  static #shape = new MemorySaver();
}

/** The store behind compile({ checkpointer }): a saver of ours or an edgegraph store itself. */
export function storeOf(checkpointer) {
  if (checkpointer === undefined || checkpointer === null || checkpointer === false) return null;
  if (checkpointer instanceof BaseCheckpointSaver) return checkpointer.store;
  if (isStore(checkpointer) && typeof checkpointer.list === 'function' && typeof checkpointer.getTuple !== 'function') return checkpointer;
  throw new EdgegraphError('INVALID_OPTIONS', 'compile({ checkpointer }) takes a saver of edgegraph/langgraph (not @langchain/langgraph) or an edgegraph store');
}
