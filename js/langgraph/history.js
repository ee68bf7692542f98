// history.js: a thread's edgegraph checkpoints as LangGraph's state snapshots
// ({ values, next, tasks, config, metadata, createdAt, parentConfig }).

import { START, END } from './graph.js';
import { configOf } from './thread-config.js';

export const stopped = (record) => record?.status === 'PAUSED' || record?.status === 'ERROR';

/**
 * A reader of a thread's records (the engine's getStateHistory entries), oldest first,
 * each one's parent before it: it marks each as LangGraph's history shows it, with its
 * step (its shown ancestors' count, from -1 for the input), `up` (the id of the shown record
 * before it) and `fork` (a second child of its parent, which has `c`: a child already).
 * edgegraph also checkpoints while routers run (a record with `routing`) and as each task
 * of a parallel step finishes: LangGraph has no checkpoint for those, which are `skipped`
 * (a router's, unless the run paused there). A step that paused or failed has records
 * LangGraph has one checkpoint for (the step's start, its pause or failure, and the
 * resume's, which keeps the answers): the pause or failure stands for the step, with the
 * step's tasks (`open`: those still to run), and the others are `hidden` (listed, for a
 * config that names one, but never shown): a fork or replay of the step then asks its
 * interrupts again, instead of replaying the answers it was given.
 * `byId`: the records read so far. The marks are plain data (ids, not objects), so that
 * numbering.js can keep them with the thread, and a later read go on from them.
 */
export function historyReader(engine, byId = new Map()) {
  let edges;   // the engine's, read when a record paused before its routes
  return (r) => {
    byId.set(r.checkpointId, r);
    let parent = byId.get(r.parentId);
    r.fork = !!parent?.c;
    if (parent) parent.c = 1;
    // The record before, through those skipped (a record's first child continues it; a later one is a fork, a replay: never within its step).
    let raw = r.fork ? undefined : parent;
    if (r.routing.length) {
      if (r.status !== 'PAUSED' && r.status !== 'INTERRUPTED') return (r.skipped = true);
      // Paused with its routes (LangGraph's checkpoint after the step), or stopped there (the stream's consumer left
      // once its step's tasks had finished): answered (interruptAfter; updateState with asNode), their next is where
      // they go; not yet (a node's own pause, a stop), the routing nodes' edges' declared targets.
      edges ??= engine.definition.edges;
      if (!r.pendingTasks.length) r.pendingTasks = r.routing.flatMap((n) => (edges[n].router ? edges[n].targets ?? [] : edges[n]));
    } else if (r.status === 'RUNNING' && raw?.status === 'RUNNING' && raw.superstep === r.superstep) {
      return (r.skipped = true);   // taken within a step (a task finished), or as its routers ran (a fork of one, a replay, is shown)
    }
    while (parent?.skipped || parent?.hidden) parent = byId.get(parent.parentId);
    while (raw?.skipped) raw = byId.get(raw.parentId);
    // Within one step (the same superstep, its tasks or those of them left to run): a run's pause, and its resume.
    const within = raw?.superstep === r.superstep && !r.routing.length && r.pendingTasks.length && r.pendingTasks.every((n) => raw.pendingTasks.includes(n));
    // A resume's first record: its answers kept (within the step), or its routes run (after a pause before them);
    // the first of a run that continues an updateState's checkpoint (a fork of a past one), which it repeats.
    if (!stopped(r) && (stopped(raw) || raw?.update) && (within || raw.routing.length)) r.hidden = true;
    if (within && raw.status === 'RUNNING' && stopped(r) && parent?.superstep === r.superstep) {
      // The step's start (or its earlier pause) gives way to this pause or failure, which shows the step's tasks.
      parent.hidden = true;
      r.open = r.pendingTasks;
      r.pendingTasks = parent.pendingTasks;
      parent = byId.get(parent.up);
    }
    r.up = parent?.checkpointId;
    r.step = r.hidden ? raw.step : parent ? parent.step + 1 : -1;
  };
}

/** `records` (of threadHistory) with their `values`: one page of the engine's history across their ids (a state rebuilt once, then patched). */
export async function withValues(engine, threadId, records) {
  // (Newest first: the first is the top, the last the lowest.)
  const top = records[0]?.checkpointId;
  const page = top ? await engine.getStateHistory(threadId, { before: top + 1, limit: top - records.at(-1).checkpointId + 1, values: true }) : [];
  for (const r of records) r.values = page.find((e) => e.checkpointId === r.checkpointId).values;
  return records;
}

/** A snapshot's { values, next, tasks } of a checkpoint whose tasks pending run `nodes`. */
export function pendingOf(values, status, nodes) {
  const next = status === 'FINISHED' ? [] : nodes.filter((n) => n !== END);
  return { values, next, tasks: next.map((name) => ({ name, interrupts: [] })) };
}

/** A checkpoint record's (of threadHistory) snapshot metadata: what wrote it, and its step. */
export const metadataOf = (record) => ({
  source: record.update ? 'update' : record.fork ? 'fork' : record.status !== 'FINISHED' && record.pendingTasks.includes(START) ? 'input' : 'loop',
  step: record.step,
  parents: {},
});

/** One checkpoint record (of threadHistory) as a snapshot; `view` picks the channels. */
export function snapshotOf(threadId, record, view) {
  const snapshot = pendingOf(view(record.values), record.status, record.pendingTasks);
  snapshot.config = configOf(threadId, record.checkpointId);
  snapshot.metadata = { ...metadataOf(record), thread_id: threadId };   // (LangGraph's has the run's configurable keys: the thread's, at least)
  snapshot.createdAt = new Date(record.createdAt).toISOString();
  if (record.up) snapshot.parentConfig = configOf(threadId, record.up);
  return snapshot;
}
