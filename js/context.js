// context.js: a node's third argument. Its signal is made on first read: most
// nodes never read it, and an AbortController per step (combined with the
// run's signal) costs more than the rest of a no-op node's call.

import { STREAM } from './events.js';
import { usageRecord } from './usage.js';
import { interruptFor, TASK } from './interrupt.js';
import { EMPTY } from './objects.js';

export class NodeContext {
  #signal;   // an AbortSignal, or the run, whose stepSignal() makes it
  #shared;   // what the run gives every node: { emit, usage, ... } (nodeContext below)
  #emit = null;
  #recordUsage = null;
  // What only some tasks have (nodeContext sets them), declared so that every
  // context has one shape: one added later makes a shape of its own, which
  // dies with the run at a full GC and takes the optimized code checking for it.
  /** A Send's argument. */
  arg;
  /** The run's configurable values. */
  configurable;
  /** The first step's resume input. */
  resumeInput;
  /** The task's tracing (tracing.js). */
  trace;
  /** What a layer over the engine keeps with the node's call (edgegraph/langgraph: its LangGraph config). */
  hostConfig;
  [STREAM];

  /**
   * Every field a context always has is set here, so it lives in the object
   * itself (fields added later need storage of their own, grown per field).
   * @param {AbortSignal | { stepSignal(): AbortSignal }} signal
   * @param {{ emit?: Function, usage: object[] }} shared
   */
  constructor(signal, shared, taskId, task, attempt) {
    this.#signal = signal;
    this.#shared = shared;
    this.#task = task;
    this.taskId = taskId;
    this.node = task.node;
    this.attempt = attempt;
  }

  /** One kept for good, for its shape (why: Run's #shape, run.js). */
  static #shape = new NodeContext(null, null, '', { node: '' }, 1);

  /** The core's task; its interrupt() and internal fields are made on first read (most nodes never interrupt). */
  #task;
  #interrupt = null;
  #made() { return (this.#interrupt ??= interruptFor(this.#task, this.#shared.nextAnswer)); }

  /** Pause the run here: this call's answer on resume (interrupt.js). */
  get interrupt() { return this.#made().interrupt; }

  /** What a subgraph node reads of its task (interrupt.js's TASK). */
  get [TASK]() { return this.#made().internal; }

  /**
   * Nodes emit their own events (LLM tokens, tool calls) through context.emit:
   * with their node and task. Made on first read, as recordUsage: most nodes
   * never call either. Bound functions, not closures: with closures made per
   * task, every run with a listener survived minor GCs and was promoted to the
   * old generation (seen with node --trace-gc: mark-compacts instead of scavenges).
   */
  get emit() {
    const emit = this.#shared.emit;
    return (this.#emit ??= emit ? emitAs.bind(undefined, emit, this.node, this.taskId) : noop);
  }

  /** A model call's reply (agent and LLM nodes report theirs): into result.usage, and as an llm_usage event. */
  get recordUsage() {
    return (this.#recordUsage ??= recordUsage.bind(undefined, this.#shared, this.node, this.taskId));
  }

  /**
   * Send `chunk` to the run's stream: the `custom` stream mode yields it, and
   * onEvent and the raw stream() see a `custom` event with the node and task.
   * A function of its own, so `const { writer } = context` works too.
   */
  get writer() {
    return (chunk) => this.emit({ type: 'custom', data: chunk });
  }

  /** Fires when the run is aborted, the try times out, or a task of the same step fails for good. */
  get signal() {
    if (typeof this.#signal.stepSignal === 'function') this.#signal = this.#signal.stepSignal();
    return this.#signal;
  }
}

function noop() {}

function emitAs(emit, node, taskId, event) {
  emit({ ...EMPTY, ...event, node, taskId });
}

function recordUsage(shared, node, taskId, reply) {
  const call = usageRecord(reply);
  if (!call) return;
  const record = { node, ...call };
  shared.usage.push(record);
  shared.emit?.({ type: 'llm_usage', ...record, taskId });
}

/**
 * The context of one try of a task. `shared`: what the run gives every node
 * ({ emit, usage, configurable, tracing, tap, nextAnswer }); `resumeInput`: the first step's.
 */
export function nodeContext(task, attempt, signal, taskId, resumeInput, shared) {
  const { tracing, tap } = shared;
  const ctx = new NodeContext(signal, shared, taskId, task, attempt);
  if (task.arg !== undefined) ctx.arg = task.arg;
  if (shared.configurable !== undefined) ctx.configurable = shared.configurable;
  if (resumeInput !== undefined) ctx.resumeInput = resumeInput;
  if (tracing) ctx.trace = tracing.forTask(taskId);
  if (tap) ctx[STREAM] = tap;   // a subgraph node streams its child run there
  return ctx;
}
