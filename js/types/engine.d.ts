// Types of edgegraph: nodes, edges, graph definitions and the engine: its options, events, results and threads (re-exported by js/index.d.ts).

import { ApprovalDecision, EdgegraphError, GraphStatus, IGraphState, Message, PendingAskUser, RunErrorInfo } from './core.js';
import { ChatHistoryManager, TextTokenCounter } from './history.js';
import { ChatResult, ModelCallUsage, Provider, ProviderName, RunUsage } from './llm.js';
import { Checkpointer, HistoryOptions, KeyValueStore } from './stores.js';
import { ModeStream, StreamChunk, StreamMode, StreamModeOptions } from './stream.js';
import { NodeCache, NodeCachePolicy } from './cache.js';

/** What a node returns: a partial state plus flow controls. */
export type NodeResult<S> = {
  [K in keyof S]?: K extends 'messages' | 'logs' ? S[K] | (S[K] extends Array<infer T> ? T : never) : S[K];
} & {
  /** Go here next, whatever the edges say: a node, or several nodes and Sends (a Command's goto). */
  nextNodeOverride?: string | null | Array<string | Send>;
  /** Finish the run after this node. */
  shouldEnd?: boolean;
  /** Pause after this node (also set when pendingAskUser is). */
  shouldPause?: boolean;
  pendingAskUser?: PendingAskUser;
  /** FINISHED ends the run; ERROR fails it; PAUSED pauses it. */
  status?: GraphStatus;
};

export interface NodeContext {
  /** Stable across retries and restores: use it as an idempotency key. */
  taskId: string;
  node: string;
  /** The item of a map edge, or the `arg` of a Send. */
  arg?: any;
  /** 1 on the first try; higher when the node's retry policy runs it again. */
  attempt: number;
  /** Aborted when the run is interrupted, the node's timeout passes, or a task of the same step fails for good. */
  signal: AbortSignal;
  /** In the first step after resume(): the user input given to resume. */
  resumeInput?: Message;
  /** Send a chunk to the `custom` stream mode (onEvent and the raw stream() see a `custom` event). Works destructured. */
  writer: (chunk: unknown) => void;
  /** Emit an event of your own (it reaches onEvent / stream() with node and taskId). */
  emit?: (event: { type: string; [field: string]: unknown }) => void;
  /** Count a model call this node made itself (a chat() reply): into result.usage and an llm_usage event. Agent and LLM nodes do it for you. */
  recordUsage?: (reply: Pick<ChatResult, 'tokens' | 'provider' | 'model'>) => void;
  /**
   * Pause the run here with `value` (JSON data) for the caller; on resume the node runs again
   * from the top and the i-th call returns the i-th answer. Works after any await, in every runtime.
   */
  interrupt<T = any>(value?: unknown): T;
  /** The run's `configurable` option (execute/resume), as given. */
  configurable?: Record<string, unknown>;
}

/** A router's answer that runs `node` with its own input (`context.arg`). */
export interface Send { node: string; arg: unknown }
export function send(node: string, arg: unknown): Send;

/** A node: a function of the state (sync or async). It must not mutate the state it is given. */
export type GraphNode<S extends object = IGraphState> =
  (state: Readonly<S>, engine: GraphEngine<S>, context: NodeContext) => NodeResult<S> | Command<S> | void | Promise<NodeResult<S> | Command<S> | void>;

/** A router: picks the next node (or several, to run in parallel). */
export type Router<S extends object = IGraphState> =
  (state: Readonly<S>, engine: GraphEngine<S>) => RouteAnswer | Promise<RouteAnswer>;
export type RouteAnswer = string | Send | Array<string | Send>;

export interface RetryPolicy {
  /** Tries in all, the first included (1-100). */
  attempts: number;
  /** Wait before the second try (default 100 ms), multiplied by `factor` (default 2) each time, at most `maxBackoffMs`. */
  backoffMs?: number;
  factor?: number;
  maxBackoffMs?: number;
  /** Randomize each wait between half and all of it (default true). */
  jitter?: boolean;
  /** Whether a try that threw this is tried again (default: every error but an interrupt). */
  retryOn?: (error: unknown) => boolean;
}

/** A node that runs another graph with its own state. A pause inside pauses the parent; resume continues it. */
export interface SubgraphNodeSpec<S extends object = IGraphState, C extends object = IGraphState> {
  kind: 'subgraph';
  graph: GraphEngine<C> | GraphDefinition<C>;
  /** The child's initial state, from the parent's state (default: empty). */
  input?: (state: Readonly<S>, context: NodeContext) => Partial<C>;
  /** What the parent takes from the child's final state. */
  output?: (childState: C, state: Readonly<S>) => NodeResult<S>;
  /** Keep the child's final state in the parent's (state.subgraphs.<node>): the next call starts from it, the input written through its reducers. */
  persist?: boolean;
  options?: EngineOptions<C>;
  retry?: RetryPolicy;
  timeoutMs?: number;
  onError?: string;
}

