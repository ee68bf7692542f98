// Type declarations for edgegraph (hand-written; checked by `make typecheck`).

declare global {
  interface SymbolConstructor {
    /** As in TypeScript's lib "esnext.disposable", so that `[Symbol.dispose]()` below compiles
     *  without it (a plain `target: "es2022"` project); the two declarations merge. */
    readonly dispose: unique symbol;
  }
}

/** Run statuses (src/eg_codes.def). */
export type GraphStatus = 'RUNNING' | 'PAUSED' | 'FINISHED' | 'ERROR' | 'INTERRUPTED';

/** Every stable error code (src/eg_codes.def; a test keeps them equal). */
export type ErrorCode =
  | 'OK' | 'OUT_OF_MEMORY' | 'INVALID_JSON' | 'INVALID_DEFINITION' | 'UNKNOWN_NODE' | 'MISSING_ENTRY'
  | 'DUPLICATE_NODE' | 'UNREACHABLE_NODE' | 'STATIC_SELF_LOOP' | 'END_HAS_EDGES' | 'MISSING_EDGE'
  | 'INVALID_INPUT' | 'INVALID_RESULT' | 'RESERVED_KEY' | 'NODE_FAILED' | 'NO_ROUTE' | 'UNKNOWN_ROUTE_TARGET'
  | 'MAX_STEPS_EXCEEDED' | 'REDUCER_TYPE_ERROR' | 'UNKNOWN_TASK' | 'INVALID_RUN_STATE' | 'INVALID_CHECKPOINT'
  | 'CHECKPOINT_GRAPH_MISMATCH' | 'CHECKPOINT_VERSION' | 'NOT_RESUMABLE' | 'NODE_REPORTED_ERROR'
  | 'INVALID_OPTIONS' | 'LIMIT_EXCEEDED' | 'READONLY_PATH' | 'UNKNOWN_HANDLER' | 'NOT_INITIALIZED' | 'ABORTED'
  | 'PARALLEL_CONFLICT' | 'NODE_TIMEOUT' | 'INVALID_MESSAGE' | 'MESSAGE_NOT_FOUND'
  | 'LLM_HTTP_ERROR' | 'LLM_TIMEOUT' | 'LLM_ABORTED' | 'LLM_NETWORK_ERROR' | 'LLM_BAD_RESPONSE'
  | 'THREAD_NOT_FOUND' | 'CHECKPOINT_WRITE_FAILED' | 'DISPOSED'
  | 'STRUCTURED_OUTPUT_INVALID' | 'MCP_ERROR' | 'THREAD_BUSY' | 'REDUCER_FAILED'
  | 'MIGRATION_FAILED';

export class EdgegraphError extends Error {
  constructor(code: ErrorCode, message: string, extra?: { node?: string; cause?: unknown });
  readonly code: ErrorCode;
  /** The node at fault, when there is one. */
  readonly node?: string;
}

/** An OpenAI-compatible chat message; every field is kept. */
export interface Message {
  role: 'system' | 'user' | 'assistant' | 'tool' | (string & {});
  content: string | ContentPart[] | null;
  id?: string;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  [field: string]: unknown;
}
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The error recorded in a failed run's state. */
export interface RunErrorInfo {
  code: ErrorCode;
  message: string;
  node?: string;
}

/** A tool call waiting for the user's decision (pendingAskUser.toolCalls). */
export interface PendingToolCall {
  id: string;
  name: string;
  /** The parsed arguments (the raw text when they are not valid JSON). */
  arguments: any;
  /** False for calls of the same reply that need no approval (they run with the others). */
  needsApproval: boolean;
}

/** What an agent node's tool approval pauses with: answer with approve(), reject() or editArguments(). */
export interface ToolApprovalRequest { type: 'tool_approval'; node: string; toolCalls: PendingToolCall[]; question?: undefined }
/** What createAskUserNode() pauses with: answer with a user message. */
export interface AskUserQuestion { type: 'question'; node: string; question: string; toolCalls?: undefined }
/** What a node of yours pauses with: any object; `type` is kept for edgegraph's own two payloads. */
export interface CustomPause { type?: undefined; [field: string]: any }

