// provider-ai-sdk.js: any AI SDK language model (an object implementing the
// specification of @ai-sdk/provider: specificationVersion 'v2', 'v3' or 'v4',
// provider, modelId, doGenerate, doStream) driven as edgegraph's model.
// Duck-typed, no dependency: edgegraph's messages become the specification's
// prompt (system / user / assistant / tool messages with text, file,
// tool-call and tool-result parts), and its content or stream parts become an
// assistant message. Loaded by llm.js when `llm` is such a model.

import { splitSystem, partsOf, textOf, toolSpec, tokens, assistantMessage } from './llm-messages.js';

const FINISH = { 'tool-calls': 'tool_calls', 'content-filter': 'content_filter' };

/** An image part as the specification's file part: v4 wraps the data ({ type: 'data' | 'url' }), v2 and v3 do not. */
function filePart(p, version) {
  if (p.data !== undefined) return { type: 'file', mediaType: p.mediaType, data: version === 'v4' ? { type: 'data', data: p.data } : p.data };
  const url = new URL(p.url);
  return { type: 'file', mediaType: 'image/*', data: version === 'v4' ? { type: 'url', url } : url };
}

function promptOf(messages, version) {
  const { system, rest } = splitSystem(messages);
  const prompt = system ? [{ role: 'system', content: system }] : [];
  const names = new Map();
  for (const m of rest) {
    if (m.role === 'tool') {
      const part = { type: 'tool-result', toolCallId: m.tool_call_id, toolName: names.get(m.tool_call_id) ?? '', output: { type: 'text', value: textOf(m.content) } };
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(part);
      else prompt.push({ role: 'tool', content: [part] });
      continue;
    }
    const content = partsOf(m.content).map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : filePart(p, version)));
    if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) {
        names.set(c.id, c.function.name);
        let input = {};
        try { input = JSON.parse(c.function.arguments || '{}'); } catch { /* recorded as sent */ }
        content.push({ type: 'tool-call', toolCallId: c.id, toolName: c.function.name, input });
      }
    }
    prompt.push({ role: m.role === 'assistant' ? 'assistant' : 'user', content });
  }
  return prompt;
}

function toolChoiceOf(choice) {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  const name = choice?.function?.name ?? choice?.name;
  return name ? { type: 'tool', toolName: name } : undefined;
}

/** The specification's call options from a chat request. */
function callOptions(request, version) {
  const { messages, tools, toolChoice, responseFormat, signal, max_tokens, max_completion_tokens, temperature, top_p, stop, seed } = request;
  const options = { prompt: promptOf(messages, version) };
  if (tools?.length) options.tools = tools.map(toolSpec).map((t) => ({ type: 'function', name: t.name, description: t.description, inputSchema: t.parameters }));
  const choice = tools?.length ? toolChoiceOf(toolChoice) : undefined;
  if (choice) options.toolChoice = choice;
  if (responseFormat) options.responseFormat = { type: 'json', schema: responseFormat.schema, name: responseFormat.name };
  const maxOut = max_tokens ?? max_completion_tokens;
  if (maxOut !== undefined) options.maxOutputTokens = maxOut;
  if (temperature !== undefined) options.temperature = temperature;
  if (top_p !== undefined) options.topP = top_p;
  if (stop !== undefined) options.stopSequences = Array.isArray(stop) ? stop : [stop];
  if (seed !== undefined) options.seed = seed;
  if (signal) options.abortSignal = signal;
  return options;
}

/** v2 counts are numbers; v3 and v4 nest them ({ total, cacheRead }). */
const count = (x) => (typeof x === 'number' ? x : x?.total);
function usageOf(u) {
  if (!u) return null;
  const cached = typeof u.inputTokens === 'object' ? u.inputTokens?.cacheRead : u.cachedInputTokens;
  return tokens(count(u.inputTokens), count(u.outputTokens), cached);
}
const finishOf = (f) => { const r = typeof f === 'object' ? f?.unified : f; return FINISH[r] ?? r ?? null; };

/**
 * One call: doStream when the caller streams (and the model can), else doGenerate.
 * @returns {Promise<{ message, finishReason, usage, tokens, model }>}
 */
export async function generate(model, request, { fail, onToken, stream }) {
  const version = model.specificationVersion;
  const options = callOptions(request, version);
  const calls = [];
  let text = '';
  if (stream && typeof model.doStream === 'function') {
    const { stream } = await model.doStream(options);
    let finish = null, usage = null, finished = false, modelId = null;
    const reader = stream.getReader();
    try {
      for (;;) {
        const { value: part, done } = await reader.read();
        if (done) break;
        if (part.type === 'text-delta') { const delta = part.delta ?? part.textDelta ?? ''; text += delta; if (delta) onToken?.(delta); }
        else if (part.type === 'tool-call' && !part.providerExecuted) calls.push({ id: part.toolCallId, name: part.toolName, arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {}) });
        else if (part.type === 'response-metadata') modelId = part.modelId ?? modelId;
        else if (part.type === 'finish') { finish = part.finishReason; usage = part.usage; finished = true; }
        else if (part.type === 'error') throw Object.assign(new Error(String(part.error?.message ?? part.error)), { fromStream: true, statusCode: part.error?.statusCode });
      }
    } finally { reader.releaseLock?.(); }
    if (!finished) fail("stream ended before its 'finish' part (truncated)");
    return { message: assistantMessage(text, calls), finishReason: finishOf(finish), usage: usage ?? null, tokens: usageOf(usage), model: modelId ?? model.modelId ?? null };
  }
  const result = await model.doGenerate(options);
  for (const part of result?.content ?? []) {
    if (part.type === 'text') text += part.text ?? '';
    else if (part.type === 'tool-call' && !part.providerExecuted) calls.push({ id: part.toolCallId, name: part.toolName, arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {}) });
  }
  if (!Array.isArray(result?.content)) fail('has no content array');
  if (text) onToken?.(text);
  return { message: assistantMessage(text, calls), finishReason: finishOf(result.finishReason), usage: result.usage ?? null, tokens: usageOf(result.usage), model: result.response?.modelId ?? model.modelId ?? null };
}
