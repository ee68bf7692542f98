// Types of `edgegraph/langgraph`: LangGraph.js's API on edgegraph's core.
// State is JSON: messages come back as edgegraph's plain messages.

import { EdgegraphError, GraphInterrupt } from 'edgegraph';
import type { ErrorCode, Message } from 'edgegraph';

export declare const START: '__start__';
export declare const END: '__end__';

/** One channel of the state: a last value, or a reducer with an optional default. */
export interface Channel<T> {
  readonly __value?: T;
  reducer?: (current: T, update: any) => T;
  default?: () => T;
}

/** What a state key may be declared as. */
export type ChannelDeclaration = Channel<any> | ((...args: any[]) => Channel<any>) | null | { reducer?: (a: any, b: any) => any; default?: () => any };

type ValueOf<C> = C extends Channel<infer T> ? T : C extends (...args: any[]) => Channel<infer T> ? T : C extends { default: () => infer T } ? T : any;

/** The state described by a record of channels. */
export type StateOf<S> = { [K in keyof S]: ValueOf<S[K]> };

/** What may be written to a state: each key optional, a message list also as LangChain messages or strings. */
export type UpdateOf<S> = { [K in keyof S]?: (S[K] extends Message[] ? S[K] | MessageLike | MessageLike[] : S[K]) | Overwrite<S[K]> };

export interface AnnotationRoot<S extends Record<string, ChannelDeclaration>> {
  spec: S;
  /** The state type: `typeof Root.State`. */
  State: StateOf<S>;
  /** A node's update: `typeof Root.Update`. */
  Update: UpdateOf<StateOf<S>>;
}

/** A channel; T is any unless given (a default never narrows it: `() => []` is not `never[]`). */
export declare function Annotation<T = any>(spec?: { reducer?: (current: T, update: any) => T; default?: () => [T][T extends any ? 0 : never] }): Channel<T>;
export declare namespace Annotation {
  function Root<S extends Record<string, ChannelDeclaration>>(spec: S): AnnotationRoot<S>;
}

/** A removal of the message with this id from a messages channel. */
export declare class RemoveMessage {
  constructor(fields: { id: string });
  readonly type: 'remove';
  readonly id: string;
}
/** A write that replaces a channel's value instead of going through its reducer (`{ items: new Overwrite([]) }`). */
export declare class Overwrite<T = unknown> {
  constructor(value: T);
  readonly value: T;
}

/** Drops every message before it: `new RemoveMessage({ id: REMOVE_ALL_MESSAGES })`. */
export declare const REMOVE_ALL_MESSAGES: '__remove_all__';

/** A message as nodes may write it: edgegraph's plain message, a LangChain message (by shape), a string, a removal. */
export type MessageLike = Message | RemoveMessage | string | { _getType(): string; content: unknown; id?: string };

/**
 * LangGraph's message reducer: appends; an existing id replaces; a removal deletes
 * (an unknown id throws); messages get ids. Returns plain messages.
 */
export declare function messagesStateReducer(left: MessageLike | MessageLike[], right: MessageLike | MessageLike[]): Message[];
export declare const addMessages: typeof messagesStateReducer;
/** A LangChain message (or a plain one) as edgegraph's plain message. */
export declare function toPlainMessage(message: MessageLike): Message;

export declare const MessagesAnnotation: AnnotationRoot<{ messages: Channel<Message[]> }>;

/** A tool as ToolNode calls it: a LangChain tool (`tool()`, a StructuredTool), or anything named with this invoke. */
export interface ToolLike { name: string; invoke(call: { id?: string; name: string; args: any; type: 'tool_call' }, runtime?: any): unknown }
/**
 * LangGraph's prebuilt ToolNode: as a node, runs the tool calls of the last assistant message not
 * answered yet, in parallel, and writes their tool messages. A tool's error becomes a tool message
 * with status 'error' unless `handleToolErrors` is false. (LangGraph's own ToolNode runs so too.)
 */