/**
 * state.pendingAskUser of a paused run. Narrow on `type`: 'tool_approval' (an agent's
 * tool calls), 'question' (createAskUserNode), or none (your own node's payload).
 */
export type PendingAskUser = ToolApprovalRequest | AskUserQuestion | CustomPause;

/** The frame-style state of the seed GraphEngine (the default state shape). */
export interface IGraphState {
  messages: Message[];
  /** Your data: any JSON, shallow-merged by the default reducers. */
  data: Record<string, any>;
  metadata: Record<string, any>;
  logs: string[];
  status?: GraphStatus;
  currentNode?: string | null;
  nextNode?: string | string[] | null;
  /** Node executions over the whole run (kept across resume). */
  stepCount?: number;
  error?: RunErrorInfo;
  pendingAskUser?: PendingAskUser;
  shouldPause?: boolean;
  lastToolCall?: any;
  lastModelOutput?: any;
  /** The parsed reply of an agent or LLM node with a responseFormat. */
  structuredResponse?: any;
  /** Tool calls made by agent nodes (id, name, arguments, status, result or error). */
  toolCalls?: any[];
  /** Other keys a node writes: any JSON. */
  [key: string]: any;
}

/** What a node returns: a partial state plus flow controls. */
export type NodeResult<S> = {
  [K in keyof S]?: K extends 'messages' | 'logs' ? S[K] | (S[K] extends Array<infer T> ? T : never) : S[K];
} & {
  /** Go here next, whatever the edges say. */
  nextNodeOverride?: string | null;
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
  /** Aborted when the run is interrupted or the node's timeout passes. */
  signal?: AbortSignal;
  /** In the first step after resume(): the user input given to resume. */
  resumeInput?: Message;
  /** Emit an event of your own (it reaches onEvent / stream() with node and taskId). */
  emit?: (event: { type: string; [field: string]: unknown }) => void;
  /** Count a model call this node made itself (a chat() reply): into result.usage and an llm_usage event. Agent and LLM nodes do it for you. */
  recordUsage?: (reply: Pick<ChatResult, 'tokens' | 'provider' | 'model'>) => void;
}

/** A router's answer that runs `node` with its own input (`context.arg`). */
export interface Send { node: string; arg: unknown }
export function send(node: string, arg: unknown): Send;

/** A node: a function of the state (sync or async). It must not mutate the state it is given. */
export type GraphNode<S extends object = IGraphState> =
  (state: Readonly<S>, engine: GraphEngine<S>, context: NodeContext) => NodeResult<S> | void | Promise<NodeResult<S> | void>;

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
}

/** A node that runs another graph with its own state. A pause inside pauses the parent; resume continues it. */
export interface SubgraphNodeSpec<S extends object = IGraphState, C extends object = IGraphState> {
  kind: 'subgraph';
  graph: GraphEngine<C> | GraphDefinition<C>;
  /** The child's initial state, from the parent's state (default: empty). */
  input?: (state: Readonly<S>, context: NodeContext) => Partial<C>;
  /** What the parent takes from the child's final state. */
  output?: (childState: C, state: Readonly<S>) => NodeResult<S>;
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
  /** OpenTelemetry spans for every run: the run, its nodes, model calls and tool calls (docs/tracing.md). */
  tracer?: OTelTracerLike;
  /** Put prompts, replies, tool arguments and results in the spans (default false). */
  traceContent?: boolean;
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
  | { type: 'node_end'; node: string; taskId: string; durationMs: number; error?: string; /** With error: the thrown error's code, else NODE_FAILED. */ errorCode?: string }
  | { type: 'node_retry'; node: string; taskId: string; attempt: number; error: string; delayMs: number }
  | { type: 'llm_token'; node: string; taskId: string; text: string }
  | ({ type: 'llm_usage'; taskId: string } & ModelCallUsage)
  | { type: 'tool_call'; node: string; taskId: string; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; node: string; taskId: string; id: string; name: string; status: 'ok' | 'error'; durationMs: number }
  | { type: 'route'; node: string; target: unknown }
  | { type: 'state_update'; patch: PatchOp[] }
  | { type: 'pause'; pendingAskUser: PendingAskUser | null }
  | { type: 'error'; error: RunErrorInfo }
  | { type: 'checkpoint'; threadId: string; checkpointId: number; status: GraphStatus }
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
}

