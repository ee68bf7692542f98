// stream-modes.js: a run as chunks of stream modes, one implementation for
// edgegraph's own stream(input, { streamMode }) (stream-run.js feeds it from
// the run) and edgegraph/langgraph's stream() (langgraph/stream.js feeds it
// from its node wrappers). A `shape` gives each entry's chunk formats.
//   values       the state after each superstep (the input step first)
//   updates      { node: update } as each node finishes; { __interrupt__ } on a pause
//   custom       what a node writes with its writer
//   messages     [message, metadata]: LLM tokens as they come, and the messages nodes return
//   tasks        a task's start and its result (or error)
//   checkpoints  a snapshot at every checkpoint the run writes (a thread)
//   debug        tasks and checkpoints, wrapped as { step, type, timestamp, payload }
// One mode gives its chunks; several give [mode, chunk]; `subgraphs: true`
// gives [namespace, chunk] or [namespace, mode, chunk]. Chunks are queued
// only for the modes asked for: nothing else is built or copied.
// It imports only the queue (event-channel.js): the main bundle loads it only
// when a streamMode is used.

import { EventChannel } from './event-channel.js';
import { isPlainRecord } from './objects.js';

/** The superstep in a task id (`<runId>:<superstep>.<index>`). */
export function superstepOf(taskId) {
  // Read in place: called for every task, it makes no strings.
  let step = 0;
  for (let i = taskId.lastIndexOf(':') + 1, c = taskId.charCodeAt(i); c >= 48 && c <= 57; c = taskId.charCodeAt(++i)) step = step * 10 + c - 48;
  return step;
}

/** JSON's round trip of `v` as the value of `key` (toJSON is given the key). */
const viaJSON = (v, key) => JSON.parse(JSON.stringify({ [key]: v }))[key];

/**
 * A chunk's copy of a value. Node results are the caller's objects, and the
 * state is the run's own (its mirror): a chunk must not change when they do,
 * nor they when a chunk does.
 * It is what JSON.parse(JSON.stringify(v)) gives, without writing and reading
 * the text: objects and lists are new, strings are shared (they cannot change).
 * A node's update is mostly long strings (messages), which the text round
 * trip escaped, scanned and allocated again. What is not plain data (toJSON,
 * a class instance, a boxed value, a BigInt), and anything nested deeper than
 * a cycle could hide, goes through JSON itself: the same value, or the same
 * throw. undefined: what JSON leaves out (of an object; null in a list).
 */
export function copyValue(v, key = '', depth = 0) {
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
    for (let i = 0; i < v.length; i++) out[i] = copyValue(v[i], i, depth + 1) ?? null;
    return out;
  }
  if (!isPlainRecord(v)) return viaJSON(v, key);
  const out = {};
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const item = copyValue(v[k], k, depth + 1);
    if (item === undefined) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: item, writable: true, enumerable: true, configurable: true });
    else out[k] = item;
  }
  return out;
}

/**
 * { [name]: value }, made by assignment: a literal's computed key takes V8's
 * slow path when it sees many names (a graph's nodes), ~3x the time. A key is
 * data: '__proto__' is an own key, never the prototype.
 */
function named(name, value) {
  if (name === '__proto__') return { [name]: value };
  const out = {};
  out[name] = value;
  return out;
}

/** Whether `m` looks like a chat message (plain data with a role). */
const isMessage = (m) => m !== null && typeof m === 'object' && typeof m.role === 'string';

/**
 * @typedef {object} Shape an entry's chunk formats
 * @property {(update: object) => object} update the update as chunks carry it (a copy, unless already one)
 * @property {() => object} currentValues the state now, as a copy
 * @property {(id: string, name: string, step: number, input: unknown) => object} taskStart
 * @property {(id: string, name: string, step: number, result: object | null, error: object | null, interrupted: boolean, interrupts?: Array<{ id: string, value: unknown }>) => object} taskResult
 * @property {(node: string, step: number, taskId: string) => object} meta a messages chunk's metadata
 * @property {(event: object) => object} snapshot a checkpoint event's snapshot (with a copy of the values)
 */

export class ModeStream {
  #stop = null;       // leaving the iterator early stops the run (iterate's `stop`)
  #chunks = new EventChannel({ onReturn: () => this.#stop?.() });
  #pending = null;    // a checkpoint waiting to learn the nodes its step runs (its `next`)
  #nodeRan;           // a node finished since the last values chunk
  #step = -1;         // the latest superstep a task started in (debug checkpoints)
  /** Ids (and task ids) of messages streamed token by token: their final message is not sent whole again. */
  streamed = new Set();
  /** Ids of messages a chunk sent, or a node was given (edgegraph/langgraph's enter() adds them): a node's update that has them again (a subgraph's whole list) does not send them again, as LangGraph's. */
  seen = new Set();

  /**
   * @param {{ modes: string[], single?: boolean, subgraphs?: boolean, shape: Shape,
   *           parent?: { stream: ModeStream, ns: string[] } | null, valuesFirst?: boolean }} options
   *   valuesFirst: the first state change is a values chunk (the run's input), before any node ran
   */
  constructor({ modes, single = true, subgraphs = false, shape, parent = null, valuesFirst = false }) {
    this.own = new Set(modes);
    this.single = single;
    this.subgraphs = subgraphs;
    this.shape = shape;
    this.parent = parent;
    // A subgraph's stream builds what any stream above it asked for.
    this.wanted = parent ? new Set([...modes, ...parent.stream.wanted]) : this.own;
    for (const mode of ['values', 'updates', 'custom', 'messages', 'tasks', 'checkpoints', 'debug']) this[mode] = this.wanted.has(mode);
    this.#nodeRan = valuesFirst;
  }