export interface NodeSpec<S extends object = IGraphState> {
  kind?: 'function' | 'end' | 'human' | 'agent' | 'tool';
  /** The function, or the name of one in options.handlers. */
  handler?: GraphNode<S> | string;
  /** Run again on failure (a throw, a rejection or a timeout). */
  retry?: RetryPolicy;
  /** Fail the node (NODE_TIMEOUT) when it takes longer. */
  timeoutMs?: number;
  /** Error edge: after the last failed try go here, with `lastError` in the state, instead of ending the run. */
  onError?: string;
  description?: string;
  options?: Record<string, unknown>;
  /** Where this node's Commands may go (reachable, drawn by toMermaid), as LangGraph's `ends`. */
  goto?: string[];
  /** A join: run once, after every one of these source nodes reached this node (docs/parallel-branches.md). */
  join?: string[];
  /** Run only when nothing else is left to run (after every pending branch). */
  defer?: boolean;
  /** Reached only by nextNodeOverride or a goto: counts as reachable. */
  jumpTarget?: boolean;
  /** Reuse the node's result for equal input (needs the engine option `cache`). */
  cache?: NodeCachePolicy<S>;
}

export type Edge<S extends object = IGraphState> =
  | string
  | string[]
  | Router<S>
  | { router: Router<S> | string; targets?: string[] }
  | { path: string; cases?: Record<string, string>; default?: string }
  | { default: string }
  /** One task of `to` per item of the list at `map` (the item is `context.arg`); `empty` when the list is empty. */
  | { map: string; to: string; empty?: string };

export type ReducerName =
  | 'last' | 'first' | 'concat' | 'appendUnique' | 'merge' | 'deepMerge'
  | 'sum' | 'max' | 'min' | 'avg' | 'longest' | 'messages' | 'readonly';

export interface StateSchema {
  /** frame: the seed GraphEngine's state (messages, data, metadata, logs); partitioned: seed 002's
   * GraphState (input read-only; currentNodeId, visitedNodes, iteration kept by the engine);
   * custom (the default for an object): only what is declared here. */
  shape?: 'frame' | 'partitioned' | 'custom';
  /** Reducers by dotted path, e.g. { 'scratch.messages': 'concat' }, or JS functions
   * `(current, update) => next` (folded in branch order; never serialized). Other paths: last write wins. */
  reducers?: Record<string, ReducerName | ReducerFunction>;
  /** Values filled in at run start when the initial state lacks them. */
  defaults?: Record<string, unknown>;
}

export interface GraphDefinition<S extends object = IGraphState> {
  nodes: Record<string, GraphNode<S> | NodeSpec<S> | SubgraphNodeSpec<S, any>>;
  edges?: Record<string, Edge<S>>;
  entryPoint: string;
  /** The END name (default "__end__"). */
  end?: string;
  maxSteps?: number;
  /** "frame" (default): messages/logs append, data/metadata merge. */
  state?: 'frame' | 'partitioned' | StateSchema;
  name?: string;
  /** The state shape's version (an integer, default 0); checkpoints record it as graphVersion. */
  version?: number;
  /** Reshape the state of a checkpoint written under another version, when it resumes (may be async). */
  migrate?: (state: any, fromVersion: number) => S | Promise<S>;
  /** Nodes renamed since checkpoints were written: old name -> new name. */
  renamedNodes?: Record<string, string>;
}