/** resume({ threadId }) continues a thread's latest checkpoint; with checkpointId, forks from an earlier one. */
export interface ThreadRef { threadId: string; checkpointId?: number }

export interface ThreadState<S> { state: S; status: GraphStatus; checkpointId: number; parentId: number | null; createdAt: number; /** The step's tasks: a finished one's writes show here even when a sibling failed (the state then has neither). */ tasks: ThreadTask[] }
export interface ThreadTask { node: string; status: 'pending' | 'done' | 'failed' | (string & {}); writes?: unknown; error?: unknown }
export interface CheckpointInfo<S = unknown> { checkpointId: number; parentId: number | null; createdAt: number; status: GraphStatus; superstep: number; /** Nodes about to run. */ pendingTasks: string[]; /** Nodes whose routers are about to choose. */ routing: string[]; /** The state then: with getStateHistory(id, { values: true }). */ values?: S }
/** A page of a thread's history: `limit` checkpoints older than `before` (a checkpointId), newest first. */
export interface HistoryOptions { limit?: number; before?: number; values?: boolean }

interface RunResultBase<S> {
  state: S;
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
  /** userInput: a message (appended to messages once) or an approval decision (approve(), reject(), editArguments()). */
  resume(saved: Resumable<S>, userInput?: Message | ApprovalDecision, options?: RunOptions<S>): Promise<GraphRunResult<S>>;
  /** A thread's latest state, or that of one checkpoint (needs a checkpointer). */
  getState(threadId: string, checkpointId?: number): Promise<ThreadState<S> | undefined>;
  /** A thread's checkpoints, newest first. */
  getStateHistory(threadId: string, options?: HistoryOptions): Promise<CheckpointInfo<S>[]>;
  /** Remove a thread's checkpoints from the store. */
  deleteThread(threadId: string): Promise<void>;
  stream(initialState?: Partial<S>, options?: RunOptions<S>): AsyncIterable<GraphEvent<S>>;
  streamResume(saved: Resumable<S>, userInput?: Message | ApprovalDecision, options?: RunOptions<S>): AsyncIterable<GraphEvent<S>>;
  toMermaid(): string;
  /** Queue a message for the next execute() (seed API); a system message becomes the system prompt. */
  addMessage(message: Message): void;
  /** The history trimmed to the token budget: of `state.messages`, else the run in progress (or last), else addMessage()'s. */
  getMessagesForLLM(state?: { messages?: Message[] }): Message[];
  dispose(): void;
  [Symbol.dispose](): void;
}

/** Anything that counts the tokens of a text (an Encoding from edgegraph/tokenizer). */
export interface TextTokenCounter { countText(text: string): number }

export interface ChatHistoryConfig {
  /** The budget (default 8192). */
  maxContextTokens?: number;
  /** Exact counts; default: the documented estimate (README "Token counting"). */
  tokenizer?: TextTokenCounter;
  /** Called when the protected messages alone exceed the budget. */
  onWarning?: (warning: { type: 'over_budget'; tokens: number; maxContextTokens: number }) => void;
}

