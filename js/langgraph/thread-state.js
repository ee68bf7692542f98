// thread-state.js: the read/write side of a compiled graph's threads
// (getState, updateState, getStateHistory), over the engine's checkpoints.
// The run side is compiled.js; this side only reads and forks checkpoints.

import { EdgegraphError, Checkpointer } from 'edgegraph';
import { END } from './graph.js';
import { threadHistory, snapshotOf, configOf } from './history.js';
import { updateOf } from './command.js';

export class ThreadState {
  #engine;
  #records;
  #view;
  #toUpdate;
  #combine;
  #children;

  /**
   * `view` picks the channels of an engine state; `toUpdate(values, node)` and `combine(key, a, b)`
   * are the runner's; `children` maps a subgraph node's name to its graph's ThreadState.
   */
  constructor({ engine, store, view, toUpdate, combine, children }) {
    this.#engine = engine;
    this.#records = store ? new Checkpointer(store) : null;
    this.#view = view;
    this.#toUpdate = toUpdate;
    this.#combine = combine;
    this.#children = children;
  }

  /**
   * A thread's state: { values, next, config, metadata, createdAt, parentConfig, tasks }.
   * A paused subgraph node's task has `state`: the child's snapshot with `subgraphs: true`, else its namespace.
   */
  async getState(config, { subgraphs = false } = {}) {
    if (!this.#records) throw new EdgegraphError('INVALID_OPTIONS', 'No checkpointer set: getState() reads a thread; compile({ checkpointer: new MemorySaver() })');
    const threadId = threadOf(config, 'getState');
    const wanted = config?.configurable?.checkpoint_id;
    const history = await threadHistory(this.#engine, threadId);
    const record = wanted === undefined ? history[0] : history.find((r) => String(r.checkpointId) === String(wanted));
    if (!record) return { values: {}, next: [], tasks: [], config: { configurable: { thread_id: threadId } }, metadata: undefined };
    const snapshot = snapshotOf(threadId, record, this.#view);
    // A child paused at a breakpoint pauses the parent from its node's result: the run's last
    // record is then one threadHistory leaves out (it routes back to that node), read it here.
    if (record.status === 'PAUSED' || (record.status === 'RUNNING' && this.#children.size && snapshot.tasks.length)) {
      const loaded = await this.#records.load(threadId, wanted === undefined ? undefined : record.checkpointId);
      if (loaded.status === 'PAUSED') this.#pausedTasks(snapshot.tasks, loaded.meta.tasks ?? [], loaded.state, threadId, subgraphs);
    }
    return snapshot;
  }

  /** A paused run's tasks: their interrupts, and a subgraph node's child (from its task, or state.subgraphs). */
  #pausedTasks(tasks, saved, state, threadId, subgraphs) {
    const used = new Set();
    for (const task of tasks) {
      const own = saved.find((t) => t.node === task.name && t.kind !== 'route' && !used.has(t));
      if (own) used.add(own);
      task.interrupts = (own?.interrupts ?? []).map(({ id, value }) => ({ id, value }));
      const child = this.#children.get(task.name);
      if (!child) continue;
      const checkpoint = own?.keep?.checkpoint ?? state?.subgraphs?.[task.name];
      // The child's namespace: its node's task, as the interrupt ids have it (`<node>:<step>.<i>/...`).
      const ns = own?.interrupts?.[0]?.id.split('/')[0] ?? task.name;
      task.state = subgraphs && checkpoint ? child.snapshotOfCheckpoint(checkpoint, threadId, ns) : { configurable: { thread_id: threadId, checkpoint_ns: ns } };
    }
  }

  /** A child's paused checkpoint (a subgraph node's) as a snapshot in namespace `ns`. */
  snapshotOfCheckpoint(checkpoint, threadId, ns) {
    const cp = typeof checkpoint === 'string' ? JSON.parse(checkpoint) : checkpoint;
    const saved = (cp.tasks ?? []).filter((t) => t.kind !== 'route');
    const next = cp.status === 'FINISHED' ? [] : saved.map((t) => t.node).filter((n) => n !== END);
    const tasks = next.map((name) => ({ name, interrupts: [] }));
    this.#pausedTasks(tasks, saved, cp.state, threadId, true);
    return { values: this.#view(cp.state), next, tasks, config: { configurable: { thread_id: threadId, checkpoint_ns: ns } }, metadata: { source: 'loop', step: cp.superstep, parents: {} } };
  }

  /**
   * Write `values` into a thread's state through the reducers, as node `asNode`
   * would (then its edges decide what runs next; END: the thread ends). Returns the new checkpoint's config.
   */
  async updateState(config, values, asNode = undefined) {
    const threadId = threadOf(config, 'updateState');
    const checkpointId = config?.configurable?.checkpoint_id;
    const thread = { threadId, ...(checkpointId !== undefined ? { checkpointId: Number(checkpointId) } : {}) };
    // asNode END ends the thread (the core drops what it waited for, a pending interrupt too).
    const update = { channels: this.#toUpdate(updateOf(values, this.#combine), asNode ?? 'updateState') };
    const written = await this.#engine.updateState(thread, update, asNode);
    return configOf(threadId, written.checkpointId);
  }

  /** The thread's checkpoints, newest first. */
  async *getStateHistory(config, options = {}) {
    const threadId = threadOf(config, 'getStateHistory');
    const history = await threadHistory(this.#engine, threadId);
    const count = options.limit === undefined ? history.length : Math.min(options.limit, history.length);
    for (let i = 0; i < count; i++) yield snapshotOf(threadId, history[i], this.#view);
  }
}

/** The thread a config names; a subgraph's namespace (`checkpoint_ns`) is refused, not read as the parent's. */
function threadOf(config, call) {
  const ns = config?.configurable?.checkpoint_ns;
  if (ns !== undefined && ns !== '') {
    throw new EdgegraphError('INVALID_INPUT', `${call}(): checkpoint_ns '${ns}' names a subgraph's namespace, which edgegraph/langgraph does not read yet: use getState(config, { subgraphs: true }) on the parent's thread`);
  }
  return String(config?.configurable?.thread_id);
}
