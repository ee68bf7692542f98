// provider-responses.js: OpenAI's Responses API (POST {baseURL}/responses,
// https://platform.openai.com/docs/api-reference/responses). edgegraph's
// messages become input items: messages (input_text / input_image parts),
// function_call and function_call_output items paired by call_id; the system
// prompt is `instructions`. Every request carries the whole conversation and
// store: false (edgegraph keeps the state; nothing is left on OpenAI's side).
// Import it as edgegraph/providers/openai-responses, or name it:
// llm: { provider: 'openai-responses' }.

import { splitSystem, partsOf, textOf, toolSpec, tokens, assistantMessage, bearer } from './llm-messages.js';

// Output items that carry nothing edgegraph keeps (a reasoning model's summary).
const SILENT_ITEMS = ['reasoning'];

function inputOf(messages) {
  const items = [];
  for (const m of messages) {
    if (m.role === 'tool') { items.push({ type: 'function_call_output', call_id: m.tool_call_id, output: textOf(m.content) }); continue; }
    if (m.role === 'assistant') {
      const text = textOf(m.content);
      if (text) items.push({ type: 'message', role: 'assistant', content: text });
      for (const c of m.tool_calls ?? []) items.push({ type: 'function_call', call_id: c.id, name: c.function.name, arguments: c.function.arguments || '{}' });
      continue;
    }
    const parts = partsOf(m.content);
    const content = parts.some((p) => p.type === 'image')
      ? parts.map((p) => (p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: p.url ?? `data:${p.mediaType};base64,${p.data}`, detail: 'auto' }))
      : textOf(m.content);
    items.push({ type: 'message', role: 'user', content });
  }
  return items;
}

function toolChoiceOf(choice) {
  if (choice === undefined || typeof choice === 'string') return choice;
  const name = choice?.function?.name ?? choice?.name;
  return name ? { type: 'function', name } : choice;
}

const usageOf = (u) => (u ? tokens(u.input_tokens, u.output_tokens, u.input_tokens_details?.cached_tokens) : null);

/** The finish of a response object: completed, incomplete (why), failed (an error). */
function finishOf(response, calls, failHttp) {
  if (response.status === 'failed') failHttp(`the LLM server reported a failed response: ${response.error?.message ?? 'no message'}`);
  if (response.status === 'incomplete') return response.incomplete_details?.reason === 'max_output_tokens' ? 'length' : 'content_filter';
  return calls.length ? 'tool_calls' : 'stop';
}

/** The text and calls of a response's output items; an item of no known type is a broken reply. */
function readOutput(output, fail) {
  let text = '';
  const calls = [];
  for (const [i, item] of (output ?? []).entries()) {
    if (item?.type === 'message') {
      for (const part of item.content ?? []) {
        if (part?.type === 'output_text') text += part.text ?? '';
        else if (part?.type === 'refusal') text += part.refusal ?? '';
        else fail(`has output[${i}] content of unknown type '${part?.type}'`);
      }
    } else if (item?.type === 'function_call') {
      if (!item.call_id || !item.name) fail(`has function_call output[${i}] without ${item.call_id ? 'a name' : 'a call_id'}`);
      calls.push({ id: item.call_id, name: item.name, arguments: item.arguments ?? '' });
    } else if (!SILENT_ITEMS.includes(item?.type)) fail(`has output[${i}] of unknown type '${item?.type}'`);
  }
  return { text, calls };
}

