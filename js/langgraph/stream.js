// stream.js: LangGraph's stream() over edgegraph's one stream-mode
// implementation (../stream-modes.js). What is LangGraph's alone lives here:
// the recursion counter (recursionLimit counts supersteps), and its chunk
// shapes: channels as the state, `langgraph_node` metadata, a task's
// triggers, and checkpoint snapshots as getState() gives them.

import { ModeStream, superstepOf } from '../stream-modes.js';
import { GraphRecursionError } from './errors.js';

export { superstepOf };
export { STREAM_MODES } from 'edgegraph';

/** JSON's round trip of `v` as the value of `key` (toJSON is given the key). */
const viaJSON = (v, key) => JSON.parse(JSON.stringify({ [key]: v }))[key];
const objectProto = Object.prototype;

/**
 * A chunk's copy of a value. Node results are the caller's objects, and a
 * node's state is the run's own (its mirror): a chunk must not change when
 * they do, nor they when a chunk does.
 * It is what JSON.parse(JSON.stringify(v)) gives, without writing and reading
 * the text: objects and lists are new, strings are shared (they cannot change).
 * A node's update is mostly long strings (messages), which the text round
 * trip escaped, scanned and allocated again. What is not plain data (toJSON,
 * a class instance, a boxed value, a BigInt), and anything nested deeper than
 * a cycle could hide, goes through JSON itself: the same value, or the same
 * throw. undefined: what JSON leaves out (of an object; null in a list).
 */
function copy(v, key = '', depth = 0) {
  switch (typeof v) {
    case 'string': case 'boolean': return v;
    case 'number': return Number.isFinite(v) ? v : null;
    case 'undefined': case 'function': case 'symbol': return undefined;
    case 'bigint': return viaJSON(v, key);
  }
  if (v === null) return null;
  if (depth > 64 || typeof v.toJSON === 'function') return viaJSON(v, key);
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copy(v[i], i, depth + 1) ?? null;
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== objectProto && proto !== null) return viaJSON(v, key);
  const out = {};
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const item = copy(v[k], k, depth + 1);
    if (item === undefined) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: item, writable: true, enumerable: true, configurable: true });
    else out[k] = item;
  }
  return out;
}

/** One invoke()/stream() call: its supersteps, and its chunks of the modes asked for. */
export class Invocation extends ModeStream {
  steps = 0;            // supersteps of nodes run in this call (LangGraph's recursion counter)
  #lastStep = -1;
  mirror = null;        // the run's state (the engine's mirror), seen by the first node
  initialValues = {};   // the channels the run starts from (the first checkpoint's values)

  /**
   * @param {{ modes: string[], single: boolean, subgraphs: boolean, recursionLimit: number, config: object,
   *           view: (state: object) => object, parent?: { inv: Invocation, ns: string[] } }} options
   */
  constructor({ modes, single, subgraphs, recursionLimit, config, view, parent }) {
    super({ modes, single, subgraphs, parent: parent ? { stream: parent.inv, ns: parent.ns } : null, shape: null });
    this.shape = this;
    this.recursionLimit = recursionLimit;
    this.config = config;
    this.view = view;
  }

  wants(mode) { return this.wanted.has(mode); }

  /** A LangChain callback handler (by shape: plain methods) turning node `node`'s LLM tokens into 'messages' chunks. */
  tokenHandler(node, step) {
    const inv = this;
    // No `name`: LangChain then wraps it as a handler of its own (fromMethods),
    // copying these flags: stream even from invoke(), and deliver tokens in order.
    return {
      lc_prefer_streaming: true,
      awaitHandlers: true,
      handleLLMNewToken(token, _idx, runId) {
        inv.streamed.add(`run-${runId}`);
        inv.push('messages', [{ role: 'assistant', content: token, id: `run-${runId}` }, inv.meta(node, step)]);
      },
    };
  }

  taskStarted(taskId, name, input, step) { this.started(taskId, name, step, input); }

  /** A node's update; LangGraph's input step (`isStart`) makes no chunk of its own. */
  taskFinished(taskId, name, update, step, isStart, cached = false) {
    if (isStart) this.ran();
    else this.finished(taskId, name, step, update, cached);
  }

  /** A node of superstep `step` starts: count it, refuse past the limit. */
  enterStep(step) {
    if (step === this.#lastStep) return;
    this.#lastStep = step;
    this.steps++;
    if (this.steps > this.recursionLimit) throw this.recursionError();
  }

  recursionError() {
    return new GraphRecursionError(`Recursion limit of ${this.recursionLimit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.`);
  }

  /** As LangGraph: the { __interrupt__ } chunk in the values mode too, for the modes this call asked for (runAsChild streams a child's). */
  paused(interrupts) {
    for (const mode of ['updates', 'values']) if (this.own.has(mode)) this.push(mode, { __interrupt__: interrupts });
  }

  /** An edgegraph run event; `snapshotOf(event, values)` makes a checkpoint's snapshot. */
  onEvent(event, snapshotOf) {
    this.snapshotOf = snapshotOf;
    switch (event.type) {
      case 'state_update': this.stateChanged(); break;
      case 'checkpoint': this.checkpoint(event); break;
      case 'llm_token': this.token(event.node, event.taskId ?? '0:0.0', event.token ?? event.text ?? ''); break;
      case 'node_end': if (event.error) this.stopped(event.taskId, event.node, superstepOf(event.taskId), { message: event.error, code: event.errorCode }); break;
      case 'run_end': this.flushCheckpoint(); break;
    }
  }

  // ---- the shape of LangGraph's chunks (stream-modes.js calls these) ----

  update(update) { return copy(update); }
  currentValues() { return copy(this.view(this.mirror)); }
  meta(node, step) { return { langgraph_node: node, langgraph_step: step }; }
  taskStart(id, name, step, input) { return { id, name, input: copy(input), triggers: [`branch:to:${name}`], interrupts: [] }; }
  taskResult(id, name, step, result, error) { return { id, name, result, interrupts: [], error }; }
  snapshot(event) {
    // Before the first node runs, the state is the one the run started from.
    return this.snapshotOf(event, copy(this.mirror ? this.view(this.mirror) : this.initialValues));
  }
}
