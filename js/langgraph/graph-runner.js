// graph-runner.js: what runs a compiled StateGraph (compiled.js is its face):
// the builder's nodes and edges as an edgegraph definition on a GraphEngine,
// and each invoke()/stream() call's run. The channels live under
// state.channels (so a channel may be called `status` or `error`, which the
// engine's own keys use); a `__start__` node applies the input through the
// reducers, as LangGraph's input step does, so supersteps line up with
// LangGraph's and recursionLimit counts the same.

import { GraphEngine, EdgegraphError, EngineCommand, Checkpointer, STREAM_MODES } from './edgegraph.js';
import { START, END } from './graph.js';
import { edgeOf } from './edges.js';
import { plainMessages, plainMessageList, messagesStateReducer, REMOVE_ALL_MESSAGES } from './messages.js';
import { Overwrite, isOverwrite, overwritten, overwritable } from './overwrite.js';
import { coreUpdate, bothWrites } from './messages-channel.js';
import { InvalidUpdateError, EmptyInputError } from './errors.js';
import { Invocation, loadInvocation, stepOf, invocationIn } from './invocations.js';
import { storeOf } from './checkpoint.js';
import { threadRef } from './thread-config.js';
import { isCommand, updateOf, gotoOf, toParent, resultCommand } from './command.js';
import { engineRetry } from './retry.js';
import { channelsOf } from './annotation.js';
import { subgraphNodeSpec, shownInterrupts } from './subgraph-node.js';
import { withCache, cacheOf } from './cache.js';
import { nodeConfig } from './config.js';
import { runnerOf } from './compiled.js';
import { handedOff } from './nested.js';

const PARENT = Symbol.for('edgegraph.langgraph.parent');
const ROUTED = '__lg_goto__';   // the engine state's key (beside `channels`) of a node's goto waiting for its router
const STOP = Symbol.for('edgegraph.stop');   // events.js's: a stream's stop, { reason, onStop }, cheaper than an AbortSignal (run.js)
const PATCHLESS = Symbol.for('edgegraph.patchless');   // events.js's: this run's onEvent reads no state_update patch (none is copied)
const STREAM = Symbol.for('edgegraph.stream');   // events.js's: the run's tap
const AsyncFunction = (async () => {}).constructor;
const FREED_WHEN_COLLECTED = Symbol.for('edgegraph.freedWhenCollected');
// definition.js's PREPARED: the nodes and edges as a list, with their functions.
const PREPARED = Symbol.for('edgegraph.preparedGraph');

/** A signal's reason as thrown: an Error as it is, anything else in one (LangGraph's). */
const errorOf = (reason) => (reason instanceof Error ? reason : new Error(String(reason)));

/** `to` added to the static targets of `from` in `map`: a name, or a list once a source has several (most have one). */
function addTarget(map, from, to) {
  const had = map.get(from);
  if (Array.isArray(had)) had.push(to);
  else map.set(from, had === undefined ? to : [had, to]);
}


/** `onEvent` marked as never reading a state_update's patch (../events.js's PATCHLESS). */
const patchless = (onEvent) => { onEvent[PATCHLESS] = true; return onEvent; };

/** The step LangGraph shows checkpoint `thread` at (numbering.js, loaded on a thread's first run that continues one). */
const shownStep = (runner, thread) => import('./numbering.js').then(async (m) => (await m.shownRecord(runner, thread.threadId, thread.checkpointId))?.step ?? -1);

/** The engine and everything a run needs; CompiledStateGraph (compiled.js) is its face. */
export class GraphRunner {
  // One made at load (it returns before building anything) keeps the class's hidden class
  // alive through a full GC between graphs (see ../run.js's Run).
  static #shape = new GraphRunner();
  // A run's onEvent (a function marked PATCHLESS) has a shape of its own: one kept too.
  static #onEventShape = patchless(() => {});
  persistent;
  engine;
  /** The store checkpoints go to (null: none), and a subgraph node's name -> its compiled graph: what a compiled graph's ThreadState reads. */
  store;
  children = new Map();
  /** The store's checkpoint records (a Checkpointer; null without a store): getState's and a run's reads of the thread (numbering.js). */
  records = null;
  #builder;
  #channels;
  /** Each node's static targets (its edges' and joins'): a name, or a list (addTarget). */
  #fixed = new Map();
  #cache;
  /** Channels whose reducer is LangGraph's message reducer, run by the core's `messages` (messages-channel.js); #definition finds them. */
  #coreMessages = new Set();