/** The seed's IChatHistoryManager: a chat history trimmed to a token budget. */
export class ChatHistoryManager {
  constructor(config?: ChatHistoryConfig);
  readonly maxContextTokens: number;
  /** What the last getTrimmedHistory() did. */
  lastTrim: { tokens: number; dropped: number; overBudget: boolean } | null;
  addSystemPrompt(prompt: string): void;
  /** Returns the message's id (assigned when missing). */
  addMessage(message: Message): string;
  getTrimmedHistory(): Message[];
  getRemainingBudget(): number;
  clearHistory(): void;
  editMessage(messageId: string, newContent: Message['content']): void;
  deleteMessageRange(startId: string, endId: string): void;
  getMessageById(messageId: string): Message | undefined;
  exportHistory(): Message[];
  importHistory(messages: Message[]): void;
  dispose(): void;
  [Symbol.dispose](): void;
}

export class GraphBuilder<S extends object = IGraphState> {
  addNode(name: string, node: GraphNode<S> | NodeSpec<S>): this;
  addEdge(from: string, to: string | string[]): this;
  addConditionalEdge(from: string, router: Router<S> | { path: string; cases?: Record<string, string>; default?: string }, targets?: string[]): this;
  setEntryPoint(name: string): this;
  setState(state: 'frame' | 'partitioned' | StateSchema): this;
  build(): GraphDefinition<S>;
}

/** A state of partitions (seed 002). */
export interface GraphState<I = unknown> {
  readonly input: I;
  scratch: Record<string, any>;
  artifacts: Record<string, any>;
  memory: Record<string, any>;
  diagnostics: Record<string, any>;
  currentNodeId: string | null;
  visitedNodes: string[];
  iteration: number;
}

export type ReducerFunction = (current: any, incoming: any) => unknown;

/** Pure state updates with reducers by dotted path; every method returns a new state. */
export class StateManager {
  constructor(reducers?: Record<string, ReducerName | ReducerFunction>);
  initialize<I>(input: I): GraphState<I>;
  updateScratch<I>(state: GraphState<I>, patch: Record<string, unknown>): GraphState<I>;
  updateArtifacts<I>(state: GraphState<I>, patch: Record<string, unknown>): GraphState<I>;
  updateMemory<I>(state: GraphState<I>, patch: Record<string, unknown>): GraphState<I>;
  recordNodeVisit<I>(state: GraphState<I>, nodeId: string): GraphState<I>;
  mergeParallelBranches<I>(baseState: GraphState<I>, branchStates: GraphState<I>[]): GraphState<I>;
  dispose(): void;
  [Symbol.dispose](): void;
}

/** The END node of the seed API; its function never runs. */
/** Returns the definition as given: in TypeScript, nodes and routers of a definition kept in a variable get typed arguments. */
export function defineGraph<S extends object = IGraphState>(definition: GraphDefinition<Given<S>>): GraphDefinition<S>;

export function createEndNode<S extends object = IGraphState>(): GraphNode<S>;
export const END: '__end__';

/** Load the WebAssembly core (the runtime entry points do this for you). */
export function init(source: WebAssembly.Module | BufferSource | URL | string | Response | Promise<Response>): Promise<void>;
export function initSync(source: WebAssembly.Module | BufferSource): boolean;
export function isInitialized(): boolean;
/** Bytes of WebAssembly memory the core holds (it grows, never shrinks). */
export function memoryUsage(): { wasmMemoryBytes: number };

/** Apply a state_update patch to a copy of the state you keep yourself. */
export function applyPatch(root: object, ops: PatchOp[]): void;

// ---- LLM client ----

