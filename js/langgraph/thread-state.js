// thread-state.js: the read/write side of a compiled graph's threads
// (getState, updateState, getStateHistory), over the engine's checkpoints:
// loaded on a compiled graph's first call of one of them (graph-runner.js). The run
// side is graph-runner.js; this side only reads and forks checkpoints.

import { EdgegraphError } from './edgegraph.js';
import { withValues, snapshotOf, metadataOf, pendingOf, stopped } from './history.js';
import { configOf, threadRef } from './thread-config.js';
import { threadHistory, shownRecord } from './numbering.js';
import { updateOf } from './command.js';
import { shownInterrupts } from './subgraph-node.js';
import { removesMessages } from './messages-channel.js';
import { isOverwrite } from './overwrite.js';
import { runnerOf } from './compiled.js';

const states = new WeakMap();

/** The ThreadState of a compiled graph's runner: made on its graph's first getState, updateState or getStateHistory, then kept. */
export function threadState(runner) {
  let state = states.get(runner);
  if (!state) states.set(runner, state = new ThreadState(runner));
  return state;
}

export class ThreadState {
  #records;
  #runner;

  /**
   * `runner` is the graph's runner (graph-runner.js): its `engine`, `store` (null: none) and `records` (a Checkpointer over it), `view(state)` (the channels
   * of an engine state), `toUpdate(values, node)`, `combine(key, a, b)`, and `children`, which maps a subgraph
   * node's name to its compiled graph.
   */
  constructor(runner) {
    this.#records = runner.records;
    this.#runner = runner;
  }

  /**
   * A thread's state: { values, next, config, metadata, createdAt, parentConfig, tasks }.
   * A paused subgraph node's task has `state`: the child's snapshot with `subgraphs: true`, else its namespace.
   */
  async getState(config, { subgraphs } = {}) {
    if (!this.#records) throw new EdgegraphError('INVALID_OPTIONS', 'No checkpointer set: getState() needs compile({ checkpointer })');
    const ns = nsOf(config);
    if (ns !== undefined) return this.#childState(config, ns, subgraphs);
    const threadId = String(config?.configurable?.thread_id);
    const wanted = config?.configurable?.checkpoint_id;
    const record = await shownRecord(this.#runner, threadId, wanted);
    if (!record) return { values: {}, next: [], tasks: [], config: { configurable: { thread_id: threadId } }, metadata: undefined };
    // A step that paused or failed: its checkpoint, loaded for its tasks, has the values too.
    const cp = stopped(record) ? await this.#records.load(threadId, record.checkpointId) : null;
    if (cp) record.values = cp.state;
    else await withValues(this.#runner.engine, threadId, [record]);
    const snapshot = snapshotOf(threadId, record, this.#runner.view);
    if (cp) {
      const tasks = this.#stopOf(snapshot, record, cp, threadId, subgraphs);
      // The latest state (LangGraph's) has the writes of the step's tasks that finished, and next the others.
      if (wanted === undefined && record.open) { this.#runner.withKept(snapshot.values, tasks); snapshot.next = record.open; }
    }
    return snapshot;
  }

  /**
   * A step that paused or failed, in its snapshot's tasks as LangGraph shows them (getState, and
   * getStateHistory: after the step ran on, too): a failed task's error ({ message, name }), or the
   * paused ones' interrupts and paused subgraph children (`cp`: its checkpoint, loaded). Returns the checkpoint's tasks.
   */
  #stopOf(snapshot, record, cp, threadId, subgraphs) {
    const { tasks } = cp.meta;
    // (A failed one's error; one that finished beside it, what it wrote: its kept writes, as LangGraph's task result.)
    if (record.status === 'ERROR') ownTasks(snapshot.tasks, cp).forEach((own, i) => { if (own?.state === 'failed') snapshot.tasks[i].error = failureOf(own); else if (own?.state === 'done') snapshot.tasks[i].result = own.result?.channels; });
    else this.#pausedTasks(snapshot.tasks, cp, configOf(threadId, cp.id).configurable, subgraphs);
    return tasks;
  }

  /** A paused subgraph's state by its namespace (a task's `state` config): the thread's checkpoint, then each child's down the namespace. */
  async #childState(config, ns, subgraphs) {
    const thread = threadRef(config.configurable);
    const top = await this.#records.load(thread.threadId, thread.checkpointId);
    let checkpoint = top, at = this;
    for (const local of ns.split('|')) {
      [at, checkpoint] = at.#childAt(checkpoint, local) ?? [];
      if (!at) throw noPausedChild('getState', thread.threadId, ns);
    }
    return at.#snapshotOfCheckpoint(checkpoint, configOf(thread.threadId, top.id).configurable, ns, subgraphs);
  }

  /**
   * The paused child at namespace part `local` of checkpoint `cp` (a checkpoint, { status, state, tasks },
   * or a record the Checkpointer loaded, whose tasks are in its meta: nodeTasks reads either):
   * [its graph's ThreadState, its checkpoint, its task], or undefined.
   */
  #childAt(cp, local) {
    const own = cp?.status === 'PAUSED' && nodeTasks(cp).find((t) => t.keep && localOf(t) === local);
    const child = own && this.#child(own.node);
    return child && [child, heldChild(own, cp.state, local), own];
  }

  /** The ThreadState of subgraph node `name`'s compiled graph, or undefined. */
  #child(name) {
    const graph = this.#runner.children.get(name);
    return graph && threadState(runnerOf(graph));
  }

  /**
   * A paused run's tasks (`cp`: its checkpoint, as #childAt takes it): their interrupts, and a subgraph
   * node's paused child (kept with its task) in namespace `prefix|<node>:<task>`. `at`: the thread's
   * checkpoint holding them (its config's configurable), which a child's snapshot's config names, as
   * LangGraph's names the child's checkpoint: getState() of it is the child as it was then.
   */
  #pausedTasks(tasks, cp, at, subgraphs, prefix) {
    const owns = ownTasks(tasks, cp);
    for (const [i, task] of tasks.entries()) {
      const own = owns[i];
      task.interrupts = shownInterrupts(own?.state === 'done' ? undefined : own?.interrupts);
      const child = this.#child(task.name);
      if (!child) continue;
      // The child's namespace: its node's task, as the interrupt ids have it (`<node>:<step>.<i>/...`).
      const local = localOf(own) ?? task.name;
      const checkpoint = subgraphs && own && heldChild(own, cp.state, local);
      const ns = prefix ? `${prefix}|${local}` : local;
      task.state = checkpoint ? child.#snapshotOfCheckpoint(checkpoint, at, ns, true) : { configurable: { thread_id: at.thread_id, checkpoint_ns: ns } };
    }
  }