/** LLM settings (any provider); the key never enters state, checkpoints or events. */
export interface AgentLLMConfig {
  model: string;
  provider?: ProviderName | Provider;
  apiKey?: string;
  baseURL?: string;
  defaults?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface EngineOptions<S extends object = IGraphState> {
  /** Node executions allowed per execute/resume call (default 100). */
  maxSteps?: number;
  /** Where runs with a threadId keep their checkpoints (a Checkpointer, or any KeyValueStore). */
  checkpointer?: Checkpointer | KeyValueStore;
  /** Token budget of getMessagesForLLM() (default: llmConfig.maxContextTokens, else 8192). */
  maxContextTokens?: number;
  /** Exact counts for getMessagesForLLM() (from edgegraph/tokenizer); default: the estimate. */
  tokenizer?: TextTokenCounter;
  /** Use this history manager instead of the engine's own. */
  chatHistoryManager?: ChatHistoryManager;
  /** Node functions by handler name (for JSON definitions). */
  handlers?: Record<string, GraphNode<S>>;
  /** Router functions by name (for JSON definitions). */
  routers?: Record<string, Router<S>>;
  /** Size limits; past one a run stops with LIMIT_EXCEEDED and keeps its partial state. */
  limits?: EngineLimits;
  /** The retry policy of every node that has none of its own. */
  retry?: RetryPolicy;
  /** Pause before these nodes run (every run's default; a run's own option replaces it). */
  interruptBefore?: string[];
  /** Pause after these nodes ran and their routes chose (every run's default): the pause shows where the run goes. */
  interruptAfter?: string[];
  /** OpenTelemetry spans for every run: the run, its nodes, model calls and tool calls (docs/tracing.md). */
  tracer?: OTelTracerLike;
  /** Put prompts, replies, tool arguments and results in the spans (default false). */
  traceContent?: boolean;
  /** Where nodes with a `cache` policy keep their results (new InMemoryCache(), or any NodeCache). */
  cache?: NodeCache;
}

/** An OpenTelemetry Tracer, by shape (@opentelemetry/api's Tracer fits); nothing of OpenTelemetry is imported. */
export interface OTelTracerLike {
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, unknown> }, context?: OTelContextLike): {
    setAttribute(key: string, value: any): unknown;
    setAttributes(attributes: Record<string, any>): unknown;
    setStatus(status: { code: number; message?: string }): unknown;
    recordException(exception: any): void;
    end(): void;
  };
}
/** An OpenTelemetry Context (e.g. trace.setSpan(context.active(), span)). */
export interface OTelContextLike {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OTelContextLike;
  deleteValue(key: symbol): OTelContextLike;
}

export interface EngineLimits {
  /** One node's result as JSON (default 16 MiB). */
  maxResultBytes?: number;
  /** An initial state, checkpoint or resume input as JSON (default 256 MiB). */
  maxInputBytes?: number;
  /** The whole state as JSON after a step (default 256 MiB). */
  maxStateBytes?: number;
  /** Entries of the state's top-level `messages` list after a step (default 100,000). */
  maxMessages?: number;
}

export type GraphEvent<S extends object = IGraphState> =
  | { type: 'run_start' }
  | { type: 'node_start'; node: string; taskId: string }
  | { type: 'node_end'; node: string; taskId: string; durationMs: number; error?: string; /** With error: the thrown error's code, else NODE_FAILED. */ errorCode?: string; /** The node called interrupt(). */ interrupted?: true; /** With interrupted: its interrupts, as result.interrupts has them. */ interrupts?: Array<{ id: string; value: unknown }> }
  | { type: 'node_retry'; node: string; taskId: string; attempt: number; error: string; delayMs: number }
  | { type: 'llm_token'; node: string; taskId: string; text: string }
  | ({ type: 'llm_usage'; taskId: string } & ModelCallUsage)
  | { type: 'tool_call'; node: string; taskId: string; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; node: string; taskId: string; id: string; name: string; status: 'ok' | 'error'; durationMs: number }
  | { type: 'route'; node: string; target: unknown }
  | { type: 'state_update'; patch: PatchOp[] }
  | { type: 'pause'; pendingAskUser: PendingAskUser | null; interrupts?: Interrupt[] }
  | { type: 'error'; error: RunErrorInfo }
  | { type: 'checkpoint'; threadId: string; checkpointId: number; status: GraphStatus }
  | { type: 'custom'; node: string; taskId: string; data: unknown }
  | { type: 'run_end'; status: GraphStatus; result: GraphRunResult<S> };

export type PatchOp =
  | ['set', Array<string | number>, unknown]
  | ['push', Array<string | number>, unknown[]]
  | ['del', Array<string | number>];

export interface RunOptions<S extends object = IGraphState> {
  /** Aborting interrupts the run: status INTERRUPTED, resumable. */
  signal?: AbortSignal;
  onEvent?: (event: GraphEvent<S>) => void;
  maxSteps?: number;
  runId?: string;
  /** resume() only: a partial state written before the run continues (through the reducers). */
  update?: Record<string, unknown>;
  /** Save a checkpoint at every step (and after each finished parallel task) under this thread. */
  threadId?: string;
  /** The OpenTelemetry context the run's span starts in (default: the active one). */
  traceContext?: OTelContextLike;
  /** resume({ threadId }) only: the run that wrote the thread's latest (mid-run) checkpoint died; continue it (else THREAD_BUSY within the lease). */
  recover?: boolean;
  /** Handed to every node as `context.configurable` (not part of the state or checkpoints). */
  configurable?: Record<string, unknown>;
  /** Run at most this many tasks of a step at once (default: all). */
  maxConcurrency?: number;
  /** Pause before these nodes run; resume runs them. */
  interruptBefore?: string[];
  /** Pause after these nodes ran and their routes chose; resume goes where they chose. */
  interruptAfter?: string[];
}

