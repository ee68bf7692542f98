// engine.js: GraphEngine, the public API over the sans-I/O core. A run is
// driven by run.js; checkpointed threads are thread.js; the chat-history view
// is history-view.js. This file builds the graph, starts and resumes runs,
// and reads threads back.

import { getCore } from './loader.js';
import { EdgegraphError } from './errors.js';
import { normalizeDefinition } from './definition.js';
import { foldEdit } from './host-reducers.js';
import { streamOf, STREAM_OPTIONS, RESUMED } from './events.js';
import { toMermaid } from './mermaid.js';
import { subgraphHandler } from './subgraph.js';
import { Checkpointer } from './checkpointer.js';
import { holding, loadThread, latestOf, stateView, historyView, checkThreadCall } from './thread-view.js';
import { CoreObject, FREED_WHEN_COLLECTED } from './handle.js';
import { isCheckpoint, checkSavedState, resumeWith } from './resume.js';
import { Run } from './run.js';
import { HistoryView } from './history-view.js';
import { isThreadRef, openThread } from './thread.js';
import { EMPTY, SHAPE } from './objects.js';
import { migrateState } from './migrate.js';
import { readStep } from './step.js';
import { resultText } from './result-json.js';
import { ENGINE_OPTIONS, LIMIT_OPTIONS, RUN_OPTIONS, RESUME_OPTIONS, checkOptions, coreRunOptions, newRunId } from './options.js';
import { traceRun } from './trace-run.js';

export class GraphEngine extends CoreObject {
  #core;
  #graph;
  /** The definition's JSON text (what the core validated), parsed on first use by toMermaid and definition. */
  #text;
  #json = null;
  #maxSteps;
  #limits;
  #llmConfig;
  #checkpointer = null;
  #history;
  #breakpoints;
  /** What a Run needs of the graph: core, handlers, routers, policies, partitioned, history. */
  #parts;
  /** The state of the run in progress, or of the last one (getMessagesForLLM's default). */
  #currentState = null;
  /** The definition's version and migrate(state, fromVersion): checkpoints of other versions are migrated on resume. */
  #migration;
  /** { tracer, content } when runs make OpenTelemetry spans (tracing.js). */
  #tracing = null;

