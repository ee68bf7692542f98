// Types of edgegraph: statuses, the error class, messages, pauses, approvals and the default state (re-exported by js/index.d.ts).

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
  | 'MIGRATION_FAILED'
  | 'UNKNOWN_INTERRUPT' | 'MISSING_RESUME_ANSWER' | 'INTERRUPT_OUTSIDE_NODE' | 'CONFIG_OUTSIDE_NODE' | 'FOREIGN_ZOD_REDUCER';

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

export type ApprovalDecision =
  | { decision: 'approve'; toolCallId?: string }
  | { decision: 'reject'; reason: string; toolCallId?: string }
  | { decision: 'edit'; arguments: unknown; toolCallId?: string }
  | { decisions: Array<{ decision: 'approve' | 'reject' | 'edit'; toolCallId?: string; reason?: string; arguments?: unknown }> };
