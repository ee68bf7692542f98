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
 * which LangGraph has no checkpoint for: those are left out.
 */
export async function threadHistory(engine, threadId) {
  const all = await engine.getStateHistory(threadId, { values: true });
  const byId = new Map();
  const firstChild = new Map();   // newest first: the last one set is a parent's oldest child
  for (const r of all) {
    byId.set(r.checkpointId, r);
    if (r.parentId !== null) firstChild.set(r.parentId, r.checkpointId);
  }
  const shown = (id) => { let r = byId.get(id); while (r && r.routing?.length) r = byId.get(r.parentId); return r; };
  const out = all.filter((r) => !r.routing?.length);
  // Oldest first, so that a record's parent has its step already (the records are the engine's fresh objects).
  for (let i = out.length - 1; i >= 0; i--) {
    const r = out[i];
    r.parent = shown(r.parentId);
    r.fork = r.parentId !== null && firstChild.get(r.parentId) !== r.checkpointId;
    r.step = r.parent ? r.parent.step + 1 : -1;
  }
  return out;
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