export declare class ToolNode {
  constructor(tools: ToolLike[], options?: { handleToolErrors?: boolean });
  tools: ToolLike[];
  handleToolErrors: boolean;
  invoke(input: { messages: MessageLike[] }, config?: object): Promise<unknown>;
}
/** 'tools' while the last message (of a state's messages, or of a list) calls tools, else END. */
export declare function toolsCondition(state: { messages: ReadonlyArray<object> } | ReadonlyArray<object>): 'tools' | typeof END;

/** Run `node` with `args` as its whole input. */
export declare class Send<A = any> {
  constructor(node: string, args: A);
  readonly node: string;
  readonly args: A;
}

/** Route and update from a node; resume, update or go elsewhere when a paused run continues (invoke(command, config)). */
export declare class Command<R = unknown> {
  static readonly PARENT: '__parent__';
  /** `graph: Command.PARENT` (or 'PARENT'): the update and goto are for the graph that runs this one as a node. */
  constructor(fields?: { resume?: R; update?: Record<string, unknown> | Array<[string, unknown]>; goto?: string | Send | Array<string | Send>; graph?: '__parent__' | 'PARENT' });
  readonly lg_name: 'Command';
  readonly resume?: R;
  readonly update?: Record<string, unknown> | Array<[string, unknown]>;
  readonly goto?: string | Send | Array<string | Send>;
  readonly graph?: '__parent__' | 'PARENT';
}
export declare function isCommand(value: unknown): value is Command;

/**
 * Pause the run from inside a node; returns the answer once the run is resumed with
 * `new Command({ resume })`. Works during a node's synchronous call in every runtime, and after
 * an await where AsyncLocalStorage exists; `config.interrupt` works everywhere.
 */
export declare function interrupt<T = unknown, R = any>(value: T): R;
export declare function isGraphInterrupt(e: unknown): boolean;
/** The key of a paused invoke()'s result (and of a values chunk) that lists the pending interrupts. */
export declare const INTERRUPT: '__interrupt__';
/** Whether `values` (an invoke() result, a values chunk) holds pending interrupts. */
export declare function isInterrupted<Value = unknown>(values: unknown): values is { __interrupt__: Array<{ id: string; value: Value }> };
/**
 * The running node's config (what its second argument holds, made anew), for code the node calls
 * without passing it on; undefined outside a node. Found as interrupt() finds its node: during the
 * node's synchronous call in every runtime, after an await where AsyncLocalStorage exists.
 */
export declare function getConfig(): NodeConfig | undefined;
/** The running node's writer to the 'custom' stream mode: `config`'s, else getConfig()'s; CONFIG_OUTSIDE_NODE when there is none. */
export declare function getWriter(config?: { writer: (chunk: unknown) => void }): (chunk: unknown) => void;
/** What the running node was given (its first argument: the state, or a Send's argument), for a tool it calls; CONFIG_OUTSIDE_NODE outside a node without a config. */
export declare function getCurrentTaskInput<T = any>(config?: NodeConfig): T;

export type StreamMode = 'values' | 'updates' | 'custom' | 'messages' | 'tasks' | 'checkpoints' | 'debug';

