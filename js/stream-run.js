// stream-run.js: edgegraph's own stream(input, { streamMode }), loaded by
// events.js the first time a stream asks for modes. A RunTap feeds a run to a
// ModeStream (stream-modes.js): its events, and what a run (run.js) tells it
// beside them: its state (the mirror, for values and checkpoints), and each
// node's result as the JSON the core applied (for updates, messages and tasks:
// parsing it is the copy a chunk needs). A subgraph node's child run gets a
// tap of its own (subgraph.js), whose chunks go up under `<node>:<step>.<index>`.
// It imports nothing but stream-modes.js: a bundle of its own, which
// edgegraph/langgraph loads too (langgraph-modes.js): one copy for both.

import { ModeStream, superstepOf, copyValue as copy } from './stream-modes.js';

export { ModeStream, superstepOf, copy as copyValue };

const STREAM = Symbol.for('edgegraph.stream');   // events.js's STREAM (not imported: this file is bundled alone)
const PATCHLESS = Symbol.for('edgegraph.patchless');   // events.js's: onEvent reads no state_update patch
/** result-json.js's jsonOf (not imported, as above): a result's JSON text, also of one in parts (`[text, string, text, ...]`). */
const jsonOf = (r) => (typeof r === 'string' ? r : r.map((p, i) => (i & 1 ? JSON.stringify(p) : p)).join(''));

class RunTap {
  #mirror = null;
  #meta = null;
  #base;

  /**
   * @param {(tap: RunTap) => ModeStream} makeStream
   * @param {string} [base] a subgraph's run: its namespace, which prefixes its interrupt ids in the parent
   */
  constructor(makeStream, base = undefined) {
    this.stream = makeStream(this);
    this.#base = base;
    this.onEvent[PATCHLESS] = true;
  }

  /** run.js: the run's state (patched in place as it goes), and a function giving the checkpoint's { superstep, pendingTasks, routing } (checkpoint-tasks.js's metaNext; null once the run ended). */
  attach(mirror, checkpointMeta) {
    this.#mirror = mirror;
    this.#meta = checkpointMeta;
  }

  /**
   * run.js: node `node` of task `taskId` finished; `result` is its result as the core got it
   * (resultText's: a text or parts), read only when a mode shows it.
   */
  result(node, taskId, result) {
    const s = this.stream;
    if (s.updates || s.messages || s.tasks || s.debug) s.finished(taskId, node, superstepOf(taskId), JSON.parse(jsonOf(result)));
    else s.ran();
  }

  /**
   * subgraph.js: the tap of the child run a subgraph node starts. Its namespace is
   * `<node>:<step>.<index>`, as the parent's task prefixes the child's interrupt ids
   * (and as edgegraph/langgraph names it): the same across a resume.
   */
  child(node, taskId) {
    const ns = `${node}:${taskId.slice(taskId.lastIndexOf(':') + 1)}`;
    return new RunTap((tap) => new ModeStream({ modes: [], shape: tap, parent: { stream: this.stream, ns: [ns] }, valuesFirst: true }), ns);
  }

  /** The run's events. */
  onEvent = (event) => {
    const s = this.stream;
    switch (event.type) {
      case 'node_start': s.started(event.taskId, event.node, superstepOf(event.taskId)); break;
      case 'node_end':
        if (event.error !== undefined) s.stopped(event.taskId, event.node, superstepOf(event.taskId), { code: event.errorCode, message: event.error });
        else if (event.interrupted) s.stopped(event.taskId, event.node, superstepOf(event.taskId), null);
        break;
      case 'state_update': s.stateChanged(); break;
      case 'checkpoint': s.checkpoint(event); break;
      case 'llm_token': s.token(event.node, event.taskId, event.text); break;
      case 'custom': if (s.custom) s.push('custom', event.data); break;
      case 'pause': {
        // A subgraph's interrupts, with the ids the parent's resume answers them by.
        const interrupts = event.interrupts ?? [];
        s.paused(this.#base ? interrupts.map((i) => ({ ...i, id: `${this.#base}/${i.id}` })) : interrupts);
        break;
      }
      case 'run_end': s.flushCheckpoint(); break;
    }
  };

  // ---- the shape of edgegraph's chunks (stream-modes.js calls these) ----

  update(update) { return update; }   // parsed from the result's JSON: a copy already
  currentValues() { return copy(this.#mirror); }
  meta(node, step, taskId) { return { node, step, taskId }; }
  taskStart(id, name, step) { return { id, name, step }; }
  taskResult(id, name, step, result, error, interrupted) {
    return interrupted ? { id, name, step, result, error, interrupted } : { id, name, step, result, error };
  }
  /** A checkpoint event's snapshot: it fires before its step's tasks run, so the run is still where it was written. */
  snapshot({ threadId, checkpointId, status }) {
    const meta = this.#meta();
    // A write that ended after the run did: the nodes it ran are not known any more.
    if (meta === null) return { threadId, checkpointId, status, values: copy(this.#mirror) };
    return { threadId, checkpointId, status, superstep: meta.superstep, values: copy(this.#mirror), next: meta.pendingTasks };
  }
}

/**
 * Start a run (`start(runOptions)`) whose stream yields chunks of `modes`.
 * Returns { chunks, result }: the async iterator, and the run's result. A run
 * that ends in ERROR or INTERRUPTED throws its error from the iterator, after
 * its chunks; `result` still resolves with it (state, checkpoint).
 */
export function streamModes(start, runOptions, { modes, single, subgraphs, stop }) {
  const tap = new RunTap((t) => new ModeStream({ modes, single, subgraphs, shape: t, valuesFirst: true }));
  const user = runOptions.onEvent;
  runOptions.onEvent = user ? (event) => { user(event); tap.onEvent(event); } : tap.onEvent;
  runOptions[STREAM] = tap;
  const result = start(runOptions);
  result.then((r) => tap.stream.end(r.error ?? null), (e) => tap.stream.end(e));
  return { chunks: tap.stream.iterate(stop), result };
}
