// checkpoint.js: LangGraph's checkpointers over edgegraph's stores. A saver
// here holds an edgegraph store (MemoryStore, FileStore, browserStore(),
// kvStore(...)): the compiled graph writes edgegraph's checkpoint chains to it,
// so a thread written through this entry resumes with GraphEngine too.

import { MemoryStore, EdgegraphError, Checkpointer } from './edgegraph.js';

const api = () => import('./saver-api.js');

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

  // LangGraph's read API (saver-api.js, loaded on first use).
  async getTuple(config) { return (await api()).getTuple(this.#records, config); }
  /** The checkpoint of getTuple(). */
  async get(config) { return (await this.getTuple(config))?.checkpoint; }
  async *list(config, options) { yield* (await api()).list(this.#records, config, options); }
  /** Forget a thread: every checkpoint of it (LangGraph's deleteThread, a chat's "clear"). */
  async deleteThread(threadId) { await this.#records.deleteThread(String(threadId)); }
  async put() { (await api()).put(); }
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