/** A run's config, as LangGraph's RunnableConfig (the parts edgegraph reads). */
export interface LangGraphConfig {
  /** checkpoint_ns: a paused subgraph's namespace (a task's `state` config), for getState and updateState. */
  configurable?: { thread_id?: string; checkpoint_id?: string; checkpoint_ns?: string; [key: string]: unknown };
  recursionLimit?: number;
  streamMode?: StreamMode | StreamMode[];
  subgraphs?: boolean;
  /** stream(): 'text/event-stream', its chunks as server-sent events (bytes: a Response's body). */
  encoding?: 'text/event-stream';
  signal?: AbortSignal;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A node's second argument. */
export interface NodeConfig extends LangGraphConfig {
  /** interrupt() bound to this node's task: works after any await, in every runtime. */
  interrupt<R = any>(value: unknown): R;
  /** Writes a chunk to the 'custom' stream mode. */
  writer: (chunk: unknown) => void;
  /** LangChain callback handlers (by shape): pass `config` to a chat model for the 'messages' mode. */
  callbacks?: unknown[];
  metadata: { langgraph_node: string; langgraph_step: number; langgraph_task_id: string; [key: string]: unknown };
}

export interface RetryPolicy {
  maxAttempts?: number;
  initialInterval?: number;
  backoffFactor?: number;
  maxInterval?: number;
  jitter?: boolean;
  retryOn?: (error: any) => boolean;
  logWarning?: boolean;
}

/** A node's cache policy: results reused for an equal input (or an equal keyFunc([input])) within `ttl` seconds. */
export interface CachePolicy {
  ttl?: number;
  keyFunc?: (args: unknown[]) => string;
}

export { InMemoryCache } from 'edgegraph';
import type { NodeCache } from 'edgegraph';

export interface StateSnapshot<S> {
  values: S;
  next: string[];
  /** A paused subgraph node's task has `state`: the child's snapshot with getState(config, { subgraphs: true }), else its namespace's config. */
  tasks: Array<{ name: string; interrupts: Array<{ id: string; value: any }>; state?: StateSnapshot<any> | { configurable: { thread_id: string; checkpoint_ns: string } } }>;
  config: { configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string } };
  parentConfig?: { configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string } };
  metadata?: { source: 'input' | 'loop' | 'update' | 'fork'; step: number; parents: Record<string, string> };
  createdAt?: string;
}

/** A node's result; `U`: its update type (a StateSchema's `Update`, else UpdateOf the state). */
type NodeResult<S, U = UpdateOf<S>> = U | Command | Array<U | Command> | null | undefined | void;
type NodeFn<S, U = UpdateOf<S>> = (state: S, config: NodeConfig) => NodeResult<S, U> | Promise<NodeResult<S, U>>;
/** The update type of what StateGraph was given: a StateSchema's `Update`, else UpdateOf its state. */
type SchemaUpdate<T> = T extends StateSchema<any> ? T['Update'] : T extends { state: StateSchema<any> } ? T['state']['Update'] : UpdateOf<SchemaState<T>>;
type Router<S> = (state: S, config: LangGraphConfig) => string | Send | Array<string | Send> | Promise<string | Send | Array<string | Send>>;

type SchemaState<T> = T extends StateSchema<any> ? T['State'] : T extends AnnotationRoot<infer S> ? StateOf<S> : T extends { channels: infer C } ? StateOf<C> : T extends { stateSchema: AnnotationRoot<infer S> } ? StateOf<S> : T extends { state: StateSchema<any> } ? T['state']['State'] : any;

/**
 * `new StateGraph(schema, options?)`: an Annotation.Root, `{ channels }`, `{ stateSchema | state, input, output }`, a Zod
 * object, or a record of channels; `options`: LangGraph 1.x's `{ input, output }` schemas (or a context schema, which shapes no state).
 */