  constructor(builder, options) {
    if (!builder) return;
    this.#builder = builder;
    this.#channels = builder.channels;
    // checkpointer: true (a subgraph's): its state stays with the parent's thread across calls.
    this.persistent = options.checkpointer === true;
    this.store = this.persistent ? null : storeOf(options.checkpointer);
    if (this.store) this.records = new Checkpointer(this.store);
    this.#cache = cacheOf(options.cache);
    // LangGraph's compiled graphs have no dispose(): the engine is freed when collected, without a leak warning.
    // (An option left undefined or null is the engine's default: none.)
    const engineOptions = { [FREED_WHEN_COLLECTED]: true, checkpointer: this.store };
    for (const key of ['interruptBefore', 'interruptAfter']) engineOptions[key] = this.#breakpoints(options[key]);
    this.engine = new GraphEngine(this.#definition(), engineOptions);
  }

  /** A list of breakpoints as the engine takes it: '*' is every node. */
  #breakpoints(list) { return list === '*' ? [...this.#builder.nodes.keys()] : list; }

  // view, toUpdate and combine (below): what its subgraph nodes (subgraph-node.js) and its ThreadState use of a runner.
  /** Only the declared channels (or those of `keys`, a Map or Set), as LangGraph's state (channels never written are absent); with `copy`, each list and object a copy (one level). */
  view = (state, keys = this.#channels, copy) => {
    const out = {};
    const ch = state?.channels ?? {};
    for (const key of keys.keys()) {
      const v = ch[key];
      if (v !== undefined) out[key] = !copy ? v : Array.isArray(v) ? v.slice() : v?.constructor === Object ? { ...v } : v;
    }
    return out;
  };

  /**
   * The channels' defaults, made now: a new thread's (or a run's without one) start from values of
   * their own, as LangGraph calls each default per thread (`default: () => randomUUID()`).
   */
  defaults() {
    const defaults = {};
    for (const [key, c] of this.#channels) if (c.default) defaults[key] = this.#coreMessages.has(key) ? plainMessageList(c.default()) : plainMessages(c.default());
    return defaults;
  }

  #definition() {
    // (ROUTED: a node's goto waiting for its router, by node: #finish.)
    const reducers = { channels: 'merge', [ROUTED]: 'merge' };
    for (const [key, c] of this.#channels) {
      // LangGraph's message reducer (addMessages is the same function) runs in the core (messages-channel.js):
      // a step ships its update, not the list.
      const core = c.reducer === messagesStateReducer;
      if (core) this.#coreMessages.add(key);
      if (c.reducer) reducers[`channels.${key}`] = core ? 'messages' : overwritable(c.reducer);
    }
    const defaults = this.defaults();
    // Static targets by source and join sources by target, once: a 1,000-node graph compiles in one pass.
    // (The work of each edge and node in module functions and methods, not closures made per compile:
    // V8 dropped a closure's optimized code at a full GC, and a compile after one ran it unoptimized, 2-3x slower.)
    const { nodes, edges, joins, branches } = this.#builder;
    const fixed = this.#fixed, joined = new Map();
    for (let i = 0; i < edges.length; i++) addTarget(fixed, edges[i][0], edges[i][1]);
    for (const [sources, target] of joins) for (const from of sources) { joined.set(target, [...joined.get(target) ?? [], from]); addTarget(fixed, from, target); }
    // The nodes and edges go to the engine as a list (definition.js's PREPARED, which writes their JSON text);
    // a subgraph node as an object of `nodes` (the engine builds the child's handler).
    const objects = {};
    const handlers = new Map(), routers = new Map(), entries = [];
    // (#node's parts as a list: as an object, their names cost the compat entry 34 bytes.)
    const at = [fixed, joined, branches, objects, handlers, routers, entries];
    this.#node(START, null, at);
    for (const [name, node] of nodes) this.#node(name, node, at);
    return { entryPoint: START, state: { reducers, defaults: { channels: defaults } }, nodes: objects, [PREPARED]: { entries, handlers, routers } };
  }

  /** Node `name` (`node`: its addNode record; null: START) into #definition's parts `at`. */
  #node(name, node, [fixed, joined, branches, objects, handlers, routers, entries]) {
    let { fn, options = {}, subgraph } = node ?? {};
    // setNodeDefaults's (LangGraph 1.7's), latest first: a node's own options win (one left undefined is no option).
    const defaults = node && this.#builder.nodeDefaults;
    if (defaults) { options = { ...options }; for (const d of defaults) for (const k in d) options[k] ??= d[k]; }
    // LangGraph's edges from several nodes to one are not a join; addEdge([a, b], c) is.
    const sources = joined.get(name);
    const join = sources ? [...new Set(sources)] : false;
    const child = runnerOf(subgraph);
    // (The spec of most nodes is PLAIN_NODE's, which entries say with null: no object made for them.)
    const { timeout } = options;
    const spec = node === null ? { jumpTarget: true } : join || options.defer || child || options.retryPolicy || timeout ? { jumpTarget: true, join } : null;
    if (options.defer) spec.defer = true;
    // LangGraph's retry policy is the engine's node retry (each try a call of the node's handler, its own signal),
    // and its timeout (ms, or { runTimeout }) the engine's timeoutMs of a try. (An idleTimeout, a try's
    // progress watched, the engine has not: the policy goes as it is, which the core refuses, naming the node.)
    if (options.retryPolicy) spec.retry = engineRetry(options.retryPolicy);
    if (timeout) spec.timeoutMs = timeout.idleTimeout ? timeout : timeout.runTimeout ?? timeout;
    if (child) {
      // (setNodeDefaults' cachePolicy and errorHandler pass it by: a child's run pauses and keeps its failures with the node's task.)
      if (node.options.cachePolicy || node.options.errorHandler) throw new EdgegraphError('INVALID_DEFINITION', `node '${name}' is a compiled graph: give its nodes cachePolicy and errorHandler`, { node: name });
      objects[name] = Object.assign(subgraphNodeSpec(name, child, this), spec);
      this.children.set(name, subgraph);
    } else handlers.set(name, node === null ? this.#startNode() : this.#wrap(name, fn, options, options.input ? channelsOf(options.input).channels : this.#builder.stateKeys, spec?.retry));
    let edge = edgeOf(fixed.get(name), branches.get(name), this.view, (state) => state[ROUTED]?.[name]);
    if (typeof edge === 'function') { routers.set(name, edge); edge = edge.targets ? { targets: edge.targets } : null; }
    // (spec null: a function node that is no join; undefined: a subgraph node, in `objects`; edge null or
    // { targets }: a router named after its node)
    entries.push(name, child ? undefined : spec, edge);
  }

  /** The input step: the input goes through the reducers like any update. */
  #startNode() {
    return (state, engine, ctx) => {
      const inv = invocationIn(ctx);
      if (inv) inv.mirror = state;
      const update = this.#toUpdate(state.__start__ ?? inv?.input, START);
      // An input schema's keys only (LangGraph's): invoke() cannot set the others (a goto's update is no input).
      const keys = this.#builder.input;
      if (keys && state.__goto__ == null) for (const key in update) if (!keys.has(key)) delete update[key];
      // (An input that writes nothing has no values chunk, as LangGraph's.)
      for (const _ in update) { inv?.ran(); break; }
      const out = { channels: this.#forCore(update, START, state), __start__: null };
      // A Command's goto on a thread that is not paused: the input step goes there.
      if (state.__goto__ != null) { out.__goto__ = null; out.nextNodeOverride = state.__goto__; }
      return out;
    };
  }

  /** A node function as the engine's handler; with a cache policy, through the cache (cache.js: { value, cached }), else called as it is. */
  #wrap(name, fn, options, inputOnly, retry) {
    const cache = withCache(name, fn, options.cachePolicy, this.#cache);
    // A throw (nested.js's handedOff); with an errorHandler (LangGraph 1.7's), after the last try, the handler's result (error-handler.js).
    const handler = options.errorHandler;
    const failed = handler ? (e, config, ctx, input) => import('./error-handler.js').then((m) => m.handled(e, config, ctx, input, name, handler, retry, handedOff)) : handedOff;
    const call = (state, engine, ctx) => {
      const inv = invocationIn(ctx);
      // (A node's own input schema: those channels only, LangGraph's private state. Each list and object
      // its own copy: one pushed onto, or given a key, and returned, writes itself, never the run's state twice.)
      const input = ctx.arg !== undefined ? ctx.arg : this.view(state, inputOnly ?? undefined, true);
      // (A retry's try is the same task: it started once.)
      const step = !inv ? stepOf(ctx.taskId) : ctx.attempt === 1 ? inv.enter(ctx.taskId, name, state, input) : inv.stepOf(ctx.taskId);
      const config = ctx.hostConfig = nodeConfig(inv, ctx, name, step, input);
      if (cache) return cache(input, config).then(null, async (e) => ({ value: await failed(e, config, ctx, input) })).then((r) => this.#finish(r.value, inv, ctx, name, step, state, r.cached));
      // (What it throws may be a nested graph's Command.PARENT: the node's result then, nested.js.)
      let out;
      try { out = fn(input, config); } catch (e) { out = failed(e, config, ctx, input); }
      return typeof out?.then === 'function'
        ? out.then(null, (e) => failed(e, config, ctx, input)).then((r) => this.#finish(r, inv, ctx, name, step, state))
        : this.#finish(out, inv, ctx, name, step, state);
    };
    // A sync node stays sync (no promise, no AsyncLocalStorage.run: most of a
    // no-op node's cost); an async one keeps an async wrapper, which the engine
    // runs in AsyncLocalStorage so the global interrupt() works after its awaits.
    // (With an errorHandler too: it runs after an await, where interrupt() finds the node so.)
    return fn instanceof AsyncFunction || cache || handler ? async (state, engine, ctx) => call(state, engine, ctx) : call;
  }

  /** A node's result as the engine's: a Command, or its update under `channels`; `state`: the state the node read; `cached`: the result came from the cache. */
  #finish(out, inv, ctx, name, step, state, cached) {
    let command = resultCommand(out);
    // LangGraph's goto adds to the node's edges: those still run (a join still hears from it). The core
    // routes a node by its goto or by its router, not both: a node with a router has its goto wait in the
    // state (ROUTED) for the router, which adds it to its answer; it is cleared by the node's next result.
    const branched = this.#builder.branches.has(name);
    let routed;
    if (command?.goto !== undefined && !toParent(command)) {
      const fixed = this.#fixed.get(name);
      if (branched && !command.alone) { routed = gotoOf(command.goto); command = { ...command, goto: undefined, update: command.update ?? {} }; }
      // (An errorHandler's goes alone: LangGraph's handler is a node of its own, without edges. error-handler.js)
      else if (fixed && !command.alone) command = { ...command, goto: [...new Set([command.goto, fixed].flat())] };
    }
    const update = this.#toUpdate(command ? updateOf(command.update, this.combine) : out, name);
    // (A Command.PARENT's update is the parent's node's, which streams it: LangGraph's child sends none.)
    if (!command || !toParent(command)) inv?.finished(ctx.taskId, name, step, update, cached);
    const result = command ? this.engineCommand(command, name, state, update) : { channels: this.#forCore(update, name, state) };
    if (routed !== undefined || (branched && state[ROUTED]?.[name] != null)) (command ? result.update : result)[ROUTED] = { [name]: routed ?? null };
    return result;
  }

  /** A node's result as an update of known channels, with LangChain messages made plain (as the updates stream shows it). */
  #toUpdate(out, node) {
    if (out === undefined || out === null) return {};
    if (typeof out !== 'object' || Array.isArray(out)) {
      throw new InvalidUpdateError(`Expected node "${node}" to return an object, received ${Array.isArray(out) ? 'an array' : typeof out}`, { code: 'INVALID_RESULT', node, lc_error_code: 'INVALID_GRAPH_NODE_RETURN_VALUE' });
    }
    const update = {};
    for (const key in out) {
      const value = out[key];
      if (!Object.hasOwn(out, key) || value === undefined || !this.#channels.has(key)) continue;
      update[key] = isOverwrite(value) ? this.#overwrite(key, plainMessages(overwritten(value))) : plainMessages(value, this.#coreMessages.has(key));
    }
    return update;
  }

  /** An Overwrite of channel `key` with `value`: the value itself for a last value, all messages removed first for the core's messages channel, the marker for a JS reducer (overwritable). */
  #overwrite(key, value) {
    if (this.#coreMessages.has(key)) return [{ type: 'remove', id: REMOVE_ALL_MESSAGES }, ...[value ?? []].flat()];
    return this.#channels.get(key).reducer ? new Overwrite(value) : value;
  }

  /** An update of `node` as the core takes it (messages-channel.js), and a node's result so (toUpdate: #toUpdate first); `state`: the engine state it applies to, if known. */
  #forCore(update, node, state) { return coreUpdate(this.#coreMessages, update, node, state?.channels); }
  toUpdate = (out, node, state) => this.#forCore(this.#toUpdate(out, node), node, state);

  /** Two writes of one node to `key` (a Command's list of writes): its reducer's (a core messages channel's: both, in order), or the later. */
  combine = (key, a, b) => {
    // An Overwrite wins its step: the writes after it are dropped, those before it replaced (LangGraph's).
    if (isOverwrite(a)) return a;
    if (isOverwrite(b)) return b;
    const reducer = this.#coreMessages.has(key) ? bothWrites : this.#channels.get(key)?.reducer;
    return reducer ? reducer(a, b) : b;
  };

  /** The engine's Command for `command` of `node` (`made`: its update, if #toUpdate made it already); for the parent graph, keys this graph lacks stay (subgraph-node.js picks the parent's). */
  engineCommand(command, node, state, made) {
    const update = command.update === undefined ? undefined : updateOf(command.update, this.combine);
    const parent = toParent(command);
    // (A field left undefined is absent, as the engine's Command takes it; gotoOf(undefined) is undefined.)
    return new EngineCommand({
      update: update === undefined ? update : { channels: parent ? plainMessages(update) : this.#forCore(made ?? this.#toUpdate(update, node), node, state) },
      goto: gotoOf(command.goto),
      resume: command.resume,
      graph: parent ? EngineCommand.PARENT : undefined,
    });
  }

  /** `values` with the writes a stopped step kept (of its checkpoint's `tasks`, those that finished: a failed one's result is its error, a router's its targets), as LangGraph shows them (a JS reducer's are folded already). */
  withKept = (values, tasks) => {
    for (const { result } of tasks) for (const k in result?.channels) values[k] = this.#coreMessages.has(k) ? messagesStateReducer(values[k], result.channels[k]) : result.channels[k];
    return values;
  };

  /** The keys its output schema gives (a Set), or null: all the channels. */
  get outputKeys() { return this.#builder.output; }

  /** The values a run of this graph returns (its output schema's keys); with a stopped step's `tasks`, with the writes it kept. */
  output(state, tasks = []) {
    const values = this.withKept(this.view(state), tasks);
    const output = this.outputKeys;
    if (output) for (const key in values) if (!output.has(key)) delete values[key];   // (values: a fresh plain object)
    return values;
  }

  /** The run as chunks of `config.streamMode` ('updates' by default); `config` is CompiledStateGraph's own copy (its stop is added to it). */
  async stream(input, config) {
    const mode = config.streamMode ?? 'updates';
    const modes = Array.isArray(mode) ? mode : [mode];
    for (const m of modes) if (!STREAM_MODES.includes(m)) throw new EdgegraphError('INVALID_OPTIONS', `unknown streamMode '${m}' (expected ${STREAM_MODES.join(', ')})`);
    const stop = config[STOP] = {};   // { reason, onStop }: set when the consumer leaves, and by the run (run.js)
    // (Server-sent events name each chunk's mode: [mode, chunk] then, one mode too.)
    const inv = new (Invocation ?? await loadInvocation())(config, modes, !Array.isArray(mode) && !config.encoding, this.view, config[PARENT]);
    this.invoke(input, config, modes, inv).then(() => inv.end(), (e) => inv.end(e));
    return inv.readable(() => { stop.reason ??= new EdgegraphError('ABORTED', 'the stream was closed by its consumer'); stop.onStop?.(); });
  }

  /**
   * The channel values, as LangGraph's invoke() returns them (`config`: an object, CompiledStateGraph's
   * merge of its own and the call's); stream() passes the modes and the invocation its chunks come from.
   */
  async invoke(input, config, modes = [], inv) {
    inv ??= new (Invocation ?? await loadInvocation())(config, modes, true, this.view, config[PARENT]);
    const threadId = config.configurable?.thread_id;
    if (this.store && threadId === undefined && !config[PARENT]) {
      throw new EdgegraphError('INVALID_INPUT', 'this graph has a checkpointer: pass { configurable: { thread_id } }');
    }
    // Invoked inside another graph's node (callConfig): the call's, nested.js's.
    const nested = config[PARENT]?.task ? config[PARENT] : undefined;
    // (How a call inside a node ends, or replays a call that finished before the node paused: nested-end.js, loaded with the first.)
    if (nested?.was?.values) return (await import('./nested-end.js')).nestedReplay(nested, inv);
    const options = this.runOptions(inv, threadId);
    // (The run reads an absent signal or stop as none.)
    options.signal = config.signal;
    options[STOP] = config[STOP];
    // A call's own breakpoints (LangGraph's invoke(input, { interruptBefore })) replace the compiled ones; not a nested graph's (they are its parent's).
    if (!nested) for (const key of ['interruptBefore', 'interruptAfter']) if (config[key] !== undefined) options[key] = this.#breakpoints(config[key]);
    let result;
    if (threadId !== undefined && this.store) {
      // { threadId, checkpointId? } as the engine takes them (a string, a number); resume() reads the thread's from `thread`.
      const thread = threadRef(config.configurable);
      options.threadId = thread.threadId;
      const latest = await this.engine.getState(thread.threadId, thread.checkpointId);
      // A Command on a thread without checkpoints is its input (#commandStart), as LangGraph's.
      const fresh = !latest && isCommand(input);
      // The thread's step the run's first nodes have, as LangGraph counts them from the checkpoint X the run starts
      // at: X's + 1 continuing it; + 2 from a past checkpoint (its fork comes first) or to a finished thread's goto (its
      // input first); + 3 after a new input (its input checkpoint, then the step that applies it); 0 for a Command
      // on a new thread (its input checkpoint is -1).
      const goes = input === null || input === undefined || isCommand(input);
      const after = !goes ? 3 : isCommand(input) && input.goto !== undefined && latest?.status === 'FINISHED' ? 2 : thread.checkpointId !== undefined ? 2 : 1;
      inv.stepBase = fresh ? 0 : (latest ? (await shownStep(this, thread)) : -2) + after;
      // On a thread with state, the run starts from it (an input step folds the input over it).
      inv.initialValues = latest ? this.view(latest.state) : this.defaults();
      if (inv.checkpoints || inv.debug) {
        options[STREAM] = inv;   // (the run's tap, run.js: it reads the core's checkpoint meta)
        await inv.follow(this.engine, latest?.checkpointId, !fresh && (input === null || input === undefined || isCommand(input)));
      }
      if (!fresh && (input === null || input === undefined || isCommand(input))) {
        // (thread-resume.js: loaded on the first run that continues a thread)
        result = await import('./thread-resume.js').then((m) => m.continueThread(this, input, latest, thread, options, inv));
      } else {
        // (A new thread starts from its defaults; one with state, from that.)
        result = await this.engine.execute(latest ? { __start__: input } : fresh ? this.#commandStart(input, inv.initialValues) : { __start__: input, channels: inv.initialValues }, options);
      }
    } else if (nested?.was) {
      // The node runs again after its pause: this call resumes the child where it paused (its input is not read again, as LangGraph's).
      inv.initialValues = this.view(JSON.parse(nested.was.checkpoint).state);
      if (inv.values) inv.push('values', inv.update(inv.initialValues));
      result = await this.engine.resume(nested.was.checkpoint, nested.answers, options);
    } else {
      if (input === null || input === undefined) throw new EmptyInputError();
      if (input.resume !== undefined && isCommand(input)) throw new EdgegraphError('INVALID_INPUT', 'Command({ resume }) without a checkpointer: there is nothing to resume (compile({ checkpointer }), and pass { configurable: { thread_id } })');
      inv.initialValues = this.defaults();
      // No thread, nothing to recover: the input step reads the input from here
      // instead of the state, so it crosses into the core once, not twice.
      inv.input = input;
      result = await this.engine.execute(isCommand(input) ? this.#commandStart(input, inv.initialValues) : { channels: inv.initialValues }, options);
    }
    if (result.status === 'ERROR') throw (await import('./run-error.js')).failedRun(result, nested);
    // Aborted by the call's signal: its reason (an AbortError, a TimeoutError), as LangGraph throws it.
    if (result.status === 'INTERRUPTED') throw config.signal?.aborted ? errorOf(config.signal.reason) : result.error ?? new EdgegraphError('ABORTED', 'the run was interrupted');
    if (result.status === 'FINISHED' && inv.steps >= inv.recursionLimit) throw inv.recursionError();
    if (nested) return (await import('./nested-end.js')).nestedEnd(this, nested, result, inv);
    const kept = result.status === 'PAUSED' ? JSON.parse(result.checkpoint).tasks : undefined;
    const values = this.output(result.state, kept);
    if (kept) {
      if (!this.store) throw new EdgegraphError('INVALID_OPTIONS', 'No checkpointer set: a run that pauses needs compile({ checkpointer })');
      // As LangGraph: the pending interrupts beside the values (none for a breakpoint), then the values with the writes kept.
      const interrupts = shownInterrupts(result.interrupts);
      inv.paused(interrupts);   // (each chunk its copy)
      if (inv.values && kept.some((t) => t.state === 'done' && t.kind !== 'route')) inv.push('values', inv.update(values));
      values.__interrupt__ = interrupts;
    }
    return values;
  }

  /** A run's start from `command` instead of an input (a thread without checkpoints, a graph without a checkpointer): the input step applies its update and goes to its goto, or ends. */
  #commandStart(command, channels) {
    return { __start__: updateOf(command.update, this.combine), __goto__: gotoOf(command.goto) ?? END, channels };
  }

  /**
   * The engine's options for a run of `inv` on thread `threadId`: its events go to `inv` (one
   * function a run: the engine calls it several times a step), and `inv` is the run's
   * `configurable`, which every node's context carries (invocationIn, stream.js): a node finds its
   * call's invocation there, and a subgraph node's child run has its own.
   */
  runOptions(inv, threadId) {
    inv.threadId = threadId;
    return { onEvent: patchless((event) => inv.onEvent(event)), maxSteps: 1e9, configurable: inv };
  }
}
