// provider-anthropic.js: Anthropic's Messages API (POST {baseURL}/messages,
// https://docs.anthropic.com/en/api/messages and /en/api/messages-streaming).
// edgegraph's messages become Anthropic's: the system prompt a top-level
// field, content blocks (text, image, tool_use, tool_result), the results of
// one round of tools one user message, consecutive turns of one role merged
// (roles must alternate). Import it as edgegraph/providers/anthropic, or name
// it: llm: { provider: 'anthropic' }.

import { splitSystem, partsOf, textOf, toolSpec, tokens, assistantMessage, schemaInstruction } from './llm-messages.js';

const VERSION = '2023-06-01';
// Anthropic needs max_tokens; this is what a request without one asks for.
const DEFAULT_MAX_TOKENS = 4096;
const STOP = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter', pause_turn: 'pause' };
// Extended thinking: kept on the assistant message (`thinking_blocks`) and sent back before its
// tool_use blocks, as Anthropic requires while thinking is on; shown to no one else.
const THINKING = ['thinking', 'redacted_thinking'];

function imageBlock(p) {
  return { type: 'image', source: p.data !== undefined ? { type: 'base64', media_type: p.mediaType, data: p.data } : { type: 'url', url: p.url } };
}

function blocksOf(m) {
  if (m.role === 'tool') return [{ type: 'tool_result', tool_use_id: m.tool_call_id, content: textOf(m.content) }];
  const blocks = m.role === 'assistant' && Array.isArray(m.thinking_blocks) ? [...m.thinking_blocks] : [];
  blocks.push(...partsOf(m.content).filter((p) => p.type !== 'text' || p.text).map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : imageBlock(p))));
  for (const c of m.tool_calls ?? []) {
    let input = {};
    try { input = JSON.parse(c.function.arguments || '{}'); } catch { /* recorded as sent; Anthropic wants an object */ }
    blocks.push({ type: 'tool_use', id: c.id, name: c.function.name, input });
  }
  return blocks;
}

/** Turns that alternate user / assistant: tool results are user content, same-role neighbours merge. */
function turnsOf(messages) {
  const turns = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(m);
    if (!blocks.length) continue;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return turns;
}

function toolChoiceOf(choice, parallel) {
  let out;
  if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') out = { type: 'none' };
  else if (choice?.function?.name || choice?.name) out = { type: 'tool', name: choice.function?.name ?? choice.name };
  else if (choice === 'auto' || parallel === false) out = { type: 'auto' };
  if (out && parallel === false && out.type !== 'none') out.disable_parallel_tool_use = true;
  return out;
}

/** The message, with the reply's thinking blocks when it had any. */
const withThinking = (message, blocks) => (blocks.length ? { ...message, thinking_blocks: blocks } : message);

const usageOf = (u) => (u ? tokens((u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0), u.output_tokens, u.cache_read_input_tokens) : null);

