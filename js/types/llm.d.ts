// Types of edgegraph: model calls: providers, clients, tools, usage (re-exported by js/index.d.ts).

import { EdgegraphError, Message, ToolCall } from './core.js';

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
