// llm-openai.js: OpenAI chat completions (POST {baseURL}/chat/completions),
// also spoken by Ollama, vLLM, OpenRouter, LM Studio, Groq and Azure. Its
// messages are edgegraph's own, so the translation is a copy of known fields.
// The interface of a provider: llm-messages.js. Built in (the default), the others are provider-*.js.

import { toolSpec, tokens, bearer } from './llm-messages.js';

// Only these message fields go to the server: some providers reject others
// (edgegraph's history adds an `id` to every message).
const MESSAGE_FIELDS = ['role', 'content', 'name', 'tool_calls', 'tool_call_id'];

function wireMessage(m) {
  const out = {};
  for (const k of MESSAGE_FIELDS) if (m[k] !== undefined) out[k] = m[k];
  if (out.role === 'assistant' && out.content === undefined) out.content = null;
  // Only OpenAI's fields of a call (one made by Gemini carries its thoughtSignature).
  if (out.tool_calls) out.tool_calls = out.tool_calls.map((c) => ({ id: c.id, type: c.type ?? 'function', function: c.function }));
  return out;
}

function wireTool(t) {
  if (t?.type === 'function' && t.function) return t;
  const { name, description, parameters } = toolSpec(t);
  return { type: 'function', function: { name, description, parameters } };
}

const tokensOf = (u) => (u ? tokens(u.prompt_tokens, u.completion_tokens, u.prompt_tokens_details?.cached_tokens) : null);

export const openai = {
  name: 'openai',
  baseURL: 'https://api.openai.com/v1',
  path: () => '/chat/completions',
  headers: bearer,

  body({ messages, tools, toolChoice, responseFormat, model, stream, streamUsage, options }) {
    const body = { ...options, model, messages: messages.map(wireMessage) };
    if (tools?.length) body.tools = tools.map(wireTool);
    // Tool options (from shared defaults) without tools: OpenAI answers 400 ("only allowed when 'tools' are specified").
    else { delete body.tool_choice; delete body.parallel_tool_calls; }
    if (toolChoice !== undefined) body.tool_choice = toolChoice;
    if (responseFormat) {
      const { name = 'response', schema, strict, description } = responseFormat;
      body.response_format = { type: 'json_schema', json_schema: { name, schema, ...(strict !== undefined ? { strict } : {}), ...(description ? { description } : {}) } };
    }
    if (stream) {
      body.stream = true;
      if (streamUsage) body.stream_options = { include_usage: true, ...(body.stream_options ?? {}) };
    }
    return body;
  },

  reply(data, fail) {
    const choice = data?.choices?.[0];
    if (!choice?.message) fail('has no choices[0].message');
    const m = choice.message;
    const message = { role: 'assistant', content: m.content ?? null };
    if (m.tool_calls?.length) message.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function?.name ?? '', arguments: c.function?.arguments ?? '' } }));
    return { message, finishReason: choice.finish_reason ?? null, usage: data.usage ?? null, tokens: tokensOf(data.usage), model: data.model ?? null };
  },

  /** Chunks: text deltas, tool-call deltas by index, usage, finish reason, then [DONE]. */
  decoder(fail, failHttp) {
    let content = '', sawContent = false, done = false;
    let finishReason = null, usage = null, model = null;
    const calls = [];
    return {
      push(event) {
        if (event === '[DONE]') { done = true; return []; }
        if (event.error) failHttp(`the LLM server reported an error mid-stream: ${event.error.message ?? JSON.stringify(event.error)}`);
        model ??= event.model ?? null;
        if (event.usage) usage = event.usage;
        const choice = event.choices?.[0];
        if (!choice) return [];
        if (choice.finish_reason) finishReason = choice.finish_reason;
        const out = [];
        const delta = choice.delta ?? {};
        if (typeof delta.content === 'string' && delta.content) {
          content += delta.content;
          sawContent = true;
          out.push({ type: 'token', text: delta.content });
        }
        for (const d of delta.tool_calls ?? []) {
          const i = d.index ?? calls.length;
          const slot = (calls[i] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
          if (d.id) slot.id = d.id;
          if (d.function?.name) slot.function.name += d.function.name;
          if (d.function?.arguments) slot.function.arguments += d.function.arguments;
          out.push({ type: 'tool_call_delta', index: i, id: slot.id, name: slot.function.name, argumentsDelta: d.function?.arguments ?? '' });
        }
        return out;
      },
      end() {
        if (!done && !finishReason) fail('stream ended before [DONE] (truncated)');
        const message = { role: 'assistant', content: sawContent ? content : null };
        const toolCalls = calls.filter(Boolean);
        if (toolCalls.length) message.tool_calls = toolCalls;
        return { message, finishReason, usage, tokens: tokensOf(usage), model };
      },
    };
  },
};