/** Token counts in edgegraph's own shape, whatever the provider calls them. */
export interface TokenCounts {
  /** All input tokens, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedTokens: number;
  totalTokens: number;
}
/** One model call of a run. */
export interface ModelCallUsage {
  node: string;
  provider: string;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}
/** result.usage: the totals and each call. */
export interface RunUsage extends TokenCounts {
  calls: ModelCallUsage[];
}

/** The wire protocol of a ChatClient; or a provider object from edgegraph/providers/<name>. */
export type ProviderName = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';
/** A provider's translation between edgegraph's messages and its API (see docs/providers.md). */
export interface Provider {
  readonly name: string;
  readonly baseURL: string;
  path(model: string, stream: boolean): string;
  headers(apiKey: string | undefined): Record<string, string>;
  body(request: object): object;
  reply(json: unknown, fail: (what: string) => never, failHttp?: (message: string) => never): object;
  decoder(fail: (what: string) => never, failHttp: (message: string) => never): { push(event: unknown): object[]; end(): object };
}

/**
 * An AI SDK language model (specification v2, v3 or v4 of @ai-sdk/provider), accepted by its shape:
 * pass it as `llm`. edgegraph has no dependency on the AI SDK.
 */
export interface LanguageModelLike {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: any): PromiseLike<any>;
  doStream?(options: any): PromiseLike<any>;
}

export interface ChatClientConfig {
  model: string;
  /** The wire protocol (default 'openai', chat completions). 'openai-responses', 'anthropic' and
   *  'gemini' are loaded on first use; a provider object imported from edgegraph/providers/<name> works too. */
  provider?: ProviderName | Provider;
  /** Anthropic needs max_tokens: the default when neither this nor the request's max_tokens is set (4096). */
  maxTokens?: number;
  /** Default: the provider's (https://api.openai.com/v1, https://api.anthropic.com/v1,
   *  https://generativelanguage.googleapis.com/v1beta). For 'openai', any server speaking /chat/completions. An http(s) URL
   *  (or, in a page, a root path such as '/v1'), checked when the client is made; its query is
   *  kept (Azure's ?api-version=). */
  baseURL?: string;
  /** Sent as the provider's credential (Bearer token, x-api-key, x-goog-api-key); never written to state, checkpoints, events or errors. */
  apiKey?: string;
  /** Request body defaults (temperature, max_tokens, ...). */
  defaults?: Record<string, unknown>;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Per request; for streams, the longest gap between chunks (default 60000). */
  timeoutMs?: number;
  /** Retries on 429, 5xx and network errors (default 2); Retry-After is honoured. */
  maxRetries?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Ask for usage in streams (stream_options.include_usage; default true). */
  streamUsage?: boolean;
}

/**
 * A Standard Schema (https://standardschema.dev: Zod, Valibot, ArkType...), by
 * shape: the library is never imported. `~standard.jsonSchema` is the Standard
 * JSON Schema interface, where the library implements it.
 */
export interface StandardSchemaLike<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) =>
      | { readonly value: Output; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> }> }
      | Promise<{ readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> }> }>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?: { readonly input: (options: { target: string }) => Record<string, unknown> };
  };
}
/** The value a Standard Schema gives after validation. */
export type InferSchemaOutput<S> = S extends StandardSchemaLike<any, infer O> ? O : any;

export interface ToolDefinition<A = any> {
  name: string;
  description?: string;
  /**
   * The arguments' schema: JSON Schema, or a Standard Schema (Zod 4, Valibot...)
   * whose own validator checks them before run() (which gets its output).
   */
  parameters?: Record<string, unknown> | StandardSchemaLike<unknown, A>;
  /** The JSON Schema the model gets, for a Standard Schema whose library cannot convert itself (Valibot). */
  jsonSchema?: Record<string, unknown>;
  run(args: A, context: { signal?: AbortSignal; toolCallId: string; state: unknown }): unknown | Promise<unknown>;
  /** Pause the run for a human decision before calling. */
  needsApproval?: boolean | ((args: A) => boolean);
}

/**
 * Declare a tool: returns it as given. Its `run` and `needsApproval` get typed
 * arguments (`A`, default any) where a plain object literal would leave them untyped.
 */
export function tool<S extends StandardSchemaLike<any, any>>(definition: Omit<ToolDefinition<InferSchemaOutput<S>>, 'parameters'> & { parameters: S }): ToolDefinition<InferSchemaOutput<S>>;
export function tool<A = any>(definition: ToolDefinition<A>): ToolDefinition<A>;