export interface StateGraphConstructor {
  new <T extends object>(schema: T, options?: { input?: object; output?: object } | object): StateGraph<SchemaState<T>, SchemaUpdate<T>>;
}
export declare const StateGraph: StateGraphConstructor;
/** LangGraph 1.7's timeout of a node's try: milliseconds, or { runTimeout } (an idleTimeout is refused: INVALID_DEFINITION). */
export type NodeTimeout = number | { runTimeout?: number; idleTimeout?: never; refreshOn?: 'auto' | 'heartbeat' };
/** What a node's errorHandler gets: the node whose last try failed, and what it threw. */
export declare class NodeError { constructor(node: string, error: unknown); node: string; error: any; }
export declare function isNodeError(e: unknown): e is NodeError;
/** LangGraph 1.7's node policies, per node (addNode's options) or for every node (setNodeDefaults). */
export interface NodePolicies<S = any> {
  retryPolicy?: RetryPolicy;
  cachePolicy?: CachePolicy | boolean;
  timeout?: NodeTimeout;
  /** After the node's last try failed: its result (an update or a Command) is the node's. */
  errorHandler?: (state: S, error: NodeError, config: NodeConfig) => Record<string, unknown> | Command | Promise<Record<string, unknown> | Command>;
}
export interface StateGraph<S = any, U = UpdateOf<S>> {
  /** Graph-wide node policies (a node's own win), applied at compile(). */
  setNodeDefaults(defaults: NodePolicies<S>): this;
  /** A node with an input schema of its own (an Annotation.Root): it gets those channels, and may write channels the graph's state does not declare (private state). */
  addNode<I extends AnnotationRoot<any> | StateSchema<any>>(name: string, node: (state: SchemaState<I>, config: NodeConfig) => Record<string, unknown> | Command | Promise<Record<string, unknown> | Command>, options: NodePolicies<SchemaState<I>> & { input: I; ends?: string[]; defer?: boolean }): this;
  addNode(name: string, node: NodeFn<S, U> | CompiledStateGraph<any> | ToolNode | { invoke(input: any, config?: any): unknown }, options?: NodePolicies<S> & { input?: unknown; ends?: string[]; subgraphs?: unknown[]; defer?: boolean }): this;
  addNode(nodes: Record<string, NodeFn<S, U>>): this;
  addEdge(from: string | string[], to: string): this;
  addConditionalEdges(from: string, path: Router<S>, pathMap?: string[] | Record<string, string>): this;
  addConditionalEdges(spec: { source: string; path: Router<S>; pathMap?: string[] | Record<string, string> }): this;
  addSequence(nodes: Array<NodeFn<S, U> | [string, NodeFn<S, U>]> | Record<string, NodeFn<S, U>>): this;
  setEntryPoint(name: string): this;
  setFinishPoint(name: string): this;
  compile(options?: { checkpointer?: BaseCheckpointSaver | object; interruptBefore?: string[] | '*'; interruptAfter?: string[] | '*'; name?: string; cache?: NodeCache }): CompiledStateGraph<S, U>;
}

/** stream()'s result, as LangChain's IterableReadableStream: iterate it, or use it as a web ReadableStream (cancelling it, or leaving the loop, stops the run). */
export interface IterableReadableStream<T> extends AsyncIterableIterator<T> {
  readonly locked: boolean;
  cancel(reason?: unknown): Promise<void>;
  getReader(): ReadableStreamDefaultReader<T>;
  pipeThrough<U>(transform: ReadableWritablePair<U, T>, options?: StreamPipeOptions): ReadableStream<U>;
  pipeTo(destination: WritableStream<T>, options?: StreamPipeOptions): Promise<void>;
  tee(): [ReadableStream<T>, ReadableStream<T>];
}

