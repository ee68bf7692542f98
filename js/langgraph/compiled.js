// compiled.js: a compiled StateGraph, running on edgegraph's GraphEngine.
// The channels live under state.channels (so a channel may be called
// `status` or `error`, which the engine's own keys use); a `__start__` node
// applies the input through the reducers, as LangGraph's input step does, so
// supersteps line up with LangGraph's and recursionLimit counts the same.

import { GraphEngine, EdgegraphError } from 'edgegraph';
import { END, START, Send } from './graph.js';
import { plainMessages } from './messages.js';
import { GraphRecursionError, InvalidUpdateError, EmptyInputError } from './errors.js';
import { Invocation, STREAM_MODES, superstepOf } from './stream.js';
import { storeOf } from './checkpoint.js';

const PARENT = Symbol.for('edgegraph.langgraph.parent');
let runCounter = 0;
const newRunId = () => `lg${Date.now().toString(36)}${(++runCounter).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

// Errors a retry cannot fix: client errors by HTTP status, and aborts.
const NO_RETRY_STATUS = new Set([400, 401, 402, 403, 404, 405, 406, 407, 409]);
function retryable(error) {
  if (error?.name === 'AbortError' || /^(Cancel|AbortError)/.test(String(error?.message))) return false;
  const status = Number(error?.response?.status ?? error?.status);
  return !NO_RETRY_STATUS.has(status) && error?.code !== 'ECONNABORTED' && error?.error?.code !== 'insufficient_quota';
}

/**
 * A node with LangGraph's retry policy: { maxAttempts = 3, initialInterval = 500 ms,
 * backoffFactor = 2, maxInterval = 128 s, jitter = true (up to 1 s more), retryOn }.
 * It runs in this layer, not as the engine's retry, for `retryOn`.
 */
function withRetry(fn, policy) {
  if (!policy) return fn;
  return async (input, config) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn(input, config);
      } catch (e) {
        if (attempt >= (policy.maxAttempts ?? 3) || !(policy.retryOn ?? retryable)(e) || config.signal?.aborted) throw e;
        const wait = Math.min(policy.maxInterval ?? 128000, (policy.initialInterval ?? 500) * (policy.backoffFactor ?? 2) ** (attempt - 1));
        await new Promise((resolve) => setTimeout(resolve, wait + ((policy.jitter ?? true) ? Math.random() * 1000 : 0)));
      }
    }
  };
}

/** The engine and everything a run needs; CompiledStateGraph (below) is its face. */
class GraphRunner {
  #builder;
  #engine;
  #channels;
  #invocations = new Map();
  #store;
  #defaults = {};

  constructor(builder, options) {
    this.#builder = builder;
    this.#channels = builder.channels;
    this.#store = storeOf(options.checkpointer);
    this.engine = this.#engine = new GraphEngine(this.#definition(), this.#store ? { checkpointer: this.#store } : {});
  }

  /** Only the declared channels, as LangGraph's state (channels never written are absent). */
  #view = (state) => {
    const out = {};
    const ch = state?.channels ?? {};
    for (const key of this.#channels.keys()) if (ch[key] !== undefined) out[key] = ch[key];
    return out;
  };

  #definition() {
    const reducers = { channels: 'merge' };
    const defaults = {};
    for (const [key, c] of this.#channels) {
      if (c.reducer) reducers[`channels.${key}`] = c.reducer;
      if (c.default) defaults[key] = plainMessages(c.default());
    }
    this.#defaults = defaults;
    const nodes = { [START]: { handler: this.#startNode(), jumpTarget: true } };
    for (const [name, { fn, options }] of this.#builder.nodes) {
      nodes[name] = { handler: this.#wrap(name, withRetry(fn, options.retryPolicy)), jumpTarget: true };
    }
    // Targets by source, once: a 1,000-node graph compiles in one pass.
    const fixed = new Map(Object.keys(nodes).map((n) => [n, []]));
    for (const [from, to] of this.#builder.edges) fixed.get(from)?.push(to);
    for (const [sources, target] of this.#builder.joins) for (const from of sources) fixed.get(from)?.push(target);
    const edges = {};
    for (const name of Object.keys(nodes)) edges[name] = this.#edgeOf(name, fixed.get(name));
    return { nodes, edges, entryPoint: START, state: { reducers, defaults: { channels: defaults } } };
  }

  /** The input step: the input goes through the reducers like any update. */
  #startNode() {
    return (state, engine, ctx) => {
      const inv = this.#invocationOf(ctx.taskId);
      if (inv) inv.mirror = state;
      const update = this.#toUpdate(state.__start__, START);
      inv?.taskFinished(ctx.taskId, START, update, superstepOf(ctx.taskId), true);
      return { channels: update, __start__: null };
    };
  }

  #wrap(name, fn) {
    return async (state, engine, ctx) => {
      const inv = this.#invocationOf(ctx.taskId);
      const step = superstepOf(ctx.taskId);
      if (inv) { inv.mirror = state; inv.enterStep(step); }
      const input = ctx.arg !== undefined ? ctx.arg : this.#view(state);
      inv?.taskStarted(ctx.taskId, name, input, step);
      const out = await fn(input, this.#nodeConfig(inv, ctx, name, step));
      const update = this.#toUpdate(out, name);
      inv?.taskFinished(ctx.taskId, name, update, step, false);
      return { channels: update };
    };
  }

  /** What a node's second argument holds. */
  #nodeConfig(inv, ctx, name, step) {
    const base = inv?.config ?? {};
    const config = {
      ...base,
      configurable: { ...base.configurable },
      metadata: { ...base.metadata, langgraph_node: name, langgraph_step: step, langgraph_task_id: ctx.taskId },
      signal: ctx.signal,
      writer: (chunk) => inv?.push('custom', chunk),
    };
    if (inv?.wants('messages')) config.callbacks = [tokenHandler(inv, name, step)];
    if (inv) config[PARENT] = { inv, ns: [`${name}:${ctx.taskId}`] };
    return config;
  }

  /** A node's result as an update of known channels, with LangChain messages made plain. */
  #toUpdate(out, node) {
    if (out === undefined || out === null) return {};
    if (typeof out !== 'object' || Array.isArray(out)) {
      throw new InvalidUpdateError(`Expected node "${node}" to return an object, received ${Array.isArray(out) ? 'an array' : typeof out}`, { code: 'INVALID_RESULT', node });
    }
    const update = {};
    for (const [key, value] of Object.entries(out)) {
      if (!this.#channels.has(key) || value === undefined) continue;
      update[key] = plainMessages(value);
    }
    return update;
  }

  /** One node's outgoing edge: static targets and routers combined into one. */
  #edgeOf(name, fixed) {
    const branches = this.#builder.branches.get(name) ?? [];
    if (!branches.length) {
      if (fixed.length === 0) return END;
      return fixed.length === 1 ? fixed[0] : [...new Set(fixed)];
    }
    return async (state) => {
      const out = [...fixed];
      for (const { path, pathMap } of branches) {
        let answer = await path(this.#view(state), {});
        for (const a of Array.isArray(answer) ? answer : [answer]) {
          if (a instanceof Send || a?.lg_name === 'Send') out.push({ node: a.node, arg: plainMessages(a.args) });
          else out.push(pathMap && !Array.isArray(pathMap) ? pathMap[a] ?? a : a);
        }
      }
      return out.length ? out : [END];
    };
  }

  #invocationOf(taskId) {
    return taskId ? this.#invocations.get(taskId.slice(0, taskId.lastIndexOf(':'))) : undefined;
  }

  /** The channel values, as LangGraph's invoke() returns them. */
  async invoke(input, config = {}) {
    const { values } = await this.#run(input, config ?? {}, []);
    return values;
  }

  /** The run as chunks of `config.streamMode` ('updates' by default). */
  async stream(input, config = {}) {
    config ??= {};
    const mode = config.streamMode ?? 'updates';
    const modes = Array.isArray(mode) ? mode : [mode];
    for (const m of modes) if (!STREAM_MODES.includes(m)) throw new EdgegraphError('INVALID_OPTIONS', `unknown streamMode '${m}' (expected ${STREAM_MODES.join(', ')})`);
    const stop = new AbortController();
    const inv = this.#invocation(config, modes, !Array.isArray(mode));
    const signal = config.signal ? AbortSignal.any([config.signal, stop.signal]) : stop.signal;
    this.#run(input, { ...config, signal }, modes, inv).then(() => inv.end(), (e) => inv.end(e));
    return inv.iterate(() => stop.abort(new EdgegraphError('ABORTED', 'the stream was closed by its consumer')));
  }

  #invocation(config, modes, single) {
    const parent = config[PARENT];
    return new Invocation({ modes, single, subgraphs: config.subgraphs === true, recursionLimit: config.recursionLimit ?? 25, config, view: this.#view, parent });
  }

  async #run(input, config, modes, inv = this.#invocation(config, modes, true)) {
    const threadId = config.configurable?.thread_id;
    const checkpointId = config.configurable?.checkpoint_id;
    const runId = newRunId();
    this.#invocations.set(runId, inv);
    const onEvent = (event) => inv.onEvent(event, (e, values) => this.#snapshotEvent(threadId, e, values));
    const options = { runId, onEvent, maxSteps: 1e9 };
    if (config.signal) options.signal = config.signal;
    let result;
    try {
      if (threadId !== undefined && this.#store) {
        const latest = await this.#engine.getState(String(threadId), checkpointId === undefined ? undefined : Number(checkpointId));
        if (input === null || input === undefined) {
          if (!latest) throw new EmptyInputError('Received no input for __start__');
          inv.initialValues = this.#view(latest.state);
          result = await this.#engine.resume({ threadId: String(threadId), ...(checkpointId !== undefined ? { checkpointId: Number(checkpointId) } : {}) }, undefined, options);
        } else {
          const base = latest ? { channels: latest.state.channels } : {};
          inv.initialValues = { ...this.#defaults, ...this.#view(base) };
          result = await this.#engine.execute({ ...base, __start__: input }, { ...options, threadId: String(threadId) });
        }
      } else {
        if (input === null || input === undefined) throw new EmptyInputError('Received no input for __start__');
        inv.initialValues = { ...this.#defaults };
        result = await this.#engine.execute({ __start__: input }, options);
      }
    } finally {
      this.#invocations.delete(runId);
    }
    if (result.status === 'ERROR') throw this.#errorOf(result.error);
    if (result.status === 'INTERRUPTED') throw result.error ?? new EdgegraphError('ABORTED', 'the run was interrupted');
    if (result.status === 'FINISHED' && inv.steps >= inv.recursionLimit) throw inv.recursionError();
    const values = this.#view(result.state);
    const output = this.#builder.output;
    if (output) for (const key of Object.keys(values)) if (!output.has(key)) delete values[key];
    return { values, result };
  }

  /** LangGraph raises what the node threw; edgegraph's codes keep their meaning. */
  #errorOf(error) {
    const cause = error?.cause;
    if (cause instanceof GraphRecursionError || cause instanceof InvalidUpdateError) return cause;
    if (error.code === 'NODE_FAILED' && cause instanceof Error) return cause;
    if (error.code === 'PARALLEL_CONFLICT') return new InvalidUpdateError(`Invalid update for channel: ${error.message}`);
    return error;
  }

  #configOf(threadId, checkpointId) {
    return { configurable: { thread_id: threadId, checkpoint_ns: '', checkpoint_id: String(checkpointId) } };
  }

  #snapshotEvent(threadId, event, values) {
    return { config: this.#configOf(threadId, event.checkpointId), values, metadata: { source: 'loop', step: -1, parents: {} }, tasks: [] };
  }

  /** A thread's state: { values, next, config, metadata, createdAt, parentConfig, tasks }. */
  async getState(config) {
    const threadId = String(config?.configurable?.thread_id);
    const wanted = config?.configurable?.checkpoint_id;
    const history = await this.#history(threadId);
    const record = wanted === undefined ? history[0] : history.find((r) => String(r.checkpointId) === String(wanted));
    if (!record) return { values: {}, next: [], tasks: [], config: { configurable: { thread_id: threadId } }, metadata: undefined };
    return this.#snapshot(threadId, record);
  }

  /**
   * A thread's checkpoints at superstep boundaries, newest first, each with its
   * step (its ancestors' count, from -1 for the input), the nearest such
   * ancestor, and whether it starts a fork (a second child of its parent).
   * edgegraph also checkpoints while routers run (a record with `routing`),
   * which LangGraph has no checkpoint for: those are left out.
   */
  async #history(threadId) {
    const all = await this.#engine.getStateHistory(threadId);
    const byId = new Map(all.map((r) => [r.checkpointId, r]));
    const shown = (id) => { let r = byId.get(id); while (r && r.routing?.length) r = byId.get(r.parentId); return r; };
    const firstChild = new Map();
    for (const r of [...all].reverse()) if (r.parentId !== null && !firstChild.has(r.parentId)) firstChild.set(r.parentId, r.checkpointId);
    const out = all.filter((r) => !r.routing?.length).map((r) => ({ ...r, parent: shown(r.parentId), fork: r.parentId !== null && firstChild.get(r.parentId) !== r.checkpointId }));
    const steps = new Map();
    for (const r of [...out].reverse()) steps.set(r.checkpointId, r.parent ? steps.get(r.parent.checkpointId) + 1 : -1);
    for (const r of out) r.step = steps.get(r.checkpointId);
    return out;
  }

  async #snapshot(threadId, record) {
    const loaded = await this.#engine.getState(threadId, record.checkpointId);
    const next = record.status === 'FINISHED' ? [] : record.pendingTasks.filter((n) => n !== END);
    const snapshot = {
      values: this.#view(loaded.state),
      next,
      tasks: next.map((name) => ({ name, interrupts: [] })),
      config: this.#configOf(threadId, record.checkpointId),
      metadata: { source: record.fork ? 'fork' : next.includes(START) ? 'input' : 'loop', step: record.step, parents: {} },
      createdAt: new Date(record.createdAt).toISOString(),
    };
    if (record.parent) snapshot.parentConfig = this.#configOf(threadId, record.parent.checkpointId);
    return snapshot;
  }

  /** The thread's checkpoints, newest first. */
  async *getStateHistory(config, options = {}) {
    const threadId = String(config?.configurable?.thread_id);
    const history = await this.#history(threadId);
    const count = options.limit === undefined ? history.length : Math.min(options.limit, history.length);
    for (let i = 0; i < count; i++) yield await this.#snapshot(threadId, history[i]);
  }

  /** The graph as data (LangGraph's getGraph() is far richer; this is the Mermaid text). */
  getGraph() { return { drawMermaid: () => this.#engine.toMermaid() }; }

}

// A compiled graph has no dispose() in LangGraph: its engine is freed when the
// graph is collected. The runner (the engine's closures point at it, never at
// the graph) is what the registry holds, so the graph itself can be collected.
const registry = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((runner) => runner.engine.dispose()) : null;

export class CompiledStateGraph {
  #runner;
  #config;

  constructor(builder, options, runner = new GraphRunner(builder, options), config = {}) {
    this.builder = builder;
    this.checkpointer = options.checkpointer;
    this.interruptBefore = options.interruptBefore;
    this.interruptAfter = options.interruptAfter;
    this.name = options.name ?? 'LangGraph';
    this.#runner = runner;
    this.#config = config;
    registry?.register(this, runner, this);
  }

  invoke(input, config) { return this.#runner.invoke(input, { ...this.#config, ...config }); }
  stream(input, config) { return this.#runner.stream(input, { ...this.#config, ...config }); }
  getState(config) { return this.#runner.getState(config); }
  getStateHistory(config, options) { return this.#runner.getStateHistory(config, options); }
  getGraph() { return this.#runner.getGraph(); }

  /** The same graph with `config` as every call's defaults (recursionLimit, configurable, ...). */
  withConfig(config) {
    const options = { checkpointer: this.checkpointer, interruptBefore: this.interruptBefore, interruptAfter: this.interruptAfter, name: this.name };
    return new CompiledStateGraph(this.builder, options, this.#runner, { ...this.#config, ...config });
  }

  /** Free the engine's WebAssembly memory now (otherwise when the graph is collected). */
  dispose() {
    registry?.unregister(this);
    this.#runner.engine.dispose();
  }
}
if (typeof Symbol.dispose === 'symbol') CompiledStateGraph.prototype[Symbol.dispose] = CompiledStateGraph.prototype.dispose;

/** A LangChain callback handler (by shape: plain methods) turning tokens into 'messages' chunks. */
function tokenHandler(inv, node, step) {
  // No `name`: LangChain then wraps it as a handler of its own (fromMethods),
  // copying these flags: stream even from invoke(), and deliver tokens in order.
  return {
    lc_prefer_streaming: true,
    awaitHandlers: true,
    handleLLMNewToken(token, _idx, runId) {
      inv.streamedIds.add(`run-${runId}`);
      inv.push('messages', [{ role: 'assistant', content: token, id: `run-${runId}` }, { langgraph_node: node, langgraph_step: step }]);
    },
  };
}