export interface ChatRequest {
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: unknown;
  /** Structured output (structured-output.js makes it strict for OpenAI); mapped to each provider's own field (docs/providers.md). */
  responseFormat?: { name?: string; schema: Record<string, unknown>; strict?: boolean; description?: string };
  signal?: AbortSignal;
  stream?: boolean;
  onToken?: (text: string) => void;
  model?: string;
  [bodyField: string]: unknown;
}

export interface ChatResult {
  message: Message;
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string | null;
  /** The usage as the provider sent it (OpenAI's prompt_tokens, Anthropic's input_tokens, Gemini's usageMetadata, ...). */
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number; [field: string]: unknown } | null;
  /** The same in edgegraph's shape, for every provider. */
  tokens: TokenCounts | null;
  model: string | null;
  provider: string;
}

export class ChatClient {
  constructor(config: ChatClientConfig);
  readonly model: string;
  readonly provider: string;
  readonly baseURL: string;
  chat(request: ChatRequest): Promise<ChatResult>;
  stream(request: ChatRequest): AsyncIterable<
    | { type: 'token'; text: string }
    | { type: 'tool_call_delta'; index: number; id: string; name: string; argumentsDelta: string }
    | { type: 'done'; result: ChatResult }>;
}
export function createChatClient(config: ChatClientConfig | ChatClient): ChatClient;
/** An AI SDK model as a client: chat() only. */
export function createChatClient(model: LanguageModelLike): { readonly provider: string; readonly model: string; chat(request: ChatRequest): Promise<ChatResult> };

export class LLMError extends EdgegraphError {
  readonly status?: number;
  readonly providerMessage?: string;
  readonly attempts?: number;
  /** The request URL, secret query values (key, token, sig, ...) replaced by [redacted]. */
  readonly url?: string;
  /** For LLM_NETWORK_ERROR: the system error under it, e.g. 'ECONNREFUSED', 'ENOTFOUND'. */
  readonly causeCode?: string;
  /** The provider that answered (or failed to): 'openai', 'anthropic', 'gemini', 'openai-responses', an AI SDK model's provider. */
  readonly provider?: string;
}

// ---- agents ----

export interface AgentNodeConfig {
  /** A client config, a client, or an AI SDK language model; default: the engine's llmConfig. */
  llm?: ChatClientConfig | ChatClient | LanguageModelLike;
  mode?: 'chat' | 'react';
  agentInfo?: { name?: string; goal?: string; backstory?: string };
  tools?: ToolDefinition[];
  systemPrompt?: string;
  /** LLM -> tools -> LLM rounds before giving up (default 8). */
  maxToolRounds?: number;
  /** Stream the reply (llm_token events); default true. */
  stream?: boolean;
  /** Extra request body fields (temperature, ...). */
  request?: Record<string, unknown>;
  /** Ask for JSON of a schema; the parsed, validated reply goes to state.structuredResponse. */
  responseFormat?: ResponseFormat;
}

/**
 * Structured output: the model answers JSON of `schema` (JSON Schema or a
 * Standard Schema, validated by its own library). strict (default true) sends
 * the schema in OpenAI's strict form (every property required, optional ones
 * nullable, additionalProperties false).
 */
export interface ResponseFormat {
  name: string;
  schema: Record<string, unknown> | StandardSchemaLike<any, any>;
  /** The JSON Schema to send, for a Standard Schema whose library cannot convert itself (Valibot). */
  jsonSchema?: Record<string, unknown>;
  strict?: boolean;
  description?: string;
}

