// saver-api.js: LangGraph's BaseCheckpointSaver read API over a saver's
// records (checkpoint.js's savers; loaded on a program's first call of it,
// as runs read and write the records themselves).

import { EdgegraphError } from './edgegraph.js';
import { configOf, threadRef } from './thread-config.js';

/**
 * { config, checkpoint: { id, ts, channel_values }, metadata, parentConfig } of a thread's
 * latest checkpoint (or of `configurable.checkpoint_id`) in `records` (a Checkpointer), or undefined.
 */
export async function getTuple(records, config) {
  if (config?.configurable?.thread_id === undefined) return undefined;
  const { threadId: thread, checkpointId } = threadRef(config.configurable);
  const loaded = await records.load(thread, checkpointId);
  if (!loaded) return undefined;
  const tuple = {
    config: configOf(thread, loaded.id),
    checkpoint: { v: 1, id: String(loaded.id), ts: new Date(loaded.createdAt).toISOString(), channel_values: loaded.state?.channels ?? {} },
    metadata: { status: loaded.status },
  };
  if (loaded.parent != null) tuple.parentConfig = configOf(thread, loaded.parent);
  return tuple;
}

/**
 * A thread's checkpoints as tuples, newest first (`limit` of them). What this saver cannot do is
 * refused, not done differently: listing every thread (no thread_id), and a metadata `filter`.
 */
export async function* list(records, config, { limit, filter, before } = {}) {
  const threadId = config?.configurable?.thread_id;
  if (threadId === undefined) throw new EdgegraphError('INVALID_INPUT', 'list(): a saver of edgegraph/langgraph lists one thread\'s checkpoints: give configurable.thread_id (the compiled graph\'s getStateHistory() shows them as LangGraph numbers them)');
  if (filter !== undefined || before !== undefined) throw new EdgegraphError('INVALID_OPTIONS', `list(): ${filter !== undefined ? 'filter' : 'before'} is not supported by a saver of edgegraph/langgraph; the compiled graph's getStateHistory(config, { filter, before }) takes it`);
  // (A config naming a checkpoint: that one, as LangGraph's.)
  if (config.configurable.checkpoint_id !== undefined) { const tuple = await getTuple(records, config); if (tuple) yield tuple; return; }
  const history = await records.history(String(threadId));
  for (const r of history.slice(0, limit)) yield await getTuple(records, { configurable: { thread_id: threadId, checkpoint_id: r.id } });
}

/** Writing is the engine's: a saver here is read through LangGraph's API, written by runs. */
export const put = () => { throw new EdgegraphError('INVALID_OPTIONS', 'put(): runs write the savers of edgegraph/langgraph'); };
