// engine.js: GraphEngine, the driver of the sans-I/O core. The core decides
// what runs; this file runs it (node functions, routers, possibly many at
// once), hands results back, and keeps a JS mirror of the state.

import { getCore } from './loader.js';
import { EdgegraphError } from './errors.js';
import { normalizeDefinition } from './definition.js';
import { applyPatch, copyJSON } from './patch.js';
import { EventChannel, now } from './events.js';
import { toMermaid } from './mermaid.js';
import { subgraphHandler } from './subgraph.js';
import { ChatHistoryManager } from './history.js';
import { Checkpointer, checkThreadId } from './checkpointer.js';

const CHECKPOINT_FORMAT = 'edgegraph-checkpoint';

import { CoreObject } from './handle.js';
import { resultJSON } from './result-json.js';

// Options are checked by name: a typo (`maxStep`, `checkpointr`) is an error, not a silent default.
const ENGINE_OPTIONS = ['maxSteps', 'handlers', 'routers', 'checkpointer', 'limits', 'chatHistoryManager', 'maxContextTokens', 'tokenizer'];
const LIMIT_OPTIONS = ['maxResultBytes', 'maxInputBytes', 'maxStateBytes', 'maxMessages'];
const RUN_OPTIONS = ['signal', 'onEvent', 'maxSteps', 'runId', 'threadId'];
const RESUME_OPTIONS = [...RUN_OPTIONS, 'update'];

function checkOptions(options, known, where) {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object') throw new EdgegraphError('INVALID_OPTIONS', `${where} must be an object`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new EdgegraphError('INVALID_OPTIONS', `unknown option '${key}' in ${where}; the known options are ${known.join(', ')}`);
  }
}

/** A task's id: stable across retries and restores (an idempotency key). */
function taskIdOf(live, task) {
  return live.runId ? `${live.runId}:${task.id}` : task.id;
}

/** `{ threadId, checkpointId? }`: whatever the id's type, so a missing id is an error, not a new run. */
function isThreadRef(v) {
  return v !== null && typeof v === 'object' && Object.hasOwn(v, 'threadId') && Object.keys(v).every((k) => k === 'threadId' || k === 'checkpointId');
}

