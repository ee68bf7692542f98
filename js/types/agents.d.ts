// Types of edgegraph: agent, LLM, tools and question nodes; MCP tools (re-exported by js/index.d.ts).

import { ApprovalDecision, IGraphState } from './core.js';
import { GraphNode, Router } from './engine.js';
import { ChatClient, ChatClientConfig, LanguageModelLike, StandardSchemaLike, ToolDefinition } from './llm.js';

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
