// run.js: driving one run of the sans-I/O core. The core says what runs; a
// Run runs it (node functions and routers, several at once in a parallel
// step), hands results and failures back, applies the core's state patch to
// the JS mirror, checkpoints each step boundary when the run has a thread,
// and stops with the result run-result.js makes of the core's final status.

import { EdgegraphError, describeThrown } from './errors.js';
import { finalResult, writeFailedResult } from './run-result.js';
import { readStep } from './step.js';
import { now, STREAM, STOP, PATCHLESS, RESUMED } from './events.js';
import { deepFreeze } from './objects.js';
import { resultJSON, resultText } from './result-json.js';
import { anySignal, eachLimited } from './timing.js';
import { withPolicy } from './node-policy.js';
import { inNode, isGraphInterrupt, NEXT_ANSWER, TASK } from './interrupt.js';
import { nodeContext } from './context.js';
import { Command, commandResult, isCommand } from './command.js';
import { foldWrites, writesHostPath, keptBase } from './host-reducers.js';
import { metaNext } from './checkpoint-tasks.js';

export class Run {
  #engine;
  #graph;          // { core, handlers, routers, policies, partitioned, history, nodeTable }
  #handle;
  #mirror;
  #emit;
  #signal;
  /** options[STOP]: a stream's stop ({ reason, onStop }: events.js), which its consumer leaving sets. */
  #stop;
  #thread;
  #runId;
  #resumeInput;    // for the first step's nodes (a subgraph node resumes its child with it)
  #open = true;    // false once the core's run is freed: late results are dropped
  #children = null;   // this step's subgraph tasks (a promise): a stop waits for them (#settle)
  #aborted = false;
  #wake = null;
  #thrown = new Map();
  #usage = [];     // one record per model call of this run (usage.js)
  #tracing;        // a RunTracing (tracing.js) when the engine has a tracer
  #stepSize = 0;   // tasks in the current step
  #held = null;    // results writing a path with a JS reducer, folded when the step's tasks are done
  #foldBase = null;   // what those fold over when not the mirror: a resumed step's, with its kept results (host-reducers.js keptBase)
  #resumed;        // restored from a checkpoint: its first step may have kept results
  #configurable;
  #maxConcurrency;
  /** This step's cancellation, made when a node reads context.signal: aborted when a task of it fails for good. */
  #step = null;
  #stepSignal = null;
  #stepFailed = false;
  /** A node's Command with graph: Command.PARENT: { goto, update } for the parent graph. */
  #handoff = null;
  /** stream({ streamMode }): what the run tells its stream beside events (stream-run.js's RunTap). */
  #tap;
  /** What every node's context shares (context.js). */
  #shared;

  /**
   * @param {object} engine the GraphEngine (nodes and routers get it as their second argument)
   * @param {object} graph what the engine knows of its graph: core, handlers, routers, policies, partitioned, history
   * @param {number} handle the core's run
   * @param {object} mirror the JS copy of the run's state (patched in place)
   * @param {{ onEvent?: Function, signal?: AbortSignal, runId?: string }} options
   * @param {import('./thread.js').ThreadWriter | null} thread
   */
  constructor(engine, graph, handle, mirror, options, resumeInput, thread) {
    this.#engine = engine;
    this.#graph = graph;
    this.#handle = handle;
    this.#mirror = mirror;
    this.#emit = options.onEvent;
    this.#signal = options.signal;
    this.#stop = options[STOP];
    this.#runId = options.runId;
    this.#configurable = options.configurable;
    this.#maxConcurrency = options.maxConcurrency;
    this.#resumeInput = resumeInput;
    this.#resumed = options[RESUMED];
    this.#thread = thread;
    this.#tracing = options.tracing;
    this.#tap = options[STREAM];
    this.#shared = { emit: this.#emit, usage: this.#usage, configurable: this.#configurable, tracing: this.#tracing, tap: this.#tap, nextAnswer: options[NEXT_ANSWER] ?? null };
    // The core's checkpoint meta (superstep, tasks) is read only for the checkpoints mode, and never once the run is freed.
    this.#tap?.attach(mirror, () => (this.#open ? metaNext(graph.core.runCheckpointMeta(handle)) : null));
    // The core keeps each step's patch for the thread's next record, from the first step on.
    thread?.bind(graph.core, handle);
  }