export function createAgentNode<S extends object = IGraphState>(config: AgentNodeConfig): GraphNode<S>;
/** One LLM call with the trimmed history (seed 004's LLM node). */
export function createLLMNode<S extends object = IGraphState>(config: { llm?: ChatClientConfig | ChatClient | LanguageModelLike; tools?: ToolDefinition[]; systemPrompt?: string; stream?: boolean; request?: Record<string, unknown>; responseFormat?: ResponseFormat }): GraphNode<S>;
/** Runs the last assistant message's tool calls, with approvals (seed 004's tools node). */
export function createToolsNode<S extends object = IGraphState>(config: { tools: ToolDefinition[] }): GraphNode<S>;
/** An edge: to `toolsNode` when the last message asks for tools, else to `end`. */
export function routeOnToolCalls<S extends object = IGraphState>(toolsNode?: string, end?: string): { router: Router<S>; targets: string[] };
/** Pauses with a question; on resume stores the answer in state.data[answerKey]. */
export function createAskUserNode<S extends object = IGraphState>(config: { question: string | ((state: Readonly<S>) => string); answerKey?: string }): GraphNode<S>;

export type ApprovalDecision =
  | { decision: 'approve'; toolCallId?: string }
  | { decision: 'reject'; reason: string; toolCallId?: string }
  | { decision: 'edit'; arguments: unknown; toolCallId?: string }
  | { decisions: Array<{ decision: 'approve' | 'reject' | 'edit'; toolCallId?: string; reason?: string; arguments?: unknown }> };
export function approve(toolCallId?: string): ApprovalDecision;
export function reject(reason?: string, toolCallId?: string): ApprovalDecision;
export function editArguments(args: unknown, toolCallId?: string): ApprovalDecision;

// ---- MCP ----

/** A connected MCP client, by shape: the official SDK's Client fits. */
export interface McpClientLike {
  listTools(params?: { cursor?: string }): Promise<{ tools: Array<{ name: string; title?: string; description?: string; inputSchema?: object }>; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: any, options?: { signal?: AbortSignal }): Promise<unknown>;
  getServerVersion?(): { name: string } | undefined;
}
export interface McpToolsOptions {
  /** Pause for approval: every tool (true), these tool names, or per call. */
  needsApproval?: boolean | string[] | ((name: string, args: any) => boolean);
  /** Put before each tool name (to keep two servers' tools apart). */
  prefix?: string;
  /** The server's name in MCP_ERROR messages (default: the name it gave when connecting). */
  serverName?: string;
}
/** The tools of an MCP server (every page of tools/list) as agent tools. */
export function mcpTools(client: McpClientLike, options?: McpToolsOptions): Promise<ToolDefinition[]>;

/** The JSON Schema subset tools use; returns the problems, each naming its path. */
export function validateJsonSchema(schema: unknown, value: unknown, path?: string): string[];

// ---- checkpoints ----

/** Where checkpoints live: string keys and values; each put atomic for its key. */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  /** Write only if the key is absent, atomically: true when this call wrote it. Without it (or with exclusive: false) runs of a thread are not exclusive, and edgegraph warns once. */
  create?(key: string, value: string): Promise<boolean>;
  exclusive?: boolean;
  delete(key: string): Promise<void>;
  /** Keys with this prefix, sorted. */
  list(prefix?: string): Promise<string[]>;
}