export const openaiResponses = {
  name: 'openai-responses',
  baseURL: 'https://api.openai.com/v1',
  path: () => '/responses',
  headers: bearer,

  body({ messages, tools, toolChoice, responseFormat, model, stream, maxTokens, options }) {
    const { max_tokens, max_completion_tokens, tool_choice, parallel_tool_calls, stream_options, response_format, ...rest } = options;
    const { system, rest: conversation } = splitSystem(messages);
    const body = { store: false, ...rest, model, input: inputOf(conversation) };
    if (system) body.instructions = system;
    const maxOut = max_tokens ?? max_completion_tokens ?? maxTokens;
    if (maxOut !== undefined) body.max_output_tokens = maxOut;
    if (tools?.length) {
      body.tools = tools.map(toolSpec).map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false }));
      const choice = toolChoiceOf(toolChoice ?? tool_choice);
      if (choice !== undefined) body.tool_choice = choice;
      if (parallel_tool_calls !== undefined) body.parallel_tool_calls = parallel_tool_calls;
    }
    if (responseFormat) body.text = { format: { type: 'json_schema', name: responseFormat.name ?? 'response', schema: responseFormat.schema, ...(responseFormat.strict !== undefined ? { strict: responseFormat.strict } : {}) } };
    if (stream) body.stream = true;
    return body;
  },

  reply(data, fail, failHttp = fail) {
    if (data?.object !== 'response' || !Array.isArray(data.output)) fail("is not a response (no object 'response' with an output array)");
    const { text, calls } = readOutput(data.output, fail);
    return { message: assistantMessage(text, calls), finishReason: finishOf(data, calls, failHttp), stopReason: data.status ?? null, usage: data.usage ?? null, tokens: usageOf(data.usage), model: data.model ?? null };
  },

  /** Typed events: output items added and done, text and argument deltas, then response.completed with usage. */
  decoder(fail, failHttp) {
    const items = [];
    let text = '', final = null, model = null;
    const itemAt = (i, event) => items[i] ?? fail(`sent ${event} for output item ${i}, which was never added`);
    return {
      push(event) {
        switch (event?.type) {
          case 'response.created': case 'response.in_progress': model ??= event.response?.model ?? null; return [];
          case 'response.output_item.added': {
            const item = event.item ?? {};
            if (item.type === 'function_call') {
              const slot = { type: 'function_call', id: item.call_id, name: item.name, arguments: item.arguments ?? '', index: items.filter((s) => s?.type === 'function_call').length };
              items[event.output_index] = slot;
              return [{ type: 'tool_call_delta', index: slot.index, id: slot.id, name: slot.name, argumentsDelta: slot.arguments }];
            }
            if (item.type === 'message' || SILENT_ITEMS.includes(item.type)) { items[event.output_index] = { type: item.type }; return []; }
            return fail(`has output item ${event.output_index} of unknown type '${item.type}'`);
          }
          case 'response.output_text.delta':
            if (itemAt(event.output_index, event.type).type !== 'message') fail(`sent text for output item ${event.output_index}, which is not a message`);
            text += event.delta ?? '';
            return event.delta ? [{ type: 'token', text: event.delta }] : [];
          case 'response.function_call_arguments.delta': {
            const slot = itemAt(event.output_index, event.type);
            if (slot.type !== 'function_call') fail(`sent arguments for output item ${event.output_index}, which is not a function_call`);
            slot.arguments += event.delta ?? '';
            return [{ type: 'tool_call_delta', index: slot.index, id: slot.id, name: slot.name, argumentsDelta: event.delta ?? '' }];
          }
          case 'response.function_call_arguments.done': itemAt(event.output_index, event.type).arguments = event.arguments; return [];
          case 'response.output_item.done': itemAt(event.output_index, event.type); return [];
          case 'response.completed': case 'response.incomplete': case 'response.failed': final = event.response ?? {}; return [];
          case 'error': return failHttp(`the LLM server reported an error mid-stream: ${event.message ?? JSON.stringify(event)}`);
          default: return [];
        }
      },
      end() {
        if (!final) fail('stream ended before response.completed (truncated)');
        const calls = items.filter((s) => s?.type === 'function_call').map((s) => ({ id: s.id, name: s.name, arguments: s.arguments }));
        return { message: assistantMessage(text, calls), finishReason: finishOf(final, calls, failHttp), stopReason: final.status ?? null, usage: final.usage ?? null, tokens: usageOf(final.usage), model: final.model ?? model };
      },
    };
  },
};