export const anthropic = {
  name: 'anthropic',
  baseURL: 'https://api.anthropic.com/v1',
  path: () => '/messages',
  headers: (apiKey) => ({ 'anthropic-version': VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) }),

  body({ messages, tools, toolChoice, responseFormat, model, stream, maxTokens, options }) {
    const { max_tokens, max_completion_tokens, stop, parallel_tool_calls: parallel, tool_choice, stream_options, ...rest } = options;
    const { system, rest: conversation } = splitSystem(messages);
    // No native structured-output field is used: the schema goes into the system prompt, and the caller validates the answer.
    const schemaNote = responseFormat ? schemaInstruction(responseFormat) : '';
    const body = { ...rest, model, max_tokens: max_tokens ?? max_completion_tokens ?? maxTokens ?? DEFAULT_MAX_TOKENS, messages: turnsOf(conversation) };
    const systemText = [system, schemaNote].filter(Boolean).join('\n\n');
    if (systemText) body.system = systemText;
    if (stop !== undefined) body.stop_sequences = Array.isArray(stop) ? stop : [stop];
    if (tools?.length) {
      body.tools = tools.map(toolSpec).map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
      const choice = toolChoiceOf(toolChoice ?? tool_choice, parallel);
      if (choice) body.tool_choice = choice;
    }
    if (stream) body.stream = true;
    return body;
  },

  reply(data, fail) {
    if (data?.type !== 'message' || !Array.isArray(data.content)) fail("is not a message (no type 'message' with a content array)");
    let text = '';
    const calls = [], thinking = [];
    for (const [i, block] of data.content.entries()) {
      if (block?.type === 'text') text += block.text ?? '';
      else if (block?.type === 'tool_use') {
        if (block.input === null || typeof block.input !== 'object' || Array.isArray(block.input)) fail(`has tool_use block ${i} ('${block.name}') whose input is not an object`);
        calls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
      } else if (THINKING.includes(block?.type)) thinking.push(block);
      else fail(`has content block ${i} of unknown type '${block?.type}'`);
    }
    return { message: withThinking(assistantMessage(text, calls), thinking), finishReason: STOP[data.stop_reason] ?? data.stop_reason ?? null, stopReason: data.stop_reason ?? null, usage: data.usage ?? null, tokens: usageOf(data.usage), model: data.model ?? null };
  },

  /** message_start, content_block_start / _delta / _stop per block, message_delta (stop reason, usage), message_stop. */
  decoder(fail, failHttp) {
    const blocks = [];
    let model = null, usage = null, stopReason = null, stopped = false;
    const calls = [];
    const blockAt = (i, event) => blocks[i] ?? fail(`sent ${event} for content block ${i}, which was never started`);
    return {
      push(event) {
        switch (event?.type) {
          case 'message_start':
            model = event.message?.model ?? null;
            usage = { ...(event.message?.usage ?? {}) };
            return [];
          case 'content_block_start': {
            const b = event.content_block ?? {};
            if (b.type === 'text') { blocks[event.index] = { type: 'text' }; return b.text ? [{ type: 'token', text: b.text }] : []; }
            if (b.type === 'tool_use') {
              const slot = { type: 'tool_use', id: b.id, name: b.name, json: '', index: calls.length };
              blocks[event.index] = slot;
              calls.push(slot);
              return [{ type: 'tool_call_delta', index: slot.index, id: b.id, name: b.name, argumentsDelta: '' }];
            }
            if (THINKING.includes(b.type)) { blocks[event.index] = { ...b }; return []; }
            return fail(`has content block ${event.index} of unknown type '${b.type}'`);
          }
          case 'content_block_delta': {
            const slot = blockAt(event.index, 'content_block_delta');
            const d = event.delta ?? {};
            if (d.type === 'text_delta' && slot.type === 'text') { slot.text = (slot.text ?? '') + d.text; return [{ type: 'token', text: d.text }]; }
            if (d.type === 'input_json_delta' && slot.type === 'tool_use') {
              slot.json += d.partial_json ?? '';
              return [{ type: 'tool_call_delta', index: slot.index, id: slot.id, name: slot.name, argumentsDelta: d.partial_json ?? '' }];
            }
            if (d.type === 'thinking_delta' && slot.type === 'thinking') { slot.thinking = (slot.thinking ?? '') + d.thinking; return []; }
            if (d.type === 'signature_delta' && slot.type === 'thinking') { slot.signature = d.signature; return []; }
            return fail(`sent a '${d.type}' delta for a ${slot.type} block (${event.index})`);
          }
          case 'content_block_stop': blockAt(event.index, 'content_block_stop'); return [];
          case 'message_delta':
            stopReason = event.delta?.stop_reason ?? stopReason;
            Object.assign(usage ??= {}, event.usage ?? {});
            return [];
          case 'message_stop': stopped = true; return [];
          case 'ping': return [];
          case 'error': return failHttp(`the LLM server reported an error mid-stream: ${event.error?.message ?? JSON.stringify(event.error)}`);
          // "We may occasionally add new event types, and your code should handle unknown event types
          // gracefully" (the streaming reference): skipped. An unknown content block is another matter.
          default: return [];
        }
      },
      end() {
        if (!stopped) fail('stream ended before message_stop (truncated)');
        const text = blocks.filter((b) => b?.type === 'text').map((b) => b.text ?? '').join('');
        const toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: c.json || '{}' }));
        const thinking = blocks.filter((b) => THINKING.includes(b?.type));
        return { message: withThinking(assistantMessage(text, toolCalls), thinking), finishReason: STOP[stopReason] ?? stopReason, stopReason, usage, tokens: usageOf(usage), model };
      },
    };
  },
};
