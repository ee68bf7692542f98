// Types for edgegraph/testing: a scripted offline stand-in for an OpenAI-compatible server.

export interface ScriptedRequest { messages: Array<Record<string, unknown>>; tools?: unknown[]; model: string; /** The request's response_format, when it asks for JSON of a schema. */ responseFormat?: { type: string; json_schema?: { name: string; schema?: Record<string, unknown>; strict?: boolean } } }
export type ScriptedAnswer = string | { content?: string | null; toolCalls?: Array<{ id?: string; name: string; arguments: object | string }> };

/** A `fetch` that answers chat completions (JSON or streamed) from `respond`. */
export function createScriptedFetch(
  respond: (request: ScriptedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>,
  options?: { chunkSize?: number; delayMs?: number },
): typeof fetch;

/**
 * Throws (an Error with `status`, `param`, `code`, `type`) where api.openai.com refuses a
 * chat-completions request body with HTTP 400; returns nothing for a valid one.
 */
export function validateChatRequest(body: unknown): void;