  /**
   * A Run kept for good, for its shape. V8 drops an object shape that no object
   * has at a full GC, and with it the optimized code that checks for it ("weak
   * objects" deopts, seen with node --trace-deopt): no Run lives between runs, so
   * each full GC there (forced, or the memory-reducing ones of an idle tab or
   * worker) sent the whole step path back to the interpreter. context.js and
   * thread.js keep one of theirs for the same reason. (So #runTask and
   * stepSignal are methods: a closure over `this` in a field did the same.)
   */
  static #shape = new Run(null, {}, 0, null, {});

  get state() { return this.#mirror; }

  /** Run to a pause, the end, an error or an abort; always frees the core's run. */
  async drive() {
    const { core } = this.#graph;
    const emit = this.#emit;
    const onAbort = () => {
      this.#aborted = true;
      if (this.#open) core.runInterrupt(this.#handle);
      this.#wake?.();
    };
    if (this.#signal?.aborted) onAbort();
    else this.#signal?.addEventListener('abort', onAbort, { once: true });
    // A stream's stop is a field, not an AbortSignal: an AbortController and a listener cost
    // more than a no-op node's run (~15 µs); the signal is made only if a node reads it.
    const stop = this.#stop;
    if (stop) {
      const onStop = () => { this.#step?.abort(stop.reason); onAbort(); };
      if (stop.reason !== undefined) onStop();
      else stop.onStop = onStop;
    }
    emit?.({ type: 'run_start' });
    try {
      for (;;) {
        // The ops go into the mirror as they are read: with a listener, the event
        // gets them and the mirror copies (the caller may change what an event carries).
        // (A listener marked PATCHLESS, the stream modes' own, reads no patch: its state_update has none, and nothing is copied.)
        const out = readStep(core.runStep(this.#handle), this.#mirror, Boolean(emit) && !emit[PATCHLESS], this.#graph.nodeTable ??= core.runGraphNodes(this.#handle), core.statusNames);
        if (out.messagesReshaped) this.#graph.history.sawReshape();
        if (emit && out.ops) emit({ type: 'state_update', patch: out.patch });
        // The read-only input partition is frozen for nodes, as in seed 002.
        if (this.#graph.partitioned) deepFreeze(this.#mirror.input);
        if (this.#thread) {
          // A checkpoint at every step boundary, written before the step runs
          // (into a synchronous store, without waiting a turn).
          const writing = this.#thread.save(emit, out.status);
          if (writing) await writing;
          if (this.#thread.error) return writeFailedResult(this.#graph.core, this.#handle, this.#mirror, this.#usage, this.#handoff, this.#emit, this.#thread);
        }
        if (out.status !== 'RUNNING') return finalResult(this.#graph.core, this.#handle, this.#mirror, this.#usage, this.#handoff, this.#emit, out, this.#thrown, this.#aborted);
        // A listener (a stream's consumer) hears each step before the next one runs, even when
        // every node is synchronous, and can stop the run there: one turn of the microtask queue.
        if (this.#emit) await null;
        let pending = null;
        // A step resumed with results kept from before its pause or failure: JS-reduced writes fold over them.
        if (this.#resumed && this.#graph.hostReducers && out.tasks[0]?.kind === 'node') this.#foldBase = keptBase(this.#graph.core, this.#handle, this.#graph.hostReducers, this.#mirror);
        this.#resumed = false;
        // In a parallel step, each finished task is checkpointed too, so a
        // crash re-runs only the tasks that had not finished.
        this.#perTask = Boolean(this.#thread) && out.tasks.length > 1;
        this.#stepSize = out.tasks.length;
        this.#step = null;
        this.#stepFailed = false;
        const limit = this.#maxConcurrency;
        if (limit && out.tasks.length > limit) pending = [eachLimited(out.tasks, limit, (task) => this.#runTask(task), () => this.#open && !this.#aborted)];
        else {
          for (const task of out.tasks) {
            const p = this.#runTask(task);
            if (p) (pending ??= []).push(p);
          }
        }
        const nodeStep = out.tasks.length && out.tasks[0].kind === 'node';
        if (nodeStep) this.#resumeInput = undefined;
        if (pending) await this.#settle(pending);
        // An answer for the first interrupt() (interrupt.js's NEXT_ANSWER) lasts its steps of nodes.
        const next = this.#shared.nextAnswer;
        if (next && nodeStep && --next.steps <= 0) next.taken = true;
        if (this.#held) this.#submitHeld();
        this.#foldBase = null;
      }
    } finally {
      this.#open = false;
      this.#signal?.removeEventListener('abort', onAbort);
      if (stop) stop.onStop = null;
      core.runFree(this.#handle);
      await this.#thread?.close();
    }
  }

  /** Whether this step checkpoints each finished task (a parallel step of a run with a thread). */
  #perTask = false;

  /** Start a task of the step (a promise when it is asynchronous, or checkpointed on its own). */
  #runTask(task) {
    const p = this.#start(task);
    return this.#perTask ? (p ?? Promise.resolve()).then(() => { if (this.#open && !this.#aborted) return this.#checkpoint(); }) : p;
  }

  #checkpoint() {
    // The core prints the record (thread.js): nothing parsed here.
    return this.#thread.save(this.#emit);
  }

  /** A task's id: stable across retries and restores (an idempotency key). */
  #taskId(task) {
    return this.#runId ? `${this.#runId}:${task.id}` : task.id;
  }

  /**
   * Wait for every task of the step, or for an abort: then for its subgraph tasks only (#waited),
   * whose child stops at a step, which the task keeps (subgraph.js's error, #fail): a resume goes on
   * inside the child instead of running its steps again.
   */
  #settle(pending) {
    const all = pending.length === 1 ? pending[0] : Promise.all(pending);
    if (this.#aborted) return Promise.resolve(this.#children);
    return new Promise((resolve, reject) => {
      this.#wake = () => resolve(this.#children);
      all.then(resolve, reject);
    }).finally(() => { this.#wake = this.#children = null; });
  }

  /** Run one task; returns a promise only when the work is asynchronous. */
  #start(task) {
    const isRoute = task.kind === 'route';
    const fn = isRoute ? this.#graph.routers.get(task.router) : this.#graph.handlers.get(task.handler);
    const started = this.#emit ? now() : 0;
    if (this.#emit && !isRoute) this.#emit({ type: 'node_start', node: task.node, taskId: this.#taskId(task) });
    const policy = isRoute ? undefined : this.#graph.policies.get(task.node);
    if (policy) return this.#waited(fn, this.#withPolicy(task, started, fn, policy));
    let value;
    try {
      if (isRoute) value = inNode(null, fn, this.#mirror, this.#engine);
      else {
        const ctx = this.#context(task, 1, this);
        value = inNode(ctx, fn, this.#mirror, this.#engine);
      }
    } catch (e) {
      this.#fail(task, e, started);
      return null;
    }
    if (value !== null && typeof value === 'object' && typeof value.then === 'function') {
      return this.#waited(fn, value.then((v) => this.#submit(task, v, started), (e) => this.#fail(task, e, started)));
    }
    this.#submit(task, value, started);
    return null;
  }

  /** `run`, a task's: a subgraph node's is one a stop waits for (#settle), to keep where its child stopped (#fail). */
  #waited(fn, run) {
    if (fn.child) this.#children = Promise.all([this.#children, run.catch(() => {})]);
    return run;
  }

  /**
   * The step's signal (made on first use): the run's abort, or a task of the step
   * failing for good. A node's context asks for it when the node reads context.signal.
   */
  stepSignal() {
    if (!this.#step) {
      // (A stream's stop aborts it too: as it is made, or when the consumer leaves, drive's onStop.)
      this.#step = new AbortController();
      if (this.#stepFailed || this.#stop?.reason !== undefined) this.#step.abort(this.#stepFailed || this.#stop.reason);
      this.#stepSignal = this.#signal ? anySignal([this.#signal, this.#step.signal]) : this.#step.signal;
    }
    return this.#stepSignal;
  }

  /** A node's third argument (context.js). */
  #context(task, attempt, signal) {
    return nodeContext(task, attempt, signal, this.#taskId(task), this.#resumeInput, this.#shared);
  }

  /** A node with a retry and/or timeout policy (node-policy.js): tries, waits, gives up. */
  async #withPolicy(task, started, fn, policy) {
    let value;
    try {
      value = await withPolicy(policy, task.node, {
        call: (attempt, signal) => inNode(this.#context(task, attempt, signal), fn, this.#mirror, this.#engine),
        stepSignal: () => this.stepSignal(),
        // (No try after the run stopped, nor after a sibling of the step failed: a subgraph's child keeps where it stopped, run.js #fail.)
        stopped: () => this.#aborted || !this.#open || this.#stepFailed,
        child: fn.child,
        onRetry: (attempt, error, delayMs) => this.#emit?.({ type: 'node_retry', node: task.node, taskId: this.#taskId(task), attempt, error, delayMs }),
      });
    } catch (e) {
      this.#fail(task, e, started);
      return;
    }
    this.#submit(task, value, started);
  }

  #submit(task, value, started) {
    if (!this.#open) return;
    if (isCommand(value) && task.kind !== 'route') {
      try {
        value = this.#fromCommand(value, task);
      } catch (e) {
        this.#fail(task, e, started);
        return;
      }
    }
    const hostReducers = this.#graph.hostReducers;
    if (hostReducers && task.kind !== 'route' && writesHostPath(hostReducers, value)) {
      // Parallel writes fold in branch order once every task is done (a listener hears of this one's end now).
      if (this.#stepSize > 1) { this.#ended(task, started); (this.#held ??= []).push({ task, value, started }); return; }
      try { [value] = foldWrites(hostReducers, this.#foldBase ?? this.#mirror, [{ node: task.node, value }]); } catch (e) { this.#fail(task, e, started); return; }
    }
    this.#submitFolded(task, value, started);
  }

  /** A node's Command as the result the core reads. */
  #fromCommand(command, task) {
    if (command.graph !== Command.PARENT) return commandResult(command, task.node);
    // This run ends here; the graph running it as a subgraph routes.
    this.#handoff = { goto: command.goto, update: command.update };
    return { shouldEnd: true };
  }

  /**
   * The held results of a parallel step, folded in branch order. If a reducer
   * throws, every held task fails with its error: none of them has its write
   * in the core, so a resume runs them all again and folds afresh.
   */
  #submitHeld() {
    const held = this.#held.sort((a, b) => a.task.index - b.task.index);
    this.#held = null;
    let values;
    try {
      values = foldWrites(this.#graph.hostReducers, this.#foldBase ?? this.#mirror, held.map((h) => ({ node: h.task.node, value: h.value })));
    } catch (e) {
      const culprit = held[e.index];
      this.#fail(culprit.task, e, culprit.started);
      for (const h of held) if (h !== culprit) this.#fail(h.task, e, h.started);
      return;
    }
    held.forEach((h, i) => this.#submitFolded(h.task, values[i], h.started, true));
  }

  /**
   * `ended`: a held result, whose end was told. A result in hand is handed in after an abort too
   * (while the run is open): the stop keeps it, and a resume does not run its node again.
   */
  #submitFolded(task, value, started, ended) {
    if (!this.#open) return;
    let json;
    try {
      json = value === undefined ? '{}' : resultText(value, task.node);
    } catch (e) {
      this.#fail(task, e, started);
      return;
    }
    const { core } = this.#graph;
    naming(task, 'hand the result of', core, 'runSubmit', this.#handle, json ?? 'null');
    if (this.#tap && task.kind !== 'route') this.#tap.result(task.node, this.#taskId(task), json ?? 'null');
    if (task.kind === 'route') this.#emit?.({ type: 'route', node: task.node, target: value });
    else if (!ended) this.#ended(task, started);
  }

  #ended(task, started) {
    this.#emit?.({ type: 'node_end', node: task.node, taskId: this.#taskId(task), durationMs: now() - started });
  }

  #fail(task, error, started) {
    if (!this.#open) return;
    const { core } = this.#graph;
    // Stopped with the run: a subgraph's child keeps where it stopped with the task (error[TASK]), which stays to run.
    if (this.#aborted) return error?.[TASK] && naming(task, 'report the failure of', core, 'runFail', this.#handle, JSON.stringify({ keep: error[TASK] }));
    if (isGraphInterrupt(error) && task.kind !== 'route') return this.#interrupted(task, error, started);
    this.#thrown.set(task.node, error);
    const failure = describeThrown(error);
    // What the task keeps (an answer its interrupt() took: interrupt.js; a failed subgraph's child) stays with it for the resume's re-run.
    // (undefined: none; JSON leaves it out)
    failure.keep = error?.[TASK] ?? task.keep;
    const thrownCode = failure.code;   // the event names what the node threw, even when the core is told ABORTED
    // (A task that fails once the step has failed was cancelled, whatever its error edge: it runs again on the resume.)
    if (task.kind !== 'route' && (this.#stepFailed || !this.#graph.errorEdges.has(task.node))) {
      // The step fails: its other tasks are told (context.signal), and a task
      // that fails after that was cancelled: the first failure is the step's.
      if (this.#stepFailed) failure.code = 'ABORTED';
      else {
        this.#stepFailed = new EdgegraphError('ABORTED', `task '${task.node}' of this step failed: ${failure.message}`, { node: task.node, cause: error });
        this.#step?.abort(this.#stepFailed);
      }
    } else if (failure.code === 'ABORTED') failure.code = 'NODE_FAILED';   // (to the core, ABORTED is a sibling's cancellation, which goes to no error edge)
    naming(task, 'report the failure of', core, 'runFail', this.#handle, JSON.stringify(failure));
    if (this.#emit && task.kind !== 'route') this.#emit({ type: 'node_end', node: task.node, taskId: this.#taskId(task), durationMs: now() - started, error: failure.message, errorCode: thrownCode ?? 'NODE_FAILED' });
  }

  /** The node called interrupt(): the core keeps its interrupts (and keep) instead of a result. */
  #interrupted(task, signal, started) {
    let json;
    try {
      json = resultJSON({ interrupts: signal.interrupts, keep: signal.keep }, task.node);
    } catch (e) {
      return this.#fail(task, new EdgegraphError('INVALID_RESULT', `node '${task.node}' interrupted with a value JSON cannot keep: ${e.message}`, { node: task.node }), started);
    }
    naming(task, 'hand the interrupt of', this.#graph.core, 'runInterruptTask', this.#handle, json);
    this.#emit?.({ type: 'node_end', node: task.node, taskId: this.#taskId(task), durationMs: now() - started, interrupted: true, interrupts: signal.interrupts });
  }
}

/** core[call](handle, task.index, json): a core call about one task, whose error (say, out of memory) names the node. */
function naming(task, what, core, call, handle, json) {
  try {
    core[call](handle, task.index, json);
  } catch (e) {
    throw new EdgegraphError(e.code, `could not ${what} '${task.node}' to the core: ${e.message}`);
  }
}