export declare class CompiledStateGraph<S = any, U = UpdateOf<S>> {
  /** With a streamMode other than 'values': its chunks, as stream() gives them. */
  invoke(input: U | Command | null | undefined, config: LangGraphConfig & { streamMode: Exclude<StreamMode, 'values'> | StreamMode[] }): Promise<any[]>;
  /** The final state; a paused run's also has `__interrupt__: [{ id, value }]`. A Command (or null) continues the thread. */
  invoke(input: U | Command | null | undefined, config?: LangGraphConfig): Promise<S & { __interrupt__?: Array<{ id: string; value: any }> }>;
  /** Writes `values` through the reducers as node `asNode` would (END: the thread ends); returns the new checkpoint's config. */
  updateState(config: LangGraphConfig, values: U | null, asNode?: string): Promise<{ configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string } }>;
  dispose(): void;
  /** Chunks of `config.streamMode` ('updates' by default); several modes give [mode, chunk]; subgraphs: true adds the namespace first. */
  /** With `encoding: 'text/event-stream'`: server-sent events (`event: <mode>[|<namespace>]`, `data: <chunk JSON>`) as bytes, a Response's body. */
  stream(input: U | Command | null | undefined, config: LangGraphConfig & { encoding: 'text/event-stream' }): Promise<ReadableStream<Uint8Array>>;
  stream(input: U | Command | null | undefined, config?: LangGraphConfig): Promise<IterableReadableStream<any>>;
  /** invoke() of each input, together (LangChain's Runnable.batch). */
  batch(inputs: Array<U | Command | null>, config: LangGraphConfig | LangGraphConfig[] | undefined, options: { returnExceptions: true }): Promise<Array<(S & { __interrupt__?: Array<{ id: string; value: any }> }) | Error>>;
  batch(inputs: Array<U | Command | null>, config?: LangGraphConfig | LangGraphConfig[], options?: { returnExceptions?: false }): Promise<Array<S & { __interrupt__?: Array<{ id: string; value: any }> }>>;
  /** The compiled graphs used as its nodes, as [name, graph] (with `recurse`, theirs too, named `<node>|<child node>`). */
  getSubgraphs(namespace?: string, recurse?: boolean): Generator<[string, CompiledStateGraph<any>]>;
  getSubgraphsAsync(namespace?: string, recurse?: boolean): AsyncGenerator<[string, CompiledStateGraph<any>]>;
  getState(config: LangGraphConfig, options?: { subgraphs?: boolean }): Promise<StateSnapshot<S>>;
  /** Forget the results compile({ cache }) keeps for this graph's nodes. */
  clearCache(): Promise<void>;
  /** Newest first; `before`: only checkpoints older than that config's; `filter`: metadata values each must have (`{ source: 'loop', step: 2 }`). */
  getStateHistory(config: LangGraphConfig, options?: { limit?: number; before?: LangGraphConfig; filter?: Record<string, unknown> }): AsyncIterable<StateSnapshot<S>>;
  withConfig(config: LangGraphConfig): CompiledStateGraph<S, U>;
  /** The graph as data, as LangGraph's: nodes by id, edges (a conditional one's `data`: its path map's key), and the Mermaid diagram. */
  getGraph(): { nodes: Record<string, { id: string; name: string }>; edges: Array<{ source: string; target: string; conditional: boolean; data?: string }>; drawMermaid(): string };
  /** getGraph(), as a promise (LangGraph's visualization how-to's). */
  getGraphAsync(): Promise<ReturnType<CompiledStateGraph<S, U>['getGraph']>>;
}

/** Checkpoints in any edgegraph store (MemoryStore, FileStore, browserStore(), kvStore()). */
export declare class BaseCheckpointSaver {
  constructor(store: { get(key: string): unknown; put(key: string, value: string): unknown; delete(key: string): unknown; list(prefix: string): unknown });
  readonly store: object;
  /** LangGraph's read API: a thread's latest checkpoint (or `configurable.checkpoint_id`'s). */
  getTuple(config: LangGraphConfig): Promise<CheckpointTuple | undefined>;
  get(config: LangGraphConfig): Promise<CheckpointTuple['checkpoint'] | undefined>;
  list(config: LangGraphConfig, options?: { limit?: number }): AsyncIterable<CheckpointTuple>;
  /** Forget every checkpoint of the thread. */
  deleteThread(threadId: string): Promise<void>;
}
export interface CheckpointTuple {
  config: { configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string } };
  checkpoint: { v: 1; id: string; ts: string; channel_values: Record<string, unknown> };
  metadata: { status: string };
  parentConfig?: { configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string } };
}
export declare class MemorySaver extends BaseCheckpointSaver {
  constructor();
}

