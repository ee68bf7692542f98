// thread-state.js: the read/write side of a compiled graph's threads
// (getState, updateState, getStateHistory), over the engine's checkpoints.
// The run side is compiled.js; this side only reads and forks checkpoints.

import { EdgegraphError } from 'edgegraph';
import { END } from './graph.js';
import { threadHistory, snapshotOf, configOf } from './history.js';
import { updateOf } from './command.js';

export class ThreadState {
  #engine;
  #hasStore;
  #view;
  #toUpdate;
  #combine;

  /** `view` picks the channels of an engine state; `toUpdate(values, node)` and `combine(key, a, b)` are the runner's. */
  constructor({ engine, hasStore, view, toUpdate, combine }) {
    this.#engine = engine;
    this.#hasStore = hasStore;
    this.#view = view;
    this.#toUpdate = toUpdate;
    this.#combine = combine;
  }

  /** A thread's state: { values, next, config, metadata, createdAt, parentConfig, tasks }. */
  async getState(config) {
    if (!this.#hasStore) throw new EdgegraphError('INVALID_OPTIONS', 'No checkpointer set: getState() reads a thread; compile({ checkpointer: new MemorySaver() })');
    const threadId = String(config?.configurable?.thread_id);
    const wanted = config?.configurable?.checkpoint_id;
    const history = await threadHistory(this.#engine, threadId);
    const record = wanted === undefined ? history[0] : history.find((r) => String(r.checkpointId) === String(wanted));
    if (!record) return { values: {}, next: [], tasks: [], config: { configurable: { thread_id: threadId } }, metadata: undefined };
    const snapshot = snapshotOf(threadId, record, this.#view);
    if (record.status === 'PAUSED') {
      const { interrupts = [] } = (await this.#engine.getState(threadId, record.checkpointId)) ?? {};
      for (const task of snapshot.tasks) task.interrupts = interrupts.filter((i) => i.node === task.name).map(({ id, value }) => ({ id, value }));
    }
    return snapshot;
  }

  /**
   * Write `values` into a thread's state through the reducers, as node `asNode`
   * would (then its edges decide what runs next). Returns the new checkpoint's config.
   */
  async updateState(config, values, asNode = undefined) {
    const threadId = String(config?.configurable?.thread_id);
    const checkpointId = config?.configurable?.checkpoint_id;
    const thread = { threadId, ...(checkpointId !== undefined ? { checkpointId: Number(checkpointId) } : {}) };
    if (asNode === END) {
      throw new EdgegraphError('INVALID_INPUT', 'updateState(config, values, END) is not supported by edgegraph/langgraph: to end a paused thread, answer its interrupt (new Command({ resume })) or update it as a node whose edge leads to END');
    }
    const update = { channels: this.#toUpdate(updateOf(values, this.#combine), asNode ?? 'updateState') };
    const written = await this.#engine.updateState(thread, update, asNode === END ? undefined : asNode);
    return configOf(threadId, written.checkpointId);
  }

  /** The thread's checkpoints, newest first. */
  async *getStateHistory(config, options = {}) {
    const threadId = String(config?.configurable?.thread_id);
    const history = await threadHistory(this.#engine, threadId);
    const count = options.limit === undefined ? history.length : Math.min(options.limit, history.length);
    for (let i = 0; i < count; i++) yield snapshotOf(threadId, history[i], this.#view);
  }
}
