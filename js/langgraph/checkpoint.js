// checkpoint.js: LangGraph's checkpointers over edgegraph's stores. A saver
// here holds an edgegraph store (MemoryStore, FileStore, browserStore(),
// kvStore(...)): the compiled graph writes edgegraph's checkpoint chains to it,
// so a thread written through this entry resumes with GraphEngine too.

import { MemoryStore, EdgegraphError } from 'edgegraph';

/** Checkpoints over any edgegraph store (LangGraph's BaseCheckpointSaver's place). */
export class BaseCheckpointSaver {
  /** @param {{ get: Function, put: Function, delete: Function, list: Function }} store */
  constructor(store) {
    if (!store || typeof store.get !== 'function' || typeof store.put !== 'function') {
      throw new EdgegraphError('INVALID_OPTIONS', 'a checkpoint saver needs an edgegraph store (get, put, delete, list)');
    }
    this.store = store;
  }
}

/** Checkpoints in memory (LangGraph's MemorySaver). */
export class MemorySaver extends BaseCheckpointSaver {
  constructor() { super(new MemoryStore()); }
}

/** The store behind compile({ checkpointer }): a saver of ours or an edgegraph store itself. */
export function storeOf(checkpointer) {
  if (checkpointer === undefined || checkpointer === null || checkpointer === false) return null;
  if (checkpointer instanceof BaseCheckpointSaver) return checkpointer.store;
  if (typeof checkpointer.get === 'function' && typeof checkpointer.put === 'function' && typeof checkpointer.list === 'function' && typeof checkpointer.getTuple !== 'function') return checkpointer;
  throw new EdgegraphError('INVALID_OPTIONS', 'compile({ checkpointer }) takes MemorySaver or BaseCheckpointSaver from edgegraph/langgraph, or an edgegraph store; a checkpointer of @langchain/langgraph stores LangGraph\'s own format');
}