  /** A child's paused checkpoint `cp` (a subgraph node's) as a snapshot in namespace `ns` (with `subgraphs`: its paused children's too, else their namespaces). */
  #snapshotOfCheckpoint(cp, at, ns, subgraphs) {
    const snapshot = pendingOf(this.#runner.view(cp.state), cp.status, nodeTasks(cp).map((t) => t.node));
    this.#pausedTasks(snapshot.tasks, cp, at, subgraphs, ns);
    return { ...snapshot, config: { configurable: { ...at, checkpoint_ns: ns } }, metadata: { source: 'loop', step: cp.superstep, parents: {} } };
  }

  /**
   * Write `values` into a thread's state through the reducers, as node `asNode`
   * would (then its edges decide what runs next; END: the thread ends). Returns the new checkpoint's config.
   * With a paused subgraph's namespace (`<node>:<task>|...`), the child's checkpoint is edited as its
   * own updateState would, and the edit written into the parent's state (js/subgraph.js resumes the
   * child from it); the config returned is in that namespace.
   */
  async updateState(config, values, asNode) {
    const ns = nsOf(config);
    const thread = threadRef(config?.configurable);
    // A child's config (getState's, with the checkpoint that held it) edits the thread's paused child: the one of its
    // latest checkpoint. One of an earlier checkpoint is refused: editing it would fork the thread there, dropping what ran since.
    if (ns && thread.checkpointId !== undefined) {
      const top = await this.#records?.top(thread.threadId);
      if (thread.checkpointId !== top) throw new EdgegraphError('INVALID_INPUT', `updateState(): the config names checkpoint ${thread.checkpointId} of thread '${thread.threadId}', not its latest (${top}): a subgraph's state can be edited while it is paused, by the thread's latest checkpoint (getState(config, { subgraphs: true }) gives its config)`);
      delete thread.checkpointId;
    }
    // (The thread's checkpoint is read only when the edit needs it: a child's, or the messages a removal is checked against.)
    const written = await this.#write(thread, () => this.#records?.load(thread.threadId, thread.checkpointId), ns?.split('|') ?? [], values, asNode);
    if (!written) throw noPausedChild('updateState', thread.threadId, ns);
    const out = configOf(thread.threadId, written.checkpointId);
    if (ns) out.configurable.checkpoint_ns = ns;
    return out;
  }