  /** Queue a chunk of `mode` (from namespace `ns`) for the modes asked for here, and pass it up. */
  push(mode, chunk, ns = []) {
    const parent = this.parent;
    if (parent) parent.stream.push(mode, chunk, ns.length ? [...parent.ns, ...ns] : parent.ns);
    if (!this.own.has(mode) || (ns.length && !this.subgraphs)) return;
    let out = this.single ? chunk : [mode, chunk];
    if (this.subgraphs) out = this.single ? [ns, chunk] : [ns, mode, chunk];
    this.#chunks.push(out);
  }

  /** Task `id` (node `name`) of superstep `step` starts, with `input`. */
  started(id, name, step, input) {
    this.#step = step;
    this.#pending?.next.push(name);
    if (!this.tasks && !this.debug) return;
    this.#task('task', step, this.shape.taskStart(id, name, step, input));
  }

  /** A node ran, without a chunk of its own (LangGraph's input step). */
  ran() { this.#nodeRan = true; }

  /** A task's result: `update` is what the node wrote; `cached`: reused from the node cache. */
  finished(id, name, step, update, cached = false) {
    this.#nodeRan = true;
    if (!this.updates && !this.messages && !this.tasks && !this.debug) return;
    const written = this.shape.update(update);
    // Each mode's chunk has objects of its own: a consumer editing one leaves the others as they came.
    // (The messages first, then the update, as LangGraph's.)
    let sent = false;
    if (this.messages) { this.#messagesOf(written, name, step, id); sent = true; }
    if (this.updates) {
      const chunk = named(name, sent ? copyValue(written) : written);
      // A cached result says so, as LangGraph's updates chunk does.
      if (cached) chunk.__metadata__ = { cached: true };
      this.push('updates', chunk);
      sent = true;
    }
    if (this.tasks || this.debug) this.#task('task_result', step, this.shape.taskResult(id, name, step, sent ? copyValue(written) : written, null, false));
  }

  /** A task failed (`error`: { code, message }) or stopped at interrupt() (`error` null). */
  stopped(id, name, step, error, interrupts) {
    if (this.tasks || this.debug) this.#task('task_result', step, this.shape.taskResult(id, name, step, null, error, error === null, interrupts));
  }

  #task(type, step, payload) {
    if (this.tasks) this.push('tasks', payload);
    if (this.debug) this.push('debug', { step, type, timestamp: new Date().toISOString(), payload: this.tasks ? copyValue(payload) : payload });
  }

  /** An LLM token of task `taskId` (the message it streams is `id`; `tags`: the model call's). */
  token(node, taskId, text, id = taskId, tags) {
    if (!this.messages) return;
    this.streamed.add(id);
    this.push('messages', [{ role: 'assistant', content: text, id }, this.shape.meta(node, this.stepOf(taskId), taskId, tags)]);
  }

  /** The step a chunk of task `taskId` shows: its superstep (edgegraph/langgraph's counts as LangGraph). */
  stepOf(taskId) { return superstepOf(taskId); }

  /**
   * The messages a node returned, each once: a message streamed token by token
   * is not sent whole again, but the tool calls it made (no token carried them) are.
   */
  #messagesOf(update, node, step, taskId) {
    for (const key in update) {
      const value = update[key];
      for (const m of Array.isArray(value) ? value : [value]) {
        if (!isMessage(m) || this.seen.has(m.id)) continue;
        if (m.id != null) this.seen.add(m.id);
        const streamed = this.streamed.has(m.id) || (m.role === 'assistant' && this.streamed.has(taskId));
        if (streamed && !m.tool_calls?.length) continue;
        this.push('messages', [streamed ? { ...m, content: '' } : m, this.shape.meta(node, step, taskId)]);
      }
    }
  }

  /** The state changed (a step ended): a values chunk if a node ran since the last one. */
  stateChanged() {
    this.flushCheckpoint();
    if (this.#nodeRan && this.values) this.push('values', this.shape.currentValues());
    this.#nodeRan = false;
  }

  /** A checkpoint was written: its snapshot goes out at once if it names the nodes to run (`next`), else once they have started. */
  checkpoint(event) {
    if (!this.checkpoints && !this.debug) return;
    this.flushCheckpoint();
    const snapshot = this.shape.snapshot(event);
    if (snapshot.next) this.checkpointChunk(snapshot, snapshot.superstep ?? this.#step);
    else this.#pending = { snapshot, next: [] };
  }

  /** The pending checkpoint's chunk goes out (its step's nodes have all started). */
  flushCheckpoint() {
    const p = this.#pending;
    if (!p) return;
    this.#pending = null;
    this.checkpointChunk({ ...p.snapshot, next: p.next }, this.#step);
  }

  checkpointChunk(snapshot, step) {
    if (this.checkpoints) this.push('checkpoints', snapshot);
    if (this.debug) this.push('debug', { step, type: 'checkpoint', timestamp: new Date().toISOString(), payload: this.checkpoints ? copyValue(snapshot) : snapshot });
  }

  /**
   * The run paused with `interrupts` (none for a breakpoint or a question in the
   * state): an updates chunk { __interrupt__ }; a subgraph's goes up in its namespace.
   */
  paused(interrupts) {
    if (this.updates) this.push('updates', { __interrupt__: interrupts });
  }

  /** The run ended: the last checkpoint goes out; `error` (if any) is thrown by the iterator after the chunks. */
  end(error = null) {
    this.flushCheckpoint();
    this.#chunks.close(error ?? undefined);
  }

  /** The queued chunks as an async iterator; leaving early calls `stop`. */
  iterate(stop) {
    this.#stop = stop;
    return this.#chunks[Symbol.asyncIterator]();
  }
}
