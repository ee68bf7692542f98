// llm-messages.js: edgegraph's one message and tool-call model, and the
// helpers every provider uses to translate it. The model is the shape
// state.messages has always had (OpenAI chat's):
//   { role: 'system' | 'user' | 'assistant' | 'tool',
//     content: string | null | Array<{ type: 'text', text } | { type: 'image_url', image_url: { url } }>,
//     tool_calls?: [{ id, type: 'function', function: { name, arguments: '<JSON text>' }, thoughtSignature? }],   // assistant
//     tool_call_id?: string }                                                             // tool
// A provider (provider-*.js) is a plain object, no classes and no imports but
// this file, so each one bundles on its own:
//   name, baseURL                      the default endpoint
//   path(model, stream)                appended to baseURL ('/messages', '/models/m:generateContent?alt=sse')
//   headers(apiKey)                    its authentication headers
//   body(request)                      { messages, tools, toolChoice, responseFormat, model, stream, options } -> JSON body
//   reply(json, fail)                  one reply -> { message, finishReason, usage, tokens, model }
//   decoder(fail)                      { push(event) -> deltas, end() -> the same as reply }
// `fail(what)` throws LLM_BAD_RESPONSE naming the provider; deltas are
// { type: 'token', text } and { type: 'tool_call_delta', index, id, name, argumentsDelta }.

/** The system text (all system messages joined) and the other messages. */
export function splitSystem(messages) {
  const system = messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).filter(Boolean).join('\n\n');
  return { system, rest: messages.filter((m) => m.role !== 'system') };
}

/** The text of a content (a string, or the text parts of an array). */
export function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((p) => p?.type === 'text').map((p) => p.text).join('');
}

/**
 * A content as parts: { type: 'text', text } and { type: 'image', url } or
 * { type: 'image', mediaType, data } (a data: URL, split into its base64 data).
 */
export function partsOf(content) {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return content.map((p) => {
    if (p?.type !== 'image_url') return { type: 'text', text: p?.text ?? '' };
    const url = p.image_url?.url ?? '';
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    return data ? { type: 'image', mediaType: data[1], data: data[2] } : { type: 'image', url };
  });
}

/** A tool in any accepted shape ({ name, parameters } or chat's { type: 'function', function }) as { name, description, parameters }. */
export function toolSpec(t) {
  const f = t?.type === 'function' && t.function ? t.function : t;
  return { name: f.name, description: f.description ?? '', parameters: f.parameters ?? { type: 'object', properties: {} } };
}

/** Arguments as an object, from JSON text; `fail` when they are not a JSON object. */
export function argumentsObject(text, fail, where) {
  let value;
  try { value = JSON.parse(text || '{}'); } catch { fail(`has ${where} whose arguments are not JSON: ${String(text).slice(0, 80)}`); }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(`has ${where} whose arguments are not a JSON object`);
  return value;
}

/** Token counts in edgegraph's own shape. */
export function tokens(inputTokens, outputTokens, cachedTokens) {
  const input = inputTokens ?? 0, output = outputTokens ?? 0;
  return { inputTokens: input, outputTokens: output, cachedTokens: cachedTokens ?? 0, totalTokens: input + output };
}

/** An assistant message from text and calls ({ id, name, arguments: JSON text }). */
export function assistantMessage(text, calls) {
  const message = { role: 'assistant', content: text === '' ? null : text };
  // thoughtSignature: Gemini's, handed back with the call in the next request (its thinking models require it).
  if (calls.length) message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments }, ...(c.thoughtSignature ? { thoughtSignature: c.thoughtSignature } : {}) }));
  return message;
}

/** OpenAI's authentication header (chat completions and Responses). */
export const bearer = (apiKey) => (apiKey ? { authorization: `Bearer ${apiKey}` } : {});

/** Structured output asked in words, where a provider has no field for it (or not with tools). */
export const schemaInstruction = (format) => `Answer with one JSON value only, no prose, that matches this JSON Schema:\n${JSON.stringify(format.schema)}`;