export class MemoryStore implements KeyValueStore {
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  create(key: string, value: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
  /** Bytes held. */
  readonly size: number;
}
export class LocalStorageStore implements KeyValueStore {
  /** `locks`: navigator.locks (the default), which makes create exclusive across tabs. */
  constructor(storage?: Storage, prefix?: string, locks?: LockManager);
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  create(key: string, value: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
}
export class IndexedDBStore implements KeyValueStore {
  constructor(name?: string, factory?: IDBFactory);
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  create(key: string, value: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
}
/** Node, Deno and Bun only (the node entry): files in a folder, written atomically. */
export class FileStore implements KeyValueStore {
  constructor(dir: string);
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
  create(key: string, value: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
}
/** IndexedDB, else localStorage, else memory. */
export function browserStore(name?: string): KeyValueStore;
/** Durable Object storage, Workers KV, or any async get/put/delete/list({ prefix }). */
export function kvStore(kv: {
  get(key: string): Promise<unknown>;
  put(key: string, value: string): Promise<unknown>;
  delete(key: string): Promise<unknown>;
  list(options: { prefix: string }): Promise<Map<string, unknown> | { keys: Array<{ name: string }> } | string[]>;
  /** Durable Object storage: create-if-absent runs in one transaction. */
  transaction?: unknown;
}): KeyValueStore;

/** What SqlStore needs of a database: rows of a query, and a statement run; both with ? bindings. */
export interface SqlAdapter {
  all(query: string, ...bindings: unknown[]): Promise<Array<Record<string, any>>>;
  run(query: string, ...bindings: unknown[]): Promise<unknown>;
}
/** Checkpoints in SQLite-flavoured SQL: edgegraph_records, keyed (thread_id, id); a record is one INSERT ... ON CONFLICT DO NOTHING. The node and workerd entries (not the browser one). */
export class SqlStore {
  constructor(adapter: SqlAdapter);
}
export interface SqlStore extends KeyValueStore { create(key: string, value: string): Promise<boolean> }
/** Durable Object SQLite storage (ctx.storage.sql of a class in new_sqlite_classes). */
export function doSqlStore(sql: { exec(query: string, ...bindings: any[]): { toArray(): any[] } }): SqlStore;
/** Cloudflare D1 (a D1Database binding). */
export function d1Store(db: { prepare(query: string): { bind(...values: any[]): { all(): Promise<{ results?: any[] }>; run(): Promise<unknown> } } }): SqlStore;
/** Node 22.5 and later (the node entry): a SQLite file, or an open node:sqlite DatabaseSync. Without node:sqlite, its first use is INVALID_OPTIONS. */
export function sqliteStore(pathOrDatabase: string | { prepare(sql: string): any; exec(sql: string): void }): SqlStore;

/** A thread's checkpoints as records: the state's changes, with a full snapshot every snapshotEvery records. */
export class Checkpointer {
  /**
   * keepLast: keep a thread's newest N checkpoints; keepFor: those younger than this many ms (with
   * both, either keeps one); and the older records they are built from.
   * leaseMs (300000): how long a mid-run latest checkpoint means a run in flight.
   */
  constructor(store: KeyValueStore, options?: { snapshotEvery?: number; keepLast?: number; keepFor?: number; leaseMs?: number });
  readonly store: KeyValueStore;
  readonly snapshotEvery: number;
  readonly keepLast: number | undefined;
  readonly keepFor: number | undefined;
  readonly leaseMs: number;
  load(threadId: string, id?: number): Promise<{ id: number; parent: number | null; createdAt: number; status: GraphStatus; state: unknown; checkpoint: string } | undefined>;
  history(threadId: string, options?: HistoryOptions): Promise<Array<{ id: number; parent: number | null; createdAt: number; status: GraphStatus; superstep: number; pendingTasks: string[]; routing: string[]; values?: unknown }>>;
  deleteThread(threadId: string): Promise<void>;
}

// ---- server-sent events ----

/** A Response streaming a run's events as server-sent events. */
/** `init.signal`: the request's signal; a client that leaves aborts the run. */
/** The arrows of a JSON graph definition (engine.definition), as toMermaid() and diagrams draw them. */
export function graphEdges(definition: object): Array<{ from: string; to: string; label: string; conditional: boolean }>;
/** Whether `name` is an END node of the definition. */
export function isEndNode(definition: object, name: string): boolean;

export function eventStreamResponse(events: AsyncIterable<GraphEvent<any>>, init?: ResponseInit & { keepAliveMs?: number; signal?: AbortSignal }): Response;
export function toServerSentEvents(events: AsyncIterable<GraphEvent<any>>, options?: { keepAliveMs?: number; signal?: AbortSignal }): ReadableStream<Uint8Array>;
/** Events back from a Response (or byte stream) of server-sent events. */
export function readServerSentEvents(source: Response | ReadableStream<Uint8Array>): AsyncIterable<Record<string, unknown> & { type: string }>;
/** An event as JSON-safe data (run_end carries status, state, checkpoint and error). */
export function eventData(event: GraphEvent<any>): Record<string, unknown>;