  /**
   * @param {object} definition nodes, edges, entryPoint (see index.d.ts)
   * @param {object} [options] see ENGINE_OPTIONS in options.js
   * @param {object} [llmConfig] kept private to the engine: never written to state, checkpoints or events
   */
  constructor(definition, options = {}, llmConfig = undefined) {
    if (definition === SHAPE) { super('GraphEngine', null); return; }
    checkOptions(options, ENGINE_OPTIONS, 'the GraphEngine options');
    checkOptions(options?.limits, LIMIT_OPTIONS, 'options.limits');
    // Checked before the core graph is made: a throw after it would leave the graph to the leak backstop.
    if (options?.tracer !== undefined && typeof options.tracer?.startSpan !== 'function') throw new EdgegraphError('INVALID_OPTIONS', 'options.tracer must be an OpenTelemetry Tracer (with startSpan)');
    const core = getCore();
    // (options.retry, the default of every node without its own, is applied there too.)
    const { text, json, handlers, routers, subgraphs, hostReducers, policies, errorEdges, nodeTable } = normalizeDefinition(definition, options ?? {});
    options ??= {};
    const graph = core.graphNew(text);
    // What dispose() frees, held apart from `this` (the leak backstop must not
    // keep the engine alive): the graph, the engine's own history, and the
    // subgraph engines it built from definitions (one given as a GraphEngine is the caller's).
    const owned = { history: null, children: [] };
    super('GraphEngine', () => {
      core.graphFree(graph);
      owned.history?.dispose();
      for (const child of owned.children) child.dispose();
      owned.history = owned.children = null;   // the leak backstop's record outlives this (handle.js)
    }, options?.[FREED_WHEN_COLLECTED] === true);
    this.#core = core;
    this.#graph = graph;
    try {
      for (const [name, spec] of subgraphs) {
        let child = spec.graph;
        if (!(child instanceof GraphEngine)) owned.children.push(child = new GraphEngine(child, spec.options ?? {}, llmConfig));
        handlers.set(name, subgraphHandler(name, spec, child));
      }
    } catch (e) {
      this.dispose();   // the caller never gets this engine: free what it holds now
      throw e;
    }
    this.#text = text;
    this.#migration = { version: json.version ?? 0, migrate: definition.migrate };
    this.#maxSteps = options.maxSteps;
    this.#breakpoints = { interruptBefore: options.interruptBefore, interruptAfter: options.interruptAfter };
    this.#limits = {};
    for (const k of LIMIT_OPTIONS) if (options.limits?.[k] !== undefined) this.#limits[k] = options.limits[k];
    this.#llmConfig = llmConfig;
    if (options.checkpointer) this.#checkpointer = options.checkpointer instanceof Checkpointer ? options.checkpointer : new Checkpointer(options.checkpointer);
    this.#history = new HistoryView({
      manager: options.chatHistoryManager,
      maxContextTokens: options.maxContextTokens ?? llmConfig?.maxContextTokens,
      tokenizer: options.tokenizer,
    }, owned);
    const partitioned = json.state === 'partitioned' || json.state?.shape === 'partitioned';
    // nodeTable: the core's node numbering, read by the first run (step.js) unless the definition had it.
    this.#parts = { core, handlers, routers, policies, errorEdges, partitioned, history: this.#history, hostReducers, nodeTable, end: json.end ?? '__end__' };
    this.#tracing = options.tracer ? { tracer: options.tracer, content: options.traceContent === true } : null;
  }

  /** One kept for good, for its shape (objects.js's SHAPE). */
  static #shape = new GraphEngine(SHAPE);

  /** A hash of the definition; checkpoints carry it. */
  get graphHash() { this.#alive(); return this.#core.graphHash(this.#graph); }

  /** The LLM configuration given to the constructor (for agent nodes). */
  get llmConfig() { this.#usable(); return this.#llmConfig; }

  /** The graph as a Mermaid flowchart. */
  toMermaid() { this.#usable(); return toMermaid(this.#json ??= JSON.parse(this.#text)); }

  /** The JSON definition the core validated (functions replaced by names). */
  get definition() { this.#usable(); return JSON.parse(this.#text); }

  /**
   * Add a message to the chat history (seed API). It is appended to the
   * messages of the next execute(), so it lives in that run's state and
   * checkpoints; until then getMessagesForLLM() includes it.
   */
  addMessage(message) {
    this.#usable();
    this.#history.add(message);
  }

  /**
   * The history trimmed to the token budget, ready for an LLM: the system
   * prompt, the last user message, the newest messages that fit, tool calls
   * with their results. Of `state.messages` if given, else of the run in
   * progress (or the last one), else of the messages added with addMessage().
   */
  getMessagesForLLM(state = this.#currentState) {
    this.#usable();
    return this.#history.trimmed(state ? state.messages ?? [] : null);
  }

  /**
   * Run the graph from an initial state.
   * @param {object} [initialState]
   * @param {object} [options] see RUN_OPTIONS in options.js
   */
  async execute(initialState = {}, options = {}) {
    this.#alive();
    checkOptions(options, RUN_OPTIONS, 'the execute() options');
    options ??= {};
    const queued = this.#history.takePending();
    if (queued.length) initialState = { ...initialState, messages: [...(initialState?.messages ?? []), ...queued] };
    const input = JSON.stringify(initialState ?? {});
    const runId = options.runId ?? newRunId();
    const thread = openThread(this.#checkpointer, options.threadId);
    return holding(this.#checkpointer, thread?.id, async () => {
      // A thread with state is a conversation: the new input continues it.
      const prior = thread ? await latestOf(this.#checkpointer, thread.id, options.recover) : undefined;
      const run = { ...EMPTY, ...options, runId };
      if (prior) return this.#continueThread(prior, input, run);
      const handle = this.#core.runNew(this.#graph, input, this.#runOptions(run));
      // The mirror starts as a copy of the input; the first patch fills in
      // defaults and bookkeeping.
      return this.#drive(handle, JSON.parse(input), run, undefined, thread);
    });
  }

  /**
   * Continue a PAUSED, INTERRUPTED or failed run. `saved` is a result's
   * state (the seed API), its checkpoint (string or parsed object), or a
   * thread ({ threadId, checkpointId? }). `userInput`, if given, is appended
   * to `messages` exactly once; an approval decision goes to state.approval.
   */
  resume(saved, userInput = undefined, options = {}) {
    return holding(this.#checkpointer, isThreadRef(saved) ? saved.threadId : options?.threadId, () => this.#resume(saved, userInput, options));
  }

  async #resume(saved, userInput, options) {
    this.#alive();
    checkOptions(options, RESUME_OPTIONS, 'the resume() options');
    options ??= {};
    const core = this.#core;
    let handle, mirror, thread = null, runId = options.runId, restored;
    const opts = this.#runOptions(options);
    if (isThreadRef(saved)) {
      // From a thread's checkpoints: the latest, or any earlier one (time travel; the run forks from it).
      const loaded = await this.#loadThread(saved, options.recover);
      handle = core.runRestore(this.#graph, loaded.checkpoint, opts);
      mirror = loaded.state;
      thread = openThread(this.#checkpointer, saved.threadId, loaded.id, loaded.depth, loaded.meta, loaded.next);
      restored = { meta: loaded.meta, where: `thread '${saved.threadId}'` };
    } else if (isCheckpoint(saved)) {
      const text = typeof saved === 'string' ? saved : JSON.stringify(saved);
      handle = core.runRestore(this.#graph, text, opts);
      mirror = JSON.parse(core.runState(handle));
      restored = { meta: JSON.parse(text), where: 'the checkpoint' };
      thread = openThread(this.#checkpointer, options.threadId);
    } else {
      checkSavedState(saved);
      const text = JSON.stringify(saved);
      handle = core.runFromState(this.#graph, text, opts);
      mirror = JSON.parse(text);
      thread = openThread(this.#checkpointer, options.threadId);
    }
    let input;
    try {
      if (restored) {
        runId ??= restored.meta.runId;
        const from = restored.meta.graphVersion ?? 0;
        mirror = await migrateState({ core, handle, thread, where: restored.where, ...this.#migration }, from, mirror);
        this.#alive();   // dispose() while migrate() ran freed the graph
      }
      input = resumeWith(core, handle, mirror, this.#parts.hostReducers, userInput, options.update);
    } catch (e) {
      core.runFree(handle);
      throw e;
    }
    return this.#drive(handle, mirror, { ...EMPTY, ...options, runId, [RESUMED]: true }, input, thread);
  }

  /**
   * Write `values` into a stopped run's state through the reducers, as a node
   * would; with `asNode`, the run then goes on as if that node had just run
   * (its edge decides what runs next). `saved` is a thread ({ threadId,
   * checkpointId? }: a new checkpoint is written to it) or a checkpoint.
   * Returns { state, checkpoint, checkpointId? } (checkpointId for a thread).
   * With `restartTasks`, the step's unfinished tasks run again from the top:
   * their interrupts, answers and kept data (a paused subgraph's child) are dropped.
   */
  updateState(saved, values, asNode = undefined, options = undefined) {
    return holding(this.#checkpointer, isThreadRef(saved) ? saved.threadId : undefined, () => this.#updateState(saved, values, asNode, options));
  }

  async #updateState(saved, values, asNode, options) {
    this.#alive();
    checkOptions(options, ['restartTasks'], 'the updateState() options');
    const core = this.#core;
    let loaded = null, text;
    if (isThreadRef(saved)) ({ checkpoint: text } = loaded = await this.#loadThread(saved));
    else if (isCheckpoint(saved)) text = typeof saved === 'string' ? saved : JSON.stringify(saved);
    else throw new EdgegraphError('INVALID_INPUT', 'updateState() takes a thread ({ threadId }) or a checkpoint');
    if (asNode !== undefined && typeof asNode !== 'string') throw new EdgegraphError('INVALID_INPUT', 'updateState(): asNode must be a node name');
    const handle = core.runRestore(this.#graph, text, this.#runOptions({}));
    const release = this.retain();   // dispose() meanwhile frees the graph after the run
    try {
      const thread = loaded && openThread(this.#checkpointer, saved.threadId, loaded.id, loaded.depth, loaded.meta, loaded.next);
      thread?.bind(core, handle);
      const mirror = loaded ? loaded.state : JSON.parse(core.runState(handle));
      // A record written mid-run (status RUNNING) stops first, without running anything.
      core.runInterrupt(handle);
      // Each step's ops go straight into the mirror (step.js), as a run's do.
      const step = () => readStep(core.runStep(handle), mirror, false, this.#parts.nodeTable ??= core.runGraphNodes(handle), core.statusNames);
      step();
      // Paths with a JS reducer fold here, as for a node's result; the core applies the rest.
      if (values !== undefined && values !== null && this.#parts.hostReducers) values = foldEdit(core, handle, this.#parts.hostReducers, mirror, asNode ?? 'updateState', values);
      if (values !== undefined && values !== null) core.runApply(handle, JSON.stringify(values));
      if (asNode !== undefined) {
        core.runRouteFrom(handle, asNode);
        // Its router answers now, on the state written (LangGraph's): the checkpoint shows where the run goes.
        // (The node table, which step() read, names each node's router.)
        const router = this.#parts.routers.get(this.#parts.nodeTable.find(([name]) => name === asNode)?.[2]);
        if (router) {
          step();
          const to = [await router(mirror, this)].flat();
          core.runGoto(handle, resultText(to.length ? to : this.#parts.end, asNode));
        }
      }
      if (options?.restartTasks) core.runForgetAnswers(handle);
      step();
      const result = { state: mirror, checkpoint: core.runCheckpoint(handle) };
      if (loaded) {
        thread.byUpdate = true;
        await thread.save();
        if (thread.error) throw new EdgegraphError('CHECKPOINT_WRITE_FAILED', `could not write the updated state of thread '${saved.threadId}': ${thread.error?.message ?? thread.error}`, { cause: thread.error });
        result.checkpointId = thread.parentId;
      }
      return result;
    } finally {
      core.runFree(handle);
      release();
    }
  }

  /**
   * A new run on a thread that has state, as LangGraph's invoke on a thread:
   * from the entry point, on the thread's latest state (whatever its status)
   * with `input` written through the reducers (a user message is appended).
   * Its first record follows the thread's latest, as a snapshot.
   */
  async #continueThread(prior, input, options) {
    const core = this.#core;
    let { currentNode, nextNode, status, ...state } = prior.state;
    const handle = core.runFromState(this.#graph, JSON.stringify(state), this.#runOptions(options));
    try {
      // A thread written under another graph version: migrate() first (the next record is a snapshot anyway).
      state = await migrateState({ core, handle, where: `thread '${options.threadId}'`, ...this.#migration }, prior.meta?.graphVersion ?? 0, state);
      this.#alive();
      core.runApply(handle, input);
      core.runResume(handle, undefined);
    } catch (e) {
      core.runFree(handle);
      throw e;
    }
    const thread = openThread(this.#checkpointer, options.threadId, prior.id, Infinity, undefined, prior.next);
    return this.#drive(handle, state, options, undefined, thread);
  }

  /** A thread's checkpoint to resume from (thread-view.js); the errors name the thread. */
  async #loadThread(ref, recover = false) {
    const loaded = await loadThread(this.#checkpointer, ref, recover);
    // dispose() while the store answered freed the graph: the run cannot start on it.
    this.#alive();
    return loaded;
  }

  /**
   * A thread's latest state (or that of an earlier checkpoint):
   * { state, status, checkpointId, parentId, createdAt }, or undefined.
   */
  async getState(threadId, checkpointId = undefined) {
    this.#threadCall('getState', threadId);
    return stateView(await this.#checkpointer.load(threadId, checkpointId));
  }

  /**
   * The checkpoints of a thread, newest first (resume({ threadId, checkpointId })
   * forks from any). A page: `limit` of them older than `before` (a
   * checkpointId); `values: true` adds each one's state.
   */
  async getStateHistory(threadId, { limit, before, values } = {}) {
    this.#threadCall('getStateHistory', threadId);
    return historyView(await this.#checkpointer.history(threadId, { limit, before, values }));
  }

  /** Remove a thread's checkpoints from the store (with no run of it in flight: a later write would start a broken chain). */
  async deleteThread(threadId) {
    this.#threadCall('deleteThread', threadId);
    await this.#checkpointer.deleteThread(threadId);
  }

  #threadCall(name, threadId) {
    this.#alive();
    checkThreadCall(this.#checkpointer, name, threadId);
  }

  /**
   * The run's events as an async iterator; the last event is `run_end`
   * with the result. With `streamMode`, chunks of those modes (events.js).
   */
  stream(initialState = {}, options = {}) {
    this.#alive();
    checkOptions(options, [...RUN_OPTIONS, ...STREAM_OPTIONS], 'the stream() options');
    return streamOf((runOptions) => this.execute(initialState, runOptions), options ?? {});
  }

  /** Like stream(), for resume(). */
  streamResume(saved, userInput = undefined, options = {}) {
    this.#alive();
    checkOptions(options, [...RESUME_OPTIONS, ...STREAM_OPTIONS], 'the streamResume() options');
    return streamOf((runOptions) => this.resume(saved, userInput, runOptions), options ?? {});
  }

  // dispose() and [Symbol.dispose]() come from CoreObject: runs in flight
  // finish first, and the graph (and the engine's own history) is freed when
  // the last of them ends. Every later call is a DISPOSED error.

  // ---- internals ----

  #alive() { this.assertAlive(); }

  /** Calls a node may make while its run is in flight, even after dispose(). */
  #usable() { if (!this.busy) this.assertAlive(); }

  /** The core's run options: this call's, else the engine's (options.js). */
  #runOptions(options) { return coreRunOptions({ limits: this.#limits, maxSteps: this.#maxSteps, breakpoints: this.#breakpoints }, options); }

  /** Drive a run; dispose() during it frees the graph only when it has closed. */
  async #drive(handle, mirror, options, resumeInput, thread) {
    const release = this.retain();
    let tracing = null;
    try {
      if (this.#tracing) ({ options, tracing } = await traceRun(this.#tracing, options));
    } catch (e) {
      this.#parts.core.runFree(handle);
      release();
      throw e;
    }
    const run = new Run(this, this.#parts, handle, mirror, options, resumeInput, thread);
    this.#currentState = mirror;
    try {
      return await run.drive();
    } finally {
      tracing?.finish();
      release();
    }
  }
}