/** resume({ threadId }) continues a thread's latest checkpoint; with checkpointId, forks from an earlier one. */
export interface ThreadRef { threadId: string; checkpointId?: number }

export interface ThreadState<S> { state: S; status: GraphStatus; checkpointId: number; parentId: number | null; createdAt: number; /** The step's tasks: a finished one's writes show here even when a sibling failed (the state then has neither). */ tasks: ThreadTask[]; /** Waiting for an answer ([] when none). */ interrupts: Interrupt[] }
export interface ThreadTask { node: string; status: 'pending' | 'done' | 'failed' | (string & {}); writes?: unknown; error?: unknown }
export interface CheckpointInfo<S = unknown> { checkpointId: number; parentId: number | null; createdAt: number; status: GraphStatus; superstep: number; /** Nodes about to run (after a pause of interruptAfter: where its routes chose, END included). */ pendingTasks: string[]; /** Nodes routing at this checkpoint (their routers about to choose, or, after such a pause, chosen). */ routing: string[]; /** Written by updateState. */ update?: true; /** The state then: with getStateHistory(id, { values: true }). */ values?: S }

interface RunResultBase<S> {
  state: S;
  /** PAUSED by interrupt(): what each waiting node asked, with the id to answer it by. */
  interrupts?: Interrupt[];
  /** A subgraph's run that ended with a node's Command.PARENT: where the parent goes, and its update. */
  parentCommand?: { goto?: Goto; update?: Record<string, unknown> };
  /** Alias of `state` (seed API). */
  readonly finalState: S;
  /** The tokens of this run's model calls (a resumed run counts its own), whichever provider answered. */
  usage: RunUsage;
}
/** A run's outcome; narrow on `status`: every status but FINISHED has a checkpoint to resume from. */
export type GraphRunResult<S extends object = IGraphState> =
  | (RunResultBase<S> & { status: 'FINISHED'; error?: undefined; checkpoint?: undefined })
  | (RunResultBase<S> & { status: 'PAUSED'; error?: undefined; /** JSON to resume from. */ checkpoint: string })
  | (RunResultBase<S> & { status: 'ERROR' | 'INTERRUPTED' | 'RUNNING'; error: EdgegraphError; /** JSON to resume from. */ checkpoint: string });

/**
 * What resume() continues: a checkpoint (result.checkpoint: JSON text or parsed),
 * a saved state, or a thread. undefined (a finished run's checkpoint) is NOT_RESUMABLE.
 */
export type Resumable<S> = string | S | object | ThreadRef | undefined;

/** S as given, never inferred from here (TypeScript 5.4's NoInfer<S>, in a form every version reads). */
type Given<S> = [S][S extends any ? 0 : never];