/** LangGraph's error classes take (message, extra), as LangGraph's do; each keeps an edgegraph code. */
export declare class BaseLangGraphError extends EdgegraphError { constructor(message?: string, extra?: { node?: string; cause?: unknown; code?: ErrorCode; lc_error_code?: string }); lc_error_code?: string; }
export declare class GraphRecursionError extends BaseLangGraphError { constructor(message: string, extra?: { node?: string; cause?: unknown }); readonly name: 'GraphRecursionError'; readonly lc_error_code: 'GRAPH_RECURSION_LIMIT'; }
export declare class InvalidUpdateError extends BaseLangGraphError { constructor(message: string, extra?: { node?: string; cause?: unknown; code?: ErrorCode }); readonly name: 'InvalidUpdateError'; readonly lc_error_code: 'INVALID_CONCURRENT_GRAPH_UPDATE' | 'INVALID_GRAPH_NODE_RETURN_VALUE'; }
export declare class UnreachableNodeError extends BaseLangGraphError { constructor(message: string, extra?: { node?: string; cause?: unknown }); readonly name: 'UnreachableNodeError'; readonly lc_error_code: 'UNREACHABLE_NODE'; }
export declare class GraphValidationError extends BaseLangGraphError { constructor(message: string, extra?: { node?: string; cause?: unknown; code?: ErrorCode }); readonly name: 'GraphValidationError'; }
export declare class EmptyInputError extends BaseLangGraphError { constructor(message: string); readonly name: 'EmptyInputError'; }
export declare function isGraphRecursionError(e: unknown): e is GraphRecursionError;
/** A node's try past its `timeout` (a run's error, and its task's in getState()). */
export declare class NodeTimeoutError extends BaseLangGraphError { readonly name: 'NodeTimeoutError'; node?: string; kind?: 'run'; }
export declare function isNodeTimeoutError(e: unknown): e is NodeTimeoutError;
export declare class UnknownInterruptError extends BaseLangGraphError { readonly name: 'UnknownInterruptError'; reason?: 'not_pending' | 'empty_map' | 'ambiguous'; }
export declare function isUnknownInterruptError(e: unknown): e is UnknownInterruptError;
export declare class GraphValueError extends BaseLangGraphError { readonly name: 'GraphValueError'; }
export declare class EmptyChannelError extends BaseLangGraphError { readonly name: 'EmptyChannelError'; }
export declare class StateGraphInputError extends BaseLangGraphError { readonly name: 'StateGraphInputError'; }
export declare class MultipleSubgraphsError extends BaseLangGraphError { readonly name: 'MultipleSubgraphError'; }
export declare class RemoteException extends BaseLangGraphError { readonly name: 'RemoteException'; }

/** What a Standard Schema (Zod, Valibot, ArkType) parses to, and takes: read from its `~standard.types`; `any` for anything else. */
export type SchemaOutput<S> = S extends { '~standard': { types?: { output: infer O } } } ? O : any;
export type SchemaInput<S> = S extends { '~standard': { types?: { input: infer I } } } ? I : any;

/** A field whose value a reducer computes from its writes; its value schema's `.default()` starts it. */
export interface ReducedValue<Value = any, Input = Value> {
  readonly ValueType: Value;
  readonly InputType: Input;
  valueSchema: unknown;
  inputSchema: unknown;
  reducer: (current: Value, next: Input) => Value;
  jsonSchemaExtra?: Record<string, unknown>;
}
export interface ReducedValueConstructor {
  new <VS, IS = VS>(valueSchema: VS, init: { inputSchema?: IS; reducer: (current: SchemaOutput<VS>, next: SchemaOutput<IS>) => SchemaOutput<VS>; jsonSchemaExtra?: Record<string, unknown> }): ReducedValue<SchemaOutput<VS>, SchemaOutput<IS>>;
  isInstance(value: unknown): value is ReducedValue;
}
export declare const ReducedValue: ReducedValueConstructor;

/** LangGraph's DeltaValue (beta): a reducer folding a list of writes. Here its value is checkpointed as any channel's. */
export interface DeltaValue<Value = any, Input = Value> {
  readonly ValueType: Value;
  readonly InputType: Input;
  readonly snapshotFrequency?: number;
  valueSchema: unknown;
  inputSchema: unknown;
  reducer: (current: Value, writes: Input[]) => Value;
}
export interface DeltaValueConstructor {
  new <VS, IS = VS>(valueSchema: VS, init: { inputSchema?: IS; reducer: (current: SchemaOutput<VS>, writes: Array<SchemaOutput<IS>>) => SchemaOutput<VS>; snapshotFrequency?: number; jsonSchemaExtra?: Record<string, unknown> }): DeltaValue<SchemaOutput<VS>, SchemaOutput<IS>>;
  isInstance(value: unknown): value is DeltaValue;
}
export declare const DeltaValue: DeltaValueConstructor;

