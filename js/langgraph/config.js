// config.js: a node's second argument (LangGraph's RunnableConfig as a node
// gets it), and getConfig() / getWriter() / getCurrentTaskInput(), which find it from code the node
// calls without passing it on: as edgegraph's interrupt() finds its node
// (currentNodeContext), during the node's synchronous call in every runtime
// and after an await where AsyncLocalStorage exists.
// And a call's config (callConfig): a compiled graph's withConfig defaults
// and the call's, merged as LangChain merges them, inside a node with the
// node's around them.

import { EdgegraphError, currentNodeContext } from './edgegraph.js';
import { EMPTY } from '../objects.js';   // copies that add keys spread it first (objects.js says why)
import { stepOf, invocationIn, TOKENS } from './invocations.js';
import { nestedCall, parentOf } from './nested.js';

const PARENT = Symbol.for('edgegraph.langgraph.parent');
const CONTEXT = Symbol('context');
/** A node config's signal: its node context's. */
const SIGNAL = { get() { return this[CONTEXT].signal; }, enumerable: true, configurable: true };

/** What a node's second argument holds: `inv`, the invoke() call running (undefined: a node of a GraphEngine); `ctx`, the node's context; `step`, its superstep; `input`, what the node was given. */
export function nodeConfig(inv, ctx, name, step, input) {
  const base = inv?.config ?? {};
  const config = {
    // (What the node was given, where LangGraph keeps it: a tool's config, a copy LangChain makes of this, keeps it too.)
    // (EMPTY first: { ...o, key } alone takes V8's slow path, ~0.3 µs a node call; objects.js says why.)
    configurable: { ...EMPTY, ...base.configurable, __pregel_scratchpad: { currentTaskInput: input } },
    metadata: { ...EMPTY, ...base.metadata, thread_id: base.configurable?.thread_id, langgraph_node: name, langgraph_step: step, langgraph_task_id: ctx.taskId },
    // (LangGraph's node run is named after the node, with the call's limit.)
    runName: name,
    recursionLimit: inv?.recursionLimit ?? 25,
    writer: (chunk) => (inv ? inv.push('custom', chunk) : ctx.writer(chunk)),   // (a GraphEngine node's: its custom event)
    // interrupt() that works after any await, in every runtime (the global one needs AsyncLocalStorage there);
    // the context's is made on first read (its id text, answers, closure): here, when a node calls it.
    interrupt: (value) => ctx.interrupt(value),
    [CONTEXT]: ctx,
  };
  // Read on demand: ctx.signal is made on first read (an AbortController per step otherwise). One
  // getter for every config: V8 keeps an accessor's function with the object's shape, and a getter
  // made per call (with the context it reached, so the whole run) survived minor GCs. (Only this one:
  // interrupt and PARENT as getters too, defineProperties made a config ~3x as costly as these closures.)
  Object.defineProperty(config, 'signal', SIGNAL);
  // The call's other keys, copied after: a literal that spreads `base` first takes V8's slow path (~5 µs a node).
  // (Not its streamMode, as LangGraph's: a graph invoked with the node's config returns its values.)
  for (const key in base) if (!(key in config) && key !== 'streamMode') config[key] = base[key];
  // The call's own callbacks (a list of handlers, or a CallbackManager's) keep running beside the token handler;
  // not a token handler of the node a graph invoked in this one was called from (its tokens are this node's: once).
  if (inv?.messages) config.callbacks = [...(Array.isArray(base.callbacks) ? base.callbacks : base.callbacks?.handlers ?? []).filter((h) => !h[TOKENS]), inv.tokenHandler(name, ctx.taskId)];
  // (What a graph invoked inside the node nests under, nested.js: the node's context, nothing made per call.)
  if (inv) config[PARENT] = ctx;
  return config;
}

/** The running node's config (its second argument; a GraphEngine node's made here); undefined outside a node (and in a router), as LangGraph's. */
export function getConfig() {
  const ctx = currentNodeContext();
  return ctx && (ctx.hostConfig ?? nodeConfig(invocationIn(ctx), ctx, ctx.node, stepOf(ctx.taskId)));
}

/** `config`'s, else getConfig()'s; CONFIG_OUTSIDE_NODE naming `call` when there is none. */
function configFor(call, config) {
  const found = config ?? getConfig();
  if (!found) throw new EdgegraphError('CONFIG_OUTSIDE_NODE', `${call}() outside a node's call: pass the node's config (its second argument), ${call}(config)`);
  return found;
}

/** The running node's writer to the 'custom' stream mode: `config`'s, else getConfig()'s. */
export const getWriter = (config) => configFor('getWriter', config).writer;

/** What the running node was given (its first argument): a tool it calls reads the graph's state so; CONFIG_OUTSIDE_NODE outside a node. */
export const getCurrentTaskInput = (config) => configFor('getCurrentTaskInput', config).configurable.__pregel_scratchpad?.currentTaskInput;

/** A compiled graph's defaults when withConfig gave none. */
export const NO_CONFIG = Object.freeze({});

/**
 * A call's config: the graph's defaults (withConfig's), then the call's. Called inside another
 * graph's node without that node's config, the node's config first, as LangGraph finds it: the
 * graph is nested there (nested.js).
 */
export function callConfig(runner, own, config) {
  const outer = config?.[PARENT] ? undefined : currentNodeContext()?.hostConfig;
  const merged = { ...EMPTY, ...outer, ...own, ...config };
  // As LangChain merges configs: configurable and metadata key by key, tags together (only a call
  // inside a node, or of a graph withConfig made, has more than one config).
  if (outer || own !== NO_CONFIG) for (const key of ['configurable', 'metadata', 'tags']) {
    const parts = [outer, own, config].filter((c) => c?.[key]);
    if (parts.length > 1) merged[key] = key === 'tags' ? [...new Set(parts.flatMap((c) => c.tags))] : Object.assign({}, ...parts.map((c) => c[key]));
  }
  // A graph that keeps no checkpoints of its own is nested there (one with a checkpointer runs on its thread there, streaming into it).
  const ctx = merged[PARENT];
  if (ctx?.taskId !== undefined) merged[PARENT] = runner.store ? parentOf(ctx) : nestedCall(ctx);
  return merged;
}
