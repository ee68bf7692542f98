// provider-gemini.js: Google's Gemini API (POST {baseURL}/models/{model}:generateContent,
// streamed :streamGenerateContent?alt=sse; https://ai.google.dev/api/generate-content).
// edgegraph's messages become `contents` of role user / model with parts
// (text, inlineData, fileData, functionCall, functionResponse); the system
// prompt is systemInstruction; the results of one round of tools are one user
// turn of functionResponse parts, in the order of the calls. Gemini gives its
// calls no ids (or not always): edgegraph names them, and pairs them back by
// position. Import it as edgegraph/providers/gemini, or name it: llm: { provider: 'gemini' }.

import { splitSystem, partsOf, textOf, toolSpec, tokens, assistantMessage, schemaInstruction } from './llm-messages.js';

const FINISH = { STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content_filter', RECITATION: 'content_filter', BLOCKLIST: 'content_filter', PROHIBITED_CONTENT: 'content_filter', SPII: 'content_filter', IMAGE_SAFETY: 'content_filter' };
// Part kinds a model turn may hold that carry nothing edgegraph keeps.
const SILENT_PARTS = ['inlineData', 'fileData', 'executableCode', 'codeExecutionResult'];
const MIME = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', heic: 'image/heic' };

function partOf(p) {
  if (p.type === 'text') return { text: p.text };
  if (p.data !== undefined) return { inlineData: { mimeType: p.mediaType, data: p.data } };
  const ext = /\.([a-z]+)(?:[?#]|$)/i.exec(p.url)?.[1]?.toLowerCase();
  return { fileData: { mimeType: MIME[ext] ?? 'image/jpeg', fileUri: p.url } };
}

function argsOf(text) {
  try { return JSON.parse(text || '{}'); } catch { return {}; }
}

/** contents: user / model turns; a tool result answers its call by the call's name. */
function contentsOf(messages) {
  const names = new Map();
  const turns = [];
  for (const m of messages) {
    let role = 'user', parts;
    if (m.role === 'assistant') {
      role = 'model';
      parts = partsOf(m.content).filter((p) => p.type !== 'text' || p.text).map(partOf);
      for (const c of m.tool_calls ?? []) {
        names.set(c.id, c.function.name);
        parts.push({ functionCall: { name: c.function.name, args: argsOf(c.function.arguments) }, ...(c.thoughtSignature ? { thoughtSignature: c.thoughtSignature } : {}) });
      }
    } else if (m.role === 'tool') {
      parts = [{ functionResponse: { name: names.get(m.tool_call_id) ?? m.name ?? 'unknown', response: { result: textOf(m.content) } } }];
    } else {
      parts = partsOf(m.content).filter((p) => p.type !== 'text' || p.text).map(partOf);
    }
    if (!parts.length) continue;
    const last = turns.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else turns.push({ role, parts });
  }
  return turns;
}

function toolConfigOf(choice) {
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  const name = choice?.function?.name ?? choice?.name;
  return name ? { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } } : undefined;
}

const usageOf = (u) => (u ? tokens(u.promptTokenCount, (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0), u.cachedContentTokenCount) : null);

let named = 0;
/** A call id unique in this process and across resumes (the time, a counter). */
const callId = () => `call_${Date.now().toString(36)}${(named++).toString(36)}`;

/** The text and calls of one candidate's parts; a part of no known kind is a broken reply. */
function readParts(parts, fail, into) {
  for (const [i, part] of (parts ?? []).entries()) {
    if (typeof part?.text === 'string') { if (!part.thought) into.text += part.text; continue; }
    if (part?.functionCall) {
      const { name, args, id } = part.functionCall;
      if (typeof name !== 'string' || !name) fail(`has functionCall part ${i} without a name`);
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) fail(`has functionCall '${name}' whose args are not an object`);
      into.calls.push({ id: id ?? callId(), name, arguments: JSON.stringify(args ?? {}), thoughtSignature: part.thoughtSignature });
      continue;
    }
    if (part?.functionResponse) fail(`has a functionResponse part (${i}), which only a user turn may hold`);
    if (!SILENT_PARTS.some((k) => part?.[k]) && !part?.thoughtSignature) fail(`has part ${i} of no known kind (${Object.keys(part ?? {}).join(', ') || 'empty'})`);
  }
}

function resultOf(into, finish, usage, model, fail) {
  if (finish === 'MALFORMED_FUNCTION_CALL') fail('stopped with MALFORMED_FUNCTION_CALL: the model wrote a function call Gemini could not parse');
  const finishReason = into.calls.length && finish === 'STOP' ? 'tool_calls' : FINISH[finish] ?? finish ?? null;
  return { message: assistantMessage(into.text, into.calls), finishReason, stopReason: finish ?? null, usage: usage ?? null, tokens: usageOf(usage), model: model ?? null };
}

export const gemini = {
  name: 'gemini',
  baseURL: 'https://generativelanguage.googleapis.com/v1beta',
  path: (model, stream) => `/models/${encodeURIComponent(String(model).replace(/^models\//, ''))}${stream ? ':streamGenerateContent?alt=sse' : ':generateContent'}`,
  headers: (apiKey) => (apiKey ? { 'x-goog-api-key': apiKey } : {}),

  body({ messages, tools, toolChoice, responseFormat, maxTokens, options }) {
    const { max_tokens, max_completion_tokens, temperature, top_p, stop, tool_choice, parallel_tool_calls, stream_options, generationConfig, ...rest } = options;
    const { system, rest: conversation } = splitSystem(messages);
    const body = { ...rest, contents: contentsOf(conversation) };
    // Gemini refuses a JSON response type with function calling: with tools, the schema is asked in words.
    const inWords = responseFormat && tools?.length ? schemaInstruction(responseFormat) : '';
    const systemText = [system, inWords].filter(Boolean).join('\n\n');
    if (systemText) body.systemInstruction = { parts: [{ text: systemText }] };
    if (tools?.length) {
      body.tools = [{ functionDeclarations: tools.map(toolSpec).map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }];
      const config = toolConfigOf(toolChoice ?? tool_choice);
      if (config) body.toolConfig = config;
    }
    const gen = { ...(generationConfig ?? {}) };
    const maxOut = max_tokens ?? max_completion_tokens ?? maxTokens;
    if (maxOut !== undefined) gen.maxOutputTokens = maxOut;
    if (temperature !== undefined) gen.temperature = temperature;
    if (top_p !== undefined) gen.topP = top_p;
    if (stop !== undefined) gen.stopSequences = Array.isArray(stop) ? stop : [stop];
    if (responseFormat && !inWords) Object.assign(gen, { responseMimeType: 'application/json', responseJsonSchema: responseFormat.schema });
    if (Object.keys(gen).length) body.generationConfig = gen;
    return body;
  },

  reply(data, fail) {
    if (!data || typeof data !== 'object' || (!Array.isArray(data.candidates) && !data.promptFeedback)) fail('has neither candidates nor promptFeedback');
    const candidate = data.candidates?.[0];
    const into = { text: '', calls: [] };
    if (candidate?.content?.role !== undefined && candidate.content.role !== 'model') fail(`has a candidate of role '${candidate.content.role}', not 'model'`);
    readParts(candidate?.content?.parts, fail, into);
    const finish = candidate?.finishReason ?? (data.promptFeedback?.blockReason ? 'SAFETY' : undefined);
    return resultOf(into, finish, data.usageMetadata, data.modelVersion, fail);
  },

  /** Each event a GenerateContentResponse: text pieces, whole function calls, the finish reason and usage with the last. */
  decoder(fail, failHttp) {
    const into = { text: '', calls: [] };
    let finish, usage, model;
    return {
      push(event) {
        if (event?.error) return failHttp(`the LLM server reported an error mid-stream: ${event.error.message ?? JSON.stringify(event.error)}`);
        model ??= event?.modelVersion;
        if (event?.usageMetadata) usage = event.usageMetadata;
        const candidate = event?.candidates?.[0];
        if (!candidate) {
          if (event?.promptFeedback?.blockReason) finish = 'SAFETY';
          return [];
        }
        const piece = { text: '', calls: [] };
        readParts(candidate.content?.parts, fail, piece);
        const out = [];
        if (piece.text) { into.text += piece.text; out.push({ type: 'token', text: piece.text }); }
        for (const c of piece.calls) {
          out.push({ type: 'tool_call_delta', index: into.calls.length, id: c.id, name: c.name, argumentsDelta: c.arguments });
          into.calls.push(c);
        }
        if (candidate.finishReason) finish = candidate.finishReason;
        return out;
      },
      end() {
        if (!finish) fail('stream ended before a finishReason (truncated)');
        return resultOf(into, finish, usage, model, fail);
      },
    };
  },
};
