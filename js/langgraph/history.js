// history.js: a thread's edgegraph checkpoints as LangGraph's state snapshots
// ({ values, next, tasks, config, metadata, createdAt, parentConfig }).

import { START, END } from './graph.js';

/** LangGraph's config naming one checkpoint of a thread. */
export function configOf(threadId, checkpointId) {
  return { configurable: { thread_id: threadId, checkpoint_ns: '', checkpoint_id: String(checkpointId) } };
}

/** The engine's thread (and checkpoint) that a LangGraph config's `configurable` names. */
export function threadRef(configurable) {
  const thread = { threadId: String(configurable?.thread_id) };
  if (configurable?.checkpoint_id !== undefined) thread.checkpointId = Number(configurable.checkpoint_id);
  return thread;
}

/**
 * A thread's checkpoints at superstep boundaries, newest first, each with its
 * step (its ancestors' count, from -1 for the input), the nearest such
 * ancestor, and whether it starts a fork (a second child of its parent).
 * edgegraph also checkpoints while routers run (a record with `routing`),
 * which LangGraph has no checkpoint for: those are left out, unless the run
 * paused there. A step that paused or failed has records LangGraph has one
 * checkpoint for (the step's start, its pause or failure, and the resume's,
 * which keeps the answers): the pause or failure stands for the step, and
 * the others are `hidden` (listed, for a config that names one, but never
 * shown): a fork or replay of the step then asks its interrupts again,
 * instead of replaying the answers it was given.
 */
const stopped = (record) => record?.status === 'PAUSED' || record?.status === 'ERROR';

export async function threadHistory(engine, threadId) {
  const all = await engine.getStateHistory(threadId, { values: true });
  const byId = new Map();
  const parents = new Set();   // the parents of the records seen so far
  const only = new Map();   // parent id -> whether it has one child
  for (const r of all) only.set(r.parentId, !only.has(r.parentId));
  const out = [];
  let edges;   // the engine's, read when a record paused before its routes
  // Oldest first (the records and their list are the engine's fresh objects): a record's parent
  // has its step already, and a record whose parent has an older child is a fork.
  for (const r of all.reverse()) {
    byId.set(r.checkpointId, r);
    r.fork = r.parentId !== null && parents.has(r.parentId);
    parents.add(r.parentId);
    if (r.routing?.length) {
      if (r.status !== 'PAUSED') { r.skipped = true; continue; }
      // Paused with its routes (LangGraph's checkpoint after the step): answered (interruptAfter; updateState with
      // asNode), their next is where they go; not yet (a node's own pause), the routing nodes' edges' declared targets.
      edges ??= engine.definition.edges;
      if (!r.pendingTasks.length) r.pendingTasks = r.routing.flatMap((n) => (edges[n].router ? edges[n].targets ?? [] : edges[n]));
    }
    let parent = byId.get(r.parentId);
    while (parent?.skipped || parent?.hidden) parent = byId.get(parent.parentId);
    // The record before, through routing left out, each with this one child only (else: none).
    let up = r.parentId;
    while (only.get(up) && byId.get(up)?.skipped) up = byId.get(up).parentId;
    // (A record's first child continues it; a later one is a fork, a replay: never within its step.)
    const raw = only.get(up) || !r.fork ? byId.get(up) : undefined;
    // Within one step (the same superstep and tasks): a run's pause, and its resume.
    const within = raw && raw.superstep === r.superstep && String(raw.pendingTasks) === String(r.pendingTasks);
    // A resume's first record: its answers kept (within the step), or its routes run (after a pause before them).
    if (!stopped(r) && stopped(raw) && (within || raw.routing?.length)) r.hidden = true;
    if (within && raw.status === 'RUNNING' && stopped(r) && parent?.superstep === r.superstep) {
      parent.hidden = true;   // the step's start (or its earlier pause) gives way to this pause or failure
      parent = parent.parent;
    }
    r.parent = parent;
    r.step = r.hidden ? raw.step : parent ? parent.step + 1 : -1;
    out.push(r);
  }
  return out.reverse();
}

/** A snapshot's { values, next, tasks } of a checkpoint whose tasks pending run `nodes`. */
export function pendingOf(values, status, nodes) {
  const next = status === 'FINISHED' ? [] : nodes.filter((n) => n !== END);
  return { values, next, tasks: next.map((name) => ({ name, interrupts: [] })) };
}

/** One checkpoint record (of threadHistory) as a snapshot; `view` picks the channels. */
export function snapshotOf(threadId, record, view) {
  const snapshot = pendingOf(view(record.values), record.status, record.pendingTasks);
  snapshot.config = configOf(threadId, record.checkpointId);
  snapshot.metadata = { source: record.fork ? 'fork' : snapshot.next.includes(START) ? 'input' : 'loop', step: record.step, parents: {} };
  snapshot.createdAt = new Date(record.createdAt).toISOString();
  if (record.parent) snapshot.parentConfig = configOf(threadId, record.parent.checkpointId);
  return snapshot;
}
