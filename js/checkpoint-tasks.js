// checkpoint-tasks.js: what a checkpoint's task list says runs next, as getStateHistory names it:
// read by the Checkpointer's history (from a record), and by the checkpoints streams (from the
// core's checkpoint meta, as the run writes each record: run.js hands it to the run's tap).

/**
 * `tasks` (a checkpoint's) as { pendingTasks, routing }: the node tasks not done, or where the
 * routes answered go (a pause after them: interruptAfter), or will go (a node's goto, `override`:
 * a stop before its route ran); the nodes routing.
 */
export function nextOf(tasks = []) {
  const next = (t) => (t.state !== 'done' ? [t.node] : []), routed = (t) => (t.state === 'done' ? t.targets ?? [t.result ?? []].flat().map((e) => e.node ?? e) : t.override ? [t.override] : []);
  return { pendingTasks: tasks.flatMap((t) => (t.kind === 'route' ? routed(t) : next(t))), routing: tasks.filter((t) => t.kind === 'route').map((t) => t.node) };
}

/** The core's checkpoint meta (JSON text) as { superstep, pendingTasks, routing }. */
export function metaNext(text) {
  const { superstep, tasks } = JSON.parse(text);
  return { superstep, ...nextOf(tasks) };
}