// Unique enough to tell runs apart in task ids (not a secret, not a UUID):
// crypto.randomUUID would load Node's webcrypto on first use, a few ms of cold start.
let runCounter = 0;
function newRunId() {
  return `${Date.now().toString(36)}-${(++runCounter).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function isApproval(v) {
  return v !== null && typeof v === 'object' && (v.decision === 'approve' || v.decision === 'reject' || v.decision === 'edit' || Array.isArray(v.decisions));
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
}

function errorFrom(e, cause) {
  return new EdgegraphError(e.code, e.message, { node: e.node, cause });
}

function describeThrown(e) {
  if (e instanceof Error) {
    const out = { message: e.message || e.name, name: e.name };
    if (typeof e.code === 'string') out.code = e.code;
    return out;
  }
  return { message: String(e) };
}

/** A signal that aborts when any of `signals` does (AbortSignal.any where the runtime has it). */
function anySignal(signals) {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) { controller.abort(s.reason); break; }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/** Resolves after `ms`, or at once when the run is aborted. */
function pause(ms, live) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    live.signal?.addEventListener('abort', done, { once: true });
    function done() { clearTimeout(timer); live.signal?.removeEventListener('abort', done); resolve(); }
  });
}

/**
 * @typedef {{ signal?: AbortSignal, onEvent?: (event: object) => void, maxSteps?: number, runId?: string }} RunOptions
 */

export class GraphEngine extends CoreObject {
  #core;
  #owned;
  #graph;
  #json;
  #handlers;
  #routers;
  #maxSteps;
  #limits;
  #policies;
  #partitioned;
  #llmConfig;
  // Chat history (seed API): a view of a run's state.messages, kept in sync
  // incrementally; messages added with addMessage() wait for the next run.
  #historyOptions;
  #history = null;
  #synced = { messages: null, length: 0, epoch: -1 };
  #messagesEpoch = 0;
  #pending = [];
  #currentState = null;
  #checkpointer = null;

  /**
   * @param {object} definition nodes, edges, entryPoint (see index.d.ts)
   * @param {{ maxSteps?: number, handlers?: Record<string, Function>, routers?: Record<string, Function> }} [options]
   * @param {object} [llmConfig] kept private to the engine: never written to state, checkpoints or events
   */
  constructor(definition, options = {}, llmConfig = undefined) {
    checkOptions(options, ENGINE_OPTIONS, 'the GraphEngine options');
    checkOptions(options?.limits, LIMIT_OPTIONS, 'options.limits');
    const core = getCore();
    const { json, handlers, routers, subgraphs } = normalizeDefinition(definition, options ?? {});
    options ??= {};
    const graph = core.graphNew(JSON.stringify(json));
    // What dispose() frees, held apart from `this` (the leak backstop must not keep the engine alive).
    const owned = { history: null };
    super('GraphEngine', () => { core.graphFree(graph); owned.history?.dispose(); });
    this.#core = core;
    this.#graph = graph;
    this.#owned = owned;
    for (const [name, spec] of subgraphs) {
      const child = spec.graph instanceof GraphEngine ? spec.graph : new GraphEngine(spec.graph, spec.options ?? {}, llmConfig);
      handlers.set(name, subgraphHandler(name, spec, child));
    }
    this.#json = json;
    this.#handlers = handlers;
    this.#routers = routers;
    this.#partitioned = json.state === 'partitioned' || json.state?.shape === 'partitioned';
    // Retry and timeout policies, checked by the core when it parses the graph.
    this.#policies = new Map();
    for (const [name, spec] of Object.entries(json.nodes)) {
      if (spec.retry || spec.timeoutMs) this.#policies.set(name, { retry: spec.retry, timeoutMs: spec.timeoutMs });
    }
    this.#maxSteps = options.maxSteps;
    this.#limits = {};
    for (const k of LIMIT_OPTIONS) if (options.limits?.[k] !== undefined) this.#limits[k] = options.limits[k];
    this.#llmConfig = llmConfig;
    if (options.checkpointer) this.#checkpointer = options.checkpointer instanceof Checkpointer ? options.checkpointer : new Checkpointer(options.checkpointer);
    this.#historyOptions = {
      manager: options.chatHistoryManager,
      maxContextTokens: options.maxContextTokens ?? llmConfig?.maxContextTokens,
      tokenizer: options.tokenizer,
    };
  }

  /** A hash of the definition; checkpoints carry it. */
  get graphHash() { this.#alive(); return this.#core.graphHash(this.#graph); }

  /** The LLM configuration given to the constructor (for agent nodes). */
  get llmConfig() { return this.#llmConfig; }

  /** The graph as a Mermaid flowchart. */
  toMermaid() { return toMermaid(this.#json); }

  /** The JSON definition the core validated (functions replaced by names). */
  get definition() { return structuredClone(this.#json); }

  /**
   * Add a message to the chat history (seed API). It is appended to the
   * messages of the next execute(), so it lives in that run's state and
   * checkpoints; until then getMessagesForLLM() includes it.
   */
  addMessage(message) {
    this.#usable();
    // Validate now (INVALID_MESSAGE); a system message becomes the system prompt.
    if (message?.role === 'system') {
      if (typeof message.content !== 'string' || !message.content) throw new EdgegraphError('INVALID_MESSAGE', 'a system message needs text content');
    } else {
      this.#historyManager().addMessage(message);
    }
    this.#pending.push(structuredClone(message));
    this.#synced.messages = null;
  }

  /**
   * The history trimmed to the token budget, ready for an LLM: the system
   * prompt, the last user message, the newest messages that fit, tool calls
   * with their results. Of `state.messages` if given, else of the run in
   * progress (or the last one), else of the messages added with addMessage().
   */
  getMessagesForLLM(state = this.#currentState) {
    this.#usable();
    const history = this.#historyManager();
    const messages = state ? state.messages ?? [] : this.#pending;
    const s = this.#synced;
    if (s.messages === messages && s.epoch === this.#messagesEpoch && messages.length >= s.length) {
      for (let i = s.length; i < messages.length; i++) history.addMessage(messages[i]);
    } else {
      history.importHistory(messages);
    }
    this.#synced = { messages, length: messages.length, epoch: this.#messagesEpoch };
    return history.getTrimmedHistory();
  }

  #historyManager() {
    if (!this.#history) {
      const o = this.#historyOptions;
      this.#history = o.manager ?? (this.#owned.history = new ChatHistoryManager({ maxContextTokens: o.maxContextTokens ?? 8192, tokenizer: o.tokenizer }));
    }
    return this.#history;
  }

  /**
   * Run the graph from an initial state.
   * @param {object} [initialState]
   * @param {RunOptions} [options]
   */
  async execute(initialState = {}, options = {}) {
    this.#alive();
    checkOptions(options, RUN_OPTIONS, 'the execute() options');
    options ??= {};
    if (this.#pending.length) {
      initialState = { ...initialState, messages: [...(initialState?.messages ?? []), ...this.#pending] };
      this.#pending = [];
    }
    const input = JSON.stringify(initialState ?? {});
    const thread = this.#thread(options.threadId, null, 0);
    const runId = options.runId ?? newRunId();
    const run = this.#core.runNew(this.#graph, input ?? 'null', this.#runOptions({ ...options, runId }));
    // The mirror starts as a copy of the input; the first patch fills in
    // defaults and bookkeeping.
    return this.#drive(run, JSON.parse(input), { ...options, runId }, undefined, thread);
  }

  /**
   * Continue a PAUSED, INTERRUPTED or failed run. `saved` is a result's
   * state (the seed API) or its checkpoint (string or parsed object).
   * `userInput`, if given, is appended to `messages` exactly once.
   * @param {object | string} saved
   * @param {object} [userInput]
   * @param {RunOptions} [options]
   */
  async resume(saved, userInput = undefined, options = {}) {
    this.#alive();
    checkOptions(options, RESUME_OPTIONS, 'the resume() options');
    options ??= {};
    const core = this.#core;
    let run, mirror, thread = null, runId = options.runId;
    const opts = this.#runOptions(options);
    if (isThreadRef(saved)) {
      // From a thread's checkpoints: the latest, or any earlier one (time travel; the run forks from it).
      if (typeof saved.threadId !== 'string' || !saved.threadId) {
        throw new EdgegraphError('INVALID_INPUT', `resume({ threadId }) needs threadId, a non-empty string (got ${saved.threadId === undefined ? 'undefined' : JSON.stringify(saved.threadId)})`);
      }
      if (!this.#checkpointer) throw new EdgegraphError('INVALID_OPTIONS', 'resume({ threadId }) needs a checkpointer in the engine options');
      checkThreadId(saved.threadId);
      const loaded = await this.#checkpointer.load(saved.threadId, saved.checkpointId);
      if (!loaded) {
        if (!(await this.#checkpointer.exists(saved.threadId))) throw new EdgegraphError('THREAD_NOT_FOUND', `thread '${saved.threadId}' has no checkpoint in this store`);
        throw new EdgegraphError('INVALID_CHECKPOINT', `thread '${saved.threadId}' has no readable checkpoint${saved.checkpointId !== undefined ? ` ${saved.checkpointId}` : ''}`);
      }
      run = core.runRestore(this.#graph, loaded.checkpoint, opts);
      mirror = loaded.state;
      thread = this.#thread(saved.threadId, loaded.id, loaded.depth);
      thread.meta = loaded.meta;
      runId ??= JSON.parse(loaded.checkpoint).runId;
    } else if (typeof saved === 'string' || saved?.format === CHECKPOINT_FORMAT) {
      const text = typeof saved === 'string' ? saved : JSON.stringify(saved);
      run = core.runRestore(this.#graph, text, opts);
      mirror = JSON.parse(core.runState(run));
      runId ??= JSON.parse(text).runId;
      thread = this.#thread(options.threadId, null, 0);
    } else {
      if (saved === undefined) {
        throw new EdgegraphError('NOT_RESUMABLE', 'resume() got no checkpoint (result.checkpoint is undefined when a run finished): there is nothing to resume');
      }
      if (saved === null || typeof saved !== 'object') {
        throw new EdgegraphError('INVALID_INPUT', 'resume() takes a saved state object or a checkpoint');
      }
      const text = JSON.stringify(saved);
      run = core.runFromState(this.#graph, text, opts);
      mirror = JSON.parse(text);
      thread = this.#thread(options.threadId, null, 0);
    }
    let input = userInput === undefined || userInput === null ? undefined : userInput;
    // An approval decision (approve(), reject(), editArguments()) is not a
    // chat message: it goes into state.approval, where the agent node reads it.
    let update = options.update;
    if (isApproval(input)) { update = { ...update, approval: input }; input = undefined; }
    try {
      if (update !== undefined) core.runApply(run, JSON.stringify(update));
      core.runResume(run, input === undefined ? undefined : JSON.stringify(input));
    } catch (e) {
      core.runFree(run);
      throw e;
    }
    return this.#drive(run, mirror, { ...options, runId }, input, thread);
  }

  /**
   * A thread's latest state (or that of an earlier checkpoint):
   * { state, status, checkpointId, parentId, createdAt }, or undefined.
   */
  async getState(threadId, checkpointId = undefined) {
    this.#alive();
    if (!this.#checkpointer) throw new EdgegraphError('INVALID_OPTIONS', 'getState needs a checkpointer in the engine options');
    checkThreadId(threadId);
    const loaded = await this.#checkpointer.load(threadId, checkpointId);
    return loaded && { state: loaded.state, status: loaded.status, checkpointId: loaded.id, parentId: loaded.parent, createdAt: loaded.createdAt };
  }

  /** The checkpoints of a thread, newest first (resume({ threadId, checkpointId }) forks from any). */
  async getStateHistory(threadId) {
    this.#alive();
    if (!this.#checkpointer) throw new EdgegraphError('INVALID_OPTIONS', 'getStateHistory needs a checkpointer in the engine options');
    checkThreadId(threadId);
    return (await this.#checkpointer.history(threadId)).map((r) => ({ checkpointId: r.id, parentId: r.parent, createdAt: r.createdAt, status: r.status, superstep: r.superstep, pendingTasks: r.pendingTasks, routing: r.routing }));
  }

  #thread(threadId, parentId, depth) {
    if (threadId === undefined || threadId === null) return null;
    if (!this.#checkpointer) throw new EdgegraphError('INVALID_OPTIONS', 'a threadId needs a checkpointer in the engine options');
    checkThreadId(threadId);
    return { id: threadId, parentId, depth, ops: [], queue: Promise.resolve(), error: null, meta: undefined };
  }

  /** Queue a checkpoint of the run as it is now; writes happen in order. */
  #saveCheckpoint(live, mirror, emit) {
    const t = live.thread;
    // After a failed write the chain would skip that record's patch: write nothing more.
    if (t.error) return t.queue;
    const meta = JSON.parse(this.#core.runCheckpointMeta(live.handle));
    const ops = t.ops;
    t.ops = [];
    const snapshot = t.parentId === null || t.depth + 1 >= this.#checkpointer.snapshotEvery;
    const state = snapshot ? JSON.parse(JSON.stringify(mirror)) : undefined;
    t.depth = snapshot ? 0 : t.depth + 1;
    const depth = t.depth;
    const previousMeta = t.meta;
    t.meta = meta;
    t.queue = t.queue.then(async () => {
      const { id } = await this.#checkpointer.save(t.id, { parent: t.parentId, meta, previousMeta, patch: ops, state: state === undefined ? undefined : () => state, depth });
      t.parentId = id;
      emit?.({ type: 'checkpoint', threadId: t.id, checkpointId: id, status: meta.status });
    }).catch((e) => { t.error ??= e; });
    return t.queue;
  }

  /**
   * The run's events as an async iterator; the last event is `run_end`
   * with the result.
   * @param {object} [initialState]
   * @param {RunOptions} [options]
   */
  stream(initialState = {}, options = {}) {
    this.#alive();
    checkOptions(options, RUN_OPTIONS, 'the stream() options');
    options ??= {};
    return this.#streamOf((onEvent, signal) => this.execute(initialState, { ...options, onEvent, signal }), options);
  }

  /** Like stream(), for resume(). */
  streamResume(saved, userInput = undefined, options = {}) {
    this.#alive();
    checkOptions(options, RESUME_OPTIONS, 'the streamResume() options');
    options ??= {};
    return this.#streamOf((onEvent, signal) => this.resume(saved, userInput, { ...options, onEvent, signal }), options);
  }

  // dispose() and [Symbol.dispose]() come from CoreObject: runs in flight
  // finish first, and the graph (and the engine's own history) is freed when
  // the last of them ends. Every later call is a DISPOSED error.

  // ---- internals ----

  #alive() { this.assertAlive(); }

  /** Calls a node may make while its run is in flight, even after dispose(). */
  #usable() { if (!this.busy) this.assertAlive(); }

  #runOptions(options) {
    const o = { ...this.#limits };
    const max = options.maxSteps ?? this.#maxSteps;
    if (max !== undefined) o.maxSteps = max;
    if (options.runId !== undefined) o.runId = options.runId;
    return JSON.stringify(o);
  }

  /**
   * Events as an async iterator. Leaving the loop (break, return, a throw, a
   * cancelled SSE stream) aborts the run: nothing after it runs unobserved.
   */
  #streamOf(start, options) {
    const stop = new AbortController();
    const channel = new EventChannel({ onReturn: () => stop.abort(new EdgegraphError('ABORTED', 'the event stream was closed by its consumer')) });
    const user = options.onEvent;
    const signal = options.signal ? anySignal([options.signal, stop.signal]) : stop.signal;
    start((event) => { user?.(event); channel.push(event); }, signal).then(() => channel.close(), (e) => channel.close(e));
    return channel;
  }

  async #drive(handle, mirror, options, resumeInput, thread = null) {
    const core = this.#core;
    const emit = options.onEvent;
    const signal = options.signal;
    // `live` guards against results that arrive after the run was freed
    // (a handler still running when the signal aborted the run).
    // resumeInput goes to the first step's nodes (a subgraph node resumes
    // its child with it).
    const live = { handle, open: true, aborted: false, wake: null, signal, resumeInput, thread, runId: options.runId };
    // dispose() during the run frees the graph only when the run has closed.
    const release = this.retain();
    // Nodes emit their own events (LLM tokens, tool calls) through context.emit.
    live.emitFor = (task) => (emit ? (event) => emit({ ...event, node: task.node, taskId: taskIdOf(live, task) }) : () => {});
    const onAbort = () => {
      live.aborted = true;
      if (live.open) core.runInterrupt(handle);
      live.wake?.();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    emit?.({ type: 'run_start' });
    this.#currentState = mirror;
    try {
      for (;;) {
        const out = core.runNext(handle);
        if (out.patch.length) {
          applyPatch(mirror, out.patch);
          // Anything but an append to messages makes the history re-sync.
          for (const op of out.patch) if (op[1][0] === 'messages' && (op[0] !== 'push' || op[1].length !== 1)) this.#messagesEpoch++;
          // The caller may keep and change what an event carries: a copy.
          emit?.({ type: 'state_update', patch: copyJSON(out.patch) });
        }
        // The read-only input partition is frozen for nodes, as in seed 002.
        if (this.#partitioned) deepFreeze(mirror.input);
        if (thread) {
          // A checkpoint at every step boundary, written before the step runs.
          for (const op of out.patch) thread.ops.push(op);
          await this.#saveCheckpoint(live, mirror, emit);
          if (thread.error) return this.#writeFailed(handle, mirror, emit, thread);
        }
        if (out.status !== 'RUNNING') return this.#result(handle, out, mirror, emit, live);
        let pending = null;
        // In a parallel step, each finished task is checkpointed too, so a
        // crash re-runs only the tasks that had not finished.
        const perTask = thread && out.tasks.length > 1;
        for (const task of out.tasks) {
          let p = this.#start(live, task, mirror, emit);
          if (perTask) p = (p ?? Promise.resolve()).then(() => { if (live.open && !live.aborted) return this.#saveCheckpoint(live, mirror, emit); });
          if (p) (pending ??= []).push(p);
        }
        if (out.tasks.length && out.tasks[0].kind === 'node') live.resumeInput = undefined;
        if (pending) await this.#settle(pending, live);
      }
    } finally {
      live.open = false;
      signal?.removeEventListener('abort', onAbort);
      core.runFree(handle);
      release();
    }
  }

  /** Wait for every task of the step, or for an abort. */
  #settle(pending, live) {
    const all = pending.length === 1 ? pending[0] : Promise.all(pending);
    if (live.aborted) return Promise.resolve();
    return new Promise((resolve, reject) => {
      live.wake = resolve;
      all.then(resolve, reject);
    }).finally(() => { live.wake = null; });
  }

  /** Run one task; returns a promise only when the work is asynchronous. */
  #start(live, task, mirror, emit) {
    const isRoute = task.kind === 'route';
    const fn = isRoute ? this.#routers.get(task.router) : this.#handlers.get(task.handler);
    const started = emit ? now() : 0;
    if (emit && !isRoute) emit({ type: 'node_start', node: task.node, taskId: taskIdOf(live, task) });
    const policy = isRoute ? undefined : this.#policies.get(task.node);
    if (policy) return this.#withPolicy(live, task, mirror, emit, started, fn, policy);
    let value;
    try {
      value = isRoute ? fn(mirror, this) : fn(mirror, this, this.#context(live, task, 1, live.signal));
    } catch (e) {
      this.#fail(live, task, e, emit, started);
      return null;
    }
    if (value !== null && typeof value === 'object' && typeof value.then === 'function') {
      return value.then((v) => this.#submit(live, task, v, emit, started), (e) => this.#fail(live, task, e, emit, started));
    }
    this.#submit(live, task, value, emit, started);
    return null;
  }

  #context(live, task, attempt, signal) {
    const ctx = { taskId: taskIdOf(live, task), node: task.node, attempt, emit: live.emitFor(task) };
    if (task.arg !== undefined) ctx.arg = task.arg;
    if (signal) ctx.signal = signal;
    if (live.resumeInput !== undefined) ctx.resumeInput = live.resumeInput;
    return ctx;
  }

  /** A node with a retry and/or timeout policy: tries, waits, gives up. */
  async #withPolicy(live, task, mirror, emit, started, fn, policy) {
    const { retry = {}, timeoutMs } = policy;
    const attempts = retry.attempts ?? 1;
    let delay = retry.backoffMs ?? 100;
    for (let attempt = 1; ; attempt++) {
      // Each try gets its own signal: aborted by the run's signal or the timeout.
      const controller = new AbortController();
      const onRunAbort = () => controller.abort(live.signal.reason);
      live.signal?.addEventListener('abort', onRunAbort, { once: true });
      let timer;
      try {
        const work = Promise.resolve().then(() => fn(mirror, this, this.#context(live, task, attempt, controller.signal)));
        const value = timeoutMs === undefined ? await work : await Promise.race([work, new Promise((_, reject) => {
          timer = setTimeout(() => {
            const e = new EdgegraphError('NODE_TIMEOUT', `timed out after ${timeoutMs} ms`, { node: task.node });
            controller.abort(e);
            reject(e);
          }, timeoutMs);
        })]);
        this.#submit(live, task, value, emit, started);
        return;
      } catch (e) {
        if (attempt >= attempts || live.aborted || !live.open) { this.#fail(live, task, e, emit, started); return; }
        const wait = retry.jitter === false ? delay : delay * (0.5 + Math.random() / 2);
        emit?.({ type: 'node_retry', node: task.node, taskId: taskIdOf(live, task), attempt, error: describeThrown(e).message, delayMs: wait });
        delay = Math.min(delay * (retry.factor ?? 2), retry.maxBackoffMs ?? Infinity);
        clearTimeout(timer);
        await pause(wait, live);
      } finally {
        clearTimeout(timer);
        live.signal?.removeEventListener('abort', onRunAbort);
      }
    }
  }

  #submit(live, task, value, emit, started) {
    if (!live.open || live.aborted) return;
    let json;
    try {
      json = value === undefined ? '{}' : resultJSON(value, task.node);
    } catch (e) {
      this.#fail(live, task, e, emit, started);
      return;
    }
    const code = this.#core.runSubmit(live.handle, task.index, json ?? 'null');
    if (code) throw new EdgegraphError(this.#core.codeName(code), `could not hand the result of '${task.node}' to the core`);
    if (emit) {
      if (task.kind === 'route') emit({ type: 'route', node: task.node, target: value });
      else emit({ type: 'node_end', node: task.node, taskId: taskIdOf(live, task), durationMs: now() - started });
    }
  }

  #fail(live, task, error, emit, started) {
    if (!live.open || live.aborted) return;
    (live.thrown ??= new Map()).set(task.node, error);
    const code = this.#core.runFail(live.handle, task.index, JSON.stringify(describeThrown(error)));
    if (code) throw new EdgegraphError(this.#core.codeName(code), `could not report the failure of '${task.node}' to the core`);
    if (emit && task.kind !== 'route') emit({ type: 'node_end', node: task.node, taskId: taskIdOf(live, task), durationMs: now() - started, error: describeThrown(error).message });
  }

  /**
   * The store failed a write: the run stops before anything else happens and
   * resolves with its state, like any failed run. The thread's last written
   * checkpoint stays its readable latest; `checkpoint` holds where this run got to.
   */
  #writeFailed(handle, mirror, emit, thread) {
    const cause = thread.error;
    const error = new EdgegraphError('CHECKPOINT_WRITE_FAILED', `could not write a checkpoint of thread '${thread.id}': ${cause?.message ?? String(cause)}; the run stopped, and the thread's last written checkpoint is still readable`, { cause });
    const result = { status: 'ERROR', state: mirror, error, checkpoint: this.#core.runCheckpoint(handle) };
    Object.defineProperty(result, 'finalState', { value: mirror, enumerable: false });
    if (emit) {
      emit({ type: 'error', error: { code: error.code, message: error.message } });
      emit({ type: 'run_end', status: 'ERROR', result });
    }
    return result;
  }

  #result(handle, out, mirror, emit, live) {
    const result = { status: out.status, state: mirror };
    Object.defineProperty(result, 'finalState', { value: mirror, enumerable: false });
    if (out.error) result.error = errorFrom(out.error, live.thrown?.get(out.error.node));
    if (live.aborted && out.status === 'INTERRUPTED') result.error = new EdgegraphError('ABORTED', 'the run was interrupted by its AbortSignal');
    // Anything that can be continued gets a checkpoint, to store or send.
    if (out.status !== 'FINISHED') result.checkpoint = this.#core.runCheckpoint(handle);
    if (emit) {
      if (out.status === 'PAUSED') emit({ type: 'pause', pendingAskUser: mirror.pendingAskUser ?? null });
      if (out.error) emit({ type: 'error', error: out.error });
      emit({ type: 'run_end', status: out.status, result });
    }
    return result;
  }
}