export class GraphEngine<S extends object = IGraphState> {
  /** S is the state type you give (GraphEngine<MyState>), never inferred from a node's result: default IGraphState. */
  constructor(definition: GraphDefinition<Given<S>>, options?: EngineOptions<Given<S>>, llmConfig?: AgentLLMConfig);
  readonly graphHash: string;
  readonly llmConfig: AgentLLMConfig | undefined;
  readonly definition: object;
  execute(initialState?: Partial<S>, options?: RunOptions<S>): Promise<GraphRunResult<S>>;
  /**
   * userInput: while interrupts are pending, their answer (a value, or { [id]: answer }: data, never a message);
   * a Command ({ resume?, update?, goto? }, or a plain object of those keys); else a message
   * (appended to messages once) or an approval decision (approve(), reject(), editArguments()).
   */
  resume(saved: Resumable<S>, userInput?: Message | ApprovalDecision | Command<S> | ResumeCommand<S> | unknown, options?: RunOptions<S>): Promise<GraphRunResult<S>>;
  /**
   * Write `values` through the reducers into a stopped run (a thread: a new checkpoint is written to it;
   * or a checkpoint: a new one is returned); with `asNode`, the run goes on as if that node had just run.
   * `restartTasks`: the step's unfinished tasks run again from the top on resume, asking again (their pending
   * interrupts, the answers they were given and a paused subgraph's child run are dropped).
   */
  updateState(saved: ThreadRef | string | object, values: NodeResult<S> | Record<string, unknown> | null, asNode?: string, options?: { restartTasks?: boolean }): Promise<{ state: S; checkpoint: string; checkpointId?: number }>;
  /** A thread's latest state, or that of one checkpoint (needs a checkpointer). */
  getState(threadId: string, checkpointId?: number): Promise<ThreadState<S> | undefined>;
  /** A thread's checkpoints, newest first. */
  getStateHistory(threadId: string, options?: HistoryOptions): Promise<CheckpointInfo<S>[]>;
  /** Remove a thread's checkpoints from the store. */
  deleteThread(threadId: string): Promise<void>;
  /** With `streamMode`: chunks of those modes (docs/streaming.md); without, the run's events. */
  stream<const M extends StreamMode | readonly StreamMode[], G extends boolean = false>(initialState: Partial<S> | undefined, options: RunOptions<S> & StreamModeOptions<M, G>): ModeStream<StreamChunk<S, M, G>, GraphRunResult<S>>;
  stream(initialState?: Partial<S>, options?: RunOptions<S>): AsyncIterable<GraphEvent<S>>;
  streamResume<const M extends StreamMode | readonly StreamMode[], G extends boolean = false>(saved: Resumable<S>, userInput: Message | ApprovalDecision | Command<S> | ResumeCommand<S> | unknown, options: RunOptions<S> & StreamModeOptions<M, G>): ModeStream<StreamChunk<S, M, G>, GraphRunResult<S>>;
  streamResume(saved: Resumable<S>, userInput?: Message | ApprovalDecision | Command<S> | ResumeCommand<S> | unknown, options?: RunOptions<S>): AsyncIterable<GraphEvent<S>>;
  toMermaid(): string;
  /** Queue a message for the next execute() (seed API); a system message becomes the system prompt. */
  addMessage(message: Message): void;
  /** The history trimmed to the token budget: of `state.messages`, else the run in progress (or last), else addMessage()'s. */
  getMessagesForLLM(state?: { messages?: Message[] }): Message[];
  dispose(): void;
  [Symbol.dispose](): void;
}

export type ReducerFunction = (current: any, incoming: any) => unknown;

/** The END node of the seed API; its function never runs. */
/** Returns the definition as given: in TypeScript, nodes and routers of a definition kept in a variable get typed arguments. */
export function defineGraph<S extends object = IGraphState>(definition: GraphDefinition<Given<S>>): GraphDefinition<S>;

// ---- interrupts and commands (docs/human-in-the-loop.md) ----

/** A pending interrupt: answer it by `id` (stable: `<node>:<step>.<task>:<call>`, a subgraph's nested with `/`). */
export interface Interrupt { id: string; value: any; node: string }

/** Thrown by interrupt() to pause the run: a catch-all in a node must rethrow it. */
export class GraphInterrupt extends Error {
  readonly interrupts: Array<{ id: string; value: unknown }>;
}
/** Whether `error` is a GraphInterrupt (from any copy of edgegraph). */
export function isGraphInterrupt(error: unknown): error is GraphInterrupt;
/**
 * Pause the run from inside a node (see NodeContext.interrupt). Finds the node synchronously during
 * its call in every runtime, and after an await in an async node function where AsyncLocalStorage exists; elsewhere it throws
 * INTERRUPT_OUTSIDE_NODE.
 */
export function interrupt<T = any>(value?: unknown): T;
/**
 * The context of the node whose call is running now, for code that has none at hand (a helper a
 * node calls); undefined outside a node. Found as interrupt() finds its node: during the node's
 * synchronous call in every runtime, after an await where AsyncLocalStorage exists.
 */
export function currentNodeContext(): NodeContext | undefined;

/** Where a Command goes: a node, a Send, or several. */
export type Goto = string | Send | Array<string | Send>;

/** The fields of a Command; also accepted by resume() as a plain object (resume, update, goto). */
export interface ResumeCommand<S extends object = IGraphState> {
  /** The answer to the pending interrupt, or { [interrupt id]: answer } for several. */
  resume?: unknown;
  /** A partial state written through the reducers. */
  update?: NodeResult<S> | Record<string, unknown>;
  /** What runs next, instead of the edges. */
  goto?: Goto;
}

/** A node's result that routes and updates at once; resume()'s answer, update and goto. */
export class Command<S extends object = IGraphState> implements ResumeCommand<S> {
  /** graph: Command.PARENT hands goto and update to the graph running this one as a subgraph. */
  static readonly PARENT: '__parent__';
  constructor(fields?: ResumeCommand<S> & { graph?: '__parent__' });
  readonly resume?: unknown;
  readonly update?: NodeResult<S> | Record<string, unknown>;
  readonly goto?: Goto;
  readonly graph?: '__parent__';
}
