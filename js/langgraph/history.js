// history.js: a thread's edgegraph checkpoints as LangGraph's state snapshots
// ({ values, next, tasks, config, metadata, createdAt, parentConfig }).

import { START, END } from './graph.js';

/** LangGraph's config naming one checkpoint of a thread. */
export function configOf(threadId, checkpointId) {
  return { configurable: { thread_id: threadId, checkpoint_ns: '', checkpoint_id: String(checkpointId) } };
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
  const byId = new Map(all.map((r) => [r.checkpointId, r]));
  const shown = (id) => { let r = byId.get(id); while (r && r.routing?.length) r = byId.get(r.parentId); return r; };
  const firstChild = new Map();
  for (const r of [...all].reverse()) if (r.parentId !== null && !firstChild.has(r.parentId)) firstChild.set(r.parentId, r.checkpointId);
  const out = all.filter((r) => !r.routing?.length).map((r) => ({ ...r, parent: shown(r.parentId), fork: r.parentId !== null && firstChild.get(r.parentId) !== r.checkpointId }));
  const steps = new Map();
  for (const r of [...out].reverse()) steps.set(r.checkpointId, r.parent ? steps.get(r.parent.checkpointId) + 1 : -1);
  for (const r of out) r.step = steps.get(r.checkpointId);
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
