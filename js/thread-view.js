// thread-view.js: what an engine reads of its threads: the checkpoint a run
// continues from (THREAD_NOT_FOUND, THREAD_BUSY and INVALID_CHECKPOINT name
// the thread), and the views getState and getStateHistory give back.

import { EdgegraphError } from './errors.js';
import { checkThreadId } from './checkpointer.js';
import { threadBusy } from './records.js';

/** A thread call needs a checkpointer and a valid thread id; `name` is the call, for the message. */
export function checkThreadCall(checkpointer, name, threadId) {
  if (!checkpointer) throw new EdgegraphError('INVALID_OPTIONS', `${name} needs a checkpointer in the engine options`);
  checkThreadId(threadId, `${name}(threadId)`, 'INVALID_INPUT');
}

/**
 * A thread's latest readable checkpoint (undefined: none), unless a run of it
 * is in flight: a latest checkpoint taken mid-run, younger than the lease, is
 * THREAD_BUSY unless the caller says its process died (`recover`).
 */
export async function latestOf(checkpointer, threadId, recover) {
  const loaded = await checkpointer.load(threadId);
  if (loaded && !recover && checkpointer.inFlight(threadId, loaded)) {
    throw threadBusy(threadId, `a run is in flight (its checkpoint ${loaded.id} was taken mid-run); if that run's process died, resume with { recover: true }`);
  }
  return loaded;
}

/**
 * `run()` with the thread held, where its store can hold one for a run's
 * length (Checkpointer.claim): another run of it meanwhile is THREAD_BUSY
 * before it reads anything.
 */
export async function holding(checkpointer, threadId, run) {
  if (threadId === undefined || threadId === null || !checkpointer) return run();
  const release = await checkpointer.claim(threadId);
  try {
    return await run();
  } finally {
    release();
  }
}

/** The checkpoint `resume({ threadId, checkpointId? })` continues from. */
export async function loadThread(checkpointer, { threadId, checkpointId }, recover = false) {
  checkThreadId(threadId, 'resume({ threadId })', 'INVALID_INPUT');
  if (!checkpointer) throw new EdgegraphError('INVALID_OPTIONS', 'resume({ threadId }) needs a checkpointer in the engine options');
  const loaded = checkpointId === undefined ? await latestOf(checkpointer, threadId, recover) : await checkpointer.load(threadId, checkpointId);
  if (loaded) return loaded;
  if (!(await checkpointer.exists(threadId))) throw new EdgegraphError('THREAD_NOT_FOUND', `thread '${threadId}' has no checkpoint in this store`);
  throw new EdgegraphError('INVALID_CHECKPOINT', `thread '${threadId}' has no readable checkpoint${checkpointId !== undefined ? ` ${checkpointId}` : ''}`);
}

/**
 * The tasks of a checkpoint's step, as getState shows them: a finished task's
 * writes (not yet in the state when another task of its step failed), a
 * failed task's error.
 */
function taskViews(tasks = []) {
  return tasks.filter((t) => t.kind !== 'route').map((t) => {
    const status = t.state ?? 'pending';
    const view = { node: t.node, status };
    if (status === 'done') view.writes = t.result;
    if (status === 'failed') view.error = t.result;
    return view;
  });
}

/** getState: { state, status, checkpointId, parentId, createdAt, tasks, interrupts }, or undefined. */
export function stateView(loaded) {
  if (!loaded) return undefined;
  // The interrupts waiting for an answer, as result.interrupts has them.
  const interrupts = (loaded.meta.tasks ?? []).filter((t) => t.state === 'interrupted').flatMap((t) => t.interrupts.map((i) => ({ ...i, node: t.node })));
  return { state: loaded.state, status: loaded.status, checkpointId: loaded.id, parentId: loaded.parent, createdAt: loaded.createdAt, tasks: taskViews(loaded.meta.tasks), interrupts };
}

/** getStateHistory: a page of the Checkpointer's records, as the engine names their fields (its id and parent's). */
export const historyView = (records) => records.map(({ id, parent, ...fields }) => ({ checkpointId: id, parentId: parent, ...fields }));