/** A field LangGraph keeps out of checkpoints; here a last-value channel, checkpointed (`guard: false`: the last of a step's writes). */
export interface UntrackedValue<Value = any> {
  readonly ValueType: Value;
  schema: unknown;
  guard: boolean;
}
export interface UntrackedValueConstructor {
  new <S = undefined>(schema?: S, init?: { guard?: boolean }): UntrackedValue<S extends undefined ? any : SchemaOutput<S>>;
  isInstance(value: unknown): value is UntrackedValue;
}
export declare const UntrackedValue: UntrackedValueConstructor;

/** The messages field: LangGraph's message reducer, `[]` by default. */
export declare const MessagesValue: ReducedValue<Message[], MessageLike | MessageLike[]>;
export declare const MessagesDeltaValue: DeltaValue<Message[], MessageLike | MessageLike[]>;

type FieldValue<F> = F extends ReducedValue<infer V, any> ? V : F extends DeltaValue<infer V, any> ? V : F extends UntrackedValue<infer V> ? V : SchemaOutput<F>;
type FieldUpdate<F> = F extends ReducedValue<infer V, infer I> ? I | Overwrite<V> : F extends DeltaValue<infer V, infer I> ? I | Overwrite<V> : F extends UntrackedValue<infer V> ? V : SchemaInput<F>;

/** A state declaration (LangGraph 1.x's): fields of Standard Schemas, ReducedValue, UntrackedValue, MessagesValue. */
export declare class StateSchema<F extends Record<string, any>> {
  constructor(fields: F);
  readonly fields: F;
  /** The state type: `typeof State.State` (types only). */
  State: { [K in keyof F]: FieldValue<F[K]> };
  /** A node's update: `typeof State.Update` (types only). */
  Update: { [K in keyof F]?: FieldUpdate<F[K]> };
  /** A node of this state (types only). */
  Node: NodeFn<{ [K in keyof F]: FieldValue<F[K]> }, { [K in keyof F]?: FieldUpdate<F[K]> }>;
  /** Its channels as StateGraph reads them. */
  readonly spec: Record<string, { reducer?: (a: any, b: any) => any; default?: () => any }>;
  getChannels(): Record<string, { reducer?: (a: any, b: any) => any; default?: () => any }>;
  getChannelKeys(): string[];
  getAllKeys(): string[];
  getJsonSchema(): { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  getInputJsonSchema(): { type: 'object'; properties: Record<string, unknown> };
  /** Each field of `data` parsed with its schema (StateGraph does not call it here). */
  validateInput<T>(data: T): Promise<T>;
  static isInstance(value: unknown): value is StateSchema<any>;
}
export declare function isStandardSchema(schema: unknown): boolean;
export declare function getSchemaDefaultGetter(schema: unknown): (() => unknown) | undefined;
export declare function getJsonSchemaFromSchema(schema: unknown): Record<string, unknown> | undefined;

/** Thrown by interrupt() (and NodeInterrupt): a pause, which a node's catch-all rethrows. */
export { GraphInterrupt } from 'edgegraph';
/** `throw new NodeInterrupt(value)` in a node: the run pauses there (a dynamic breakpoint); `invoke(null, config)` runs the node again. */
export declare class NodeInterrupt extends GraphInterrupt {
  constructor(value: unknown, fields?: { lc_error_code?: string });
  readonly name: 'NodeInterrupt';
}
/** A Command for the parent graph, thrown (a subgraph node's result); a graph invoked in a node throws one when it hands off. */
export declare class ParentCommand extends Error {
  constructor(command: Command);
  readonly name: 'ParentCommand';
  command: Command;
  readonly is_bubble_up: true;
}
export declare function isParentCommand(e: unknown): e is ParentCommand;
/** Whether `e` leaves a node without failing it (an interrupt, a NodeInterrupt, a ParentCommand): rethrow it. */
export declare function isGraphBubbleUp(e: unknown): boolean;
/** `e instanceof GraphBubbleUp` is isGraphBubbleUp(e): an interrupt, a NodeInterrupt, a ParentCommand. */
export declare class GraphBubbleUp extends BaseLangGraphError { readonly is_bubble_up: true; }
