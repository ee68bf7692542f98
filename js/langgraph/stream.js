// stream.js: LangGraph's stream modes over edgegraph's run events. One
// Invocation per invoke()/stream() call: it counts supersteps (recursionLimit),
// turns node results and the engine's events into chunks of the modes asked
// for, and queues them for an async iterator.
//   values       the state after each superstep (the input step first)
//   updates      { node: update } as each node finishes
//   custom       what a node writes with config.writer(chunk)
//   messages     [message chunk, metadata] for LLM tokens (edgegraph's LLM nodes
//                and LangChain chat models given the config's callbacks)
//   tasks        a task's start { id, name, input, triggers } and its result
//   checkpoints  a state snapshot at every checkpoint the run writes
//   debug        checkpoints and tasks, wrapped as { step, type, timestamp, payload }
// Several modes give [mode, chunk]; `subgraphs: true` gives [namespace, ...].

import { GraphRecursionError } from './errors.js';

export const STREAM_MODES = ['values', 'updates', 'custom', 'messages', 'tasks', 'checkpoints', 'debug'];

/** The superstep in an edgegraph task id (`<runId>:<superstep>.<index>`). */
export function superstepOf(taskId) {
  const local = taskId.slice(taskId.lastIndexOf(':') + 1);
  return Number(local.slice(0, local.indexOf('.')));
}

const copy = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

export class Invocation {
  steps = 0;            // supersteps of nodes run in this call (LangGraph's recursion counter)
  #lastStep = -1;
  #queue = [];
  #wake = null;
  #done = false;
  #error = null;
  #pendingCheckpoint = null;
  #nodeRan = false;
  mirror = null;        // the run's state (the engine's mirror), seen by the first node
  initialValues = {};   // the channels the run starts from (the first checkpoint's values)

  /**
   * @param {{ modes: string[], single: boolean, subgraphs: boolean, recursionLimit: number, config: object,
   *           view: (state: object) => object, parent?: { push: Function, ns: string[] } }} options
   */
  constructor(options) {
    Object.assign(this, options);
    this.wanted = new Set(options.modes);
  }

  wants(mode) { return this.wanted.has(mode) || (this.parent?.inv.wants(mode) ?? false); }

  /** Queue a chunk of `mode` (in the LangGraph shape for the modes asked for). */
  push(mode, chunk, ns = []) {
    if (this.parent) { this.parent.inv.push(mode, chunk, [...this.parent.ns, ...ns]); }
    if (!this.wanted.has(mode)) return;
    if (ns.length && !this.subgraphs) return;
    let out = this.single ? chunk : [mode, chunk];
    if (this.subgraphs) out = this.single ? [ns, chunk] : [ns, mode, chunk];
    this.#queue.push(out);
    this.#wake?.();
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

  taskStarted(taskId, name, input, step) {
    this.#pendingCheckpoint?.next.push(name);
    const tasks = this.wants('tasks'), debug = this.wants('debug');
    if (!tasks && !debug) return;
    const payload = { id: taskId, name, input: copy(input), triggers: [`branch:to:${name}`], interrupts: [] };
    if (tasks) this.push('tasks', payload);
    if (debug) this.push('debug', { step, type: 'task', timestamp: new Date().toISOString(), payload });
  }

  taskFinished(taskId, name, update, step, isStart, cached = false) {
    this.#nodeRan = true;
    if (isStart) return;
    // A result reused from the node cache says so, as LangGraph's updates chunk does.
    if (this.wants('updates')) this.push('updates', cached ? { [name]: copy(update), __metadata__: { cached: true } } : { [name]: copy(update) });
    if (this.wants('messages')) this.#messagesOf(update, name, step);
    const tasks = this.wants('tasks'), debug = this.wants('debug');
    if (!tasks && !debug) return;
    const payload = { id: taskId, name, result: copy(update), interrupts: [], error: null };
    if (tasks) this.push('tasks', payload);
    if (debug) this.push('debug', { step, type: 'task_result', timestamp: new Date().toISOString(), payload });
  }

  /** Ids of messages already streamed token by token (their final message is not sent again). */
  streamedIds = new Set();

  /** The messages a node returned, for the 'messages' mode (what no LLM streamed). */
  #messagesOf(update, node, step) {
    for (const value of Object.values(update)) {
      for (const m of Array.isArray(value) ? value : [value]) {
        if (m === null || typeof m !== 'object' || typeof m.role !== 'string' || this.streamedIds.has(m.id)) continue;
        this.push('messages', [copy(m), { langgraph_node: node, langgraph_step: step }]);
      }
    }
  }

  /** An edgegraph run event. */
  onEvent(event, snapshotOf) {
    if (event.type === 'state_update') {
      this.#flushCheckpoint();
      if (this.#nodeRan && this.mirror && this.wants('values')) this.push('values', copy(this.view(this.mirror)));
      this.#nodeRan = false;
    } else if (event.type === 'checkpoint' && (this.wants('checkpoints') || this.wants('debug'))) {
      this.#flushCheckpoint();
      // Before the first node runs, the state is the one the run started from.
      const values = this.mirror ? this.view(this.mirror) : this.initialValues;
      this.#pendingCheckpoint = { snapshot: snapshotOf(event, copy(values)), next: [] };
    } else if (event.type === 'llm_token' && this.wants('messages')) {
      this.push('messages', [{ role: 'assistant', content: event.token ?? event.text ?? '', id: event.taskId }, { langgraph_node: event.node, langgraph_step: superstepOf(event.taskId ?? '0:0.0') }]);
    } else if (event.type === 'run_end') this.#flushCheckpoint();
  }

  #flushCheckpoint() {
    const p = this.#pendingCheckpoint;
    if (!p) return;
    this.#pendingCheckpoint = null;
    const snapshot = { ...p.snapshot, next: p.snapshot.next ?? p.next };
    if (this.wants('checkpoints')) this.push('checkpoints', snapshot);
    if (this.wants('debug')) this.push('debug', { step: snapshot.metadata.step, type: 'checkpoint', timestamp: new Date().toISOString(), payload: snapshot });
  }

  /** The run paused: LangGraph's chunk of the interrupts, in the updates and values modes. */
  paused(interrupts) {
    for (const mode of ['updates', 'values']) if (this.wanted.has(mode)) this.push(mode, { __interrupt__: interrupts });
  }

  end(error = null) {
    this.#done = true;
    this.#error = error;
    this.#wake?.();
  }

  /** The queued chunks as an async iterator; leaving early calls `stop`. */
  iterate(stop) {
    const self = this;
    return {
      [Symbol.asyncIterator]() { return this; },
      async next() {
        for (;;) {
          if (self.#queue.length) return { value: self.#queue.shift(), done: false };
          if (self.#done) {
            if (self.#error) { const e = self.#error; self.#error = null; throw e; }
            return { value: undefined, done: true };
          }
          await new Promise((resolve) => { self.#wake = resolve; });
          self.#wake = null;
        }
      },
      async return() { if (!self.#done) stop(); self.#queue.length = 0; return { value: undefined, done: true }; },
    };
  }
}
