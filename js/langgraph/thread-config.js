// thread-config.js: LangGraph's config naming a thread's checkpoint, and the
// engine's thread it names. Apart from history.js (loaded on first use: getState,
// getStateHistory, a checkpoints stream), as every run and saver call reads them.

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