  /**
   * Write `values` (as `asNode`) into `target`, a thread or a checkpoint of this graph (the engine's
   * updateState takes either, and returns what it wrote), or into the paused child at namespace
   * `parts` below it; `read()` gives target's checkpoint (as #childAt takes it). Undefined: no
   * paused child is there.
   */
  async #write(target, read, [local, ...deeper], values, asNode) {
    let update;
    if (local !== undefined) {
      const [child, checkpoint, own] = this.#childAt(await read(), local) ?? [];
      if (!child) return undefined;
      const written = await child.#write(checkpoint, () => checkpoint, deeper, values, asNode);
      if (!written) return undefined;
      update = { subgraphs: { [local]: { checkpoint: written.checkpoint, replaces: own.keep.checkpoint } } };
      asNode = undefined;
    } else {
      // asNode END ends the thread (the core drops what it waited for, a pending interrupt too).
      const byKey = updateOf(values, this.#runner.combine);
      // A removal of messages is checked against the messages there (messages-channel.js): read them only then.
      // (An Overwrite of a messages channel is one: all of them removed first.)
      const current = Object.values(byKey).some((v) => removesMessages(v) || isOverwrite(v)) ? (await read())?.state : undefined;
      update = { channels: this.#runner.toUpdate(byKey, asNode ?? 'updateState', current) };
    }
    // A thread's new checkpoint has no pending writes, as LangGraph's: its paused tasks run again from the top, asking again
    // (a paused child's edit keeps the child's and its parent task's: the resume goes on inside the child).
    return this.#runner.engine.updateState(target, update, asNode, { restartTasks: !local && !!target.threadId });
  }

  /** The thread's checkpoints, newest first. */
  async *getStateHistory(config, options = {}) {
    // A subgraph's namespace is refused, not read as the parent's.
    const ns = nsOf(config);
    if (ns !== undefined) throw new EdgegraphError('INVALID_INPUT', `getStateHistory() takes no subgraph's checkpoint_ns ('${ns}')`);
    const threadId = String(config?.configurable?.thread_id);
    // `before`: a checkpoint's config (those older than it: ids grow); `filter`: metadata values to match.
    const before = options.before?.configurable?.checkpoint_id ?? Infinity;
    const { engine, view } = this.#runner;
    const filter = Object.entries(options.filter ?? {});
    // (The filter reads the metadata: no values needed for it.)
    const shown = (await threadHistory(engine, threadId))
      .filter((r) => !r.hidden && r.checkpointId < before && filter.every(([k, v]) => metadataOf(r)[k] === v))
      .slice(0, options.limit);
    // Their values a page at a time (a page's states are rebuilt once, then patched): a first page of a long thread reads only its own.
    for (let at = 0; at < shown.length; at += PAGE) {
      for (const record of await withValues(engine, threadId, shown.slice(at, at + PAGE))) {
        const snapshot = snapshotOf(threadId, record, view);
        if (stopped(record)) this.#stopOf(snapshot, record, await this.#records.load(threadId, record.checkpointId), threadId, false);
        yield snapshot;
      }
    }
  }
}

/** How many of getStateHistory's snapshots get their values in one read. */
const PAGE = 20;

/** The subgraph namespace a config names (`checkpoint_ns`), or undefined. */
function nsOf(config) {
  const ns = config?.configurable?.checkpoint_ns;
  return ns === '' ? undefined : ns;
}

const noPausedChild = (call, threadId, ns) => new EdgegraphError('INVALID_INPUT', `${call}(): thread '${threadId}' has no paused subgraph at checkpoint_ns '${ns}'`);

/** A checkpoint's tasks that ran nodes (not routers); a record the Checkpointer loaded has them in its meta. */
const nodeTasks = (cp) => ((cp.meta ?? cp).tasks ?? []).filter((t) => t.kind !== 'route');

/**
 * Each of a snapshot's `tasks` with its task of checkpoint `cp`, by node and in order: a node's Sends are
 * several tasks of one name. (A snapshot that lists only the tasks still to run pairs them with those.)
 */
function ownTasks(tasks, cp) {
  let left = nodeTasks(cp);
  if (left.length > tasks.length) left = left.filter((t) => t.state !== 'done');
  return tasks.map((task) => { const i = left.findIndex((t) => t.node === task.name); return i < 0 ? undefined : left.splice(i, 1)[0]; });
}

/**
 * A failed task's error as LangGraph shows it: a subgraph node's, its child's failed node's (the child's
 * failed checkpoint is kept with the task: js/subgraph.js), however deep; another's, what it threw.
 */
function failureOf(task) {
  const child = checkpointOf(task.keep?.checkpoint);
  const failed = child?.status === 'ERROR' && child.tasks?.find((t) => t.state === 'failed');
  // (A try past its timeout: LangGraph's NodeTimeoutError, as the run raised it: run-error.js.)
  return failed ? failureOf(failed) : task.result?.code === 'NODE_TIMEOUT' ? { ...task.result, name: 'NodeTimeoutError' } : task.result;
}

/** A subgraph task's local namespace, as its interrupt ids begin (`<node>:<task>`). */
const localOf = (task) => task?.interrupts?.[0]?.id.split('/')[0];

/** The checkpoint a paused subgraph task holds: its kept one, or an edit of it (js/subgraph.js), as an object (checkpointOf). */
function heldChild(task, state, local) {
  const edit = state?.subgraphs?.[local];
  const checkpoint = edit && edit.replaces === task.keep?.checkpoint ? edit.checkpoint : task.keep?.checkpoint;
  return checkpointOf(checkpoint);
}

/** A checkpoint kept with a task, as an object (one kept as an object is read as it is, not through its text). */
const checkpointOf = (checkpoint) => (typeof checkpoint === 'string' ? JSON.parse(checkpoint) : checkpoint);
