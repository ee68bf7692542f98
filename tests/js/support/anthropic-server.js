// A strict loopback server for Anthropic's Messages API: the rules in
// anthropic-validate.js, errors in Anthropic's shape ({ type: 'error',
// error: { type, message } }), and streams as Anthropic streams them
// (https://docs.anthropic.com/en/api/messages-streaming): event-named frames,
// message_start (usage with input tokens), ping, per block
// content_block_start / content_block_delta (text_delta, input_json_delta
// starting with an empty partial_json) / content_block_stop, message_delta
// (stop_reason, output usage), message_stop; a thinking block as thinking_delta pieces and one
// signature_delta (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).

import { startLoopback, pieces, Rejection } from './loopback.js';
import { validateMessagesRequest } from './anthropic-validate.js';

export const textBlock = (text) => ({ type: 'text', text });
export const toolUse = (id, name, input) => ({ type: 'tool_use', id, name, input });

/** A message reply; stop_reason tool_use when it holds a tool_use block. */
export function message(content, extra = {}) {
  const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  return { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 8, cache_creation_input_tokens: 0, cache_read_input_tokens: 12 }, ...extra };
}

export function messageEvents(reply) {
  const frame = (data) => ({ event: data.type, data });
  const out = [frame({ type: 'message_start', message: { ...reply, content: [], stop_reason: null, usage: { ...reply.usage, output_tokens: 1 } } }), frame({ type: 'ping' })];
  reply.content.forEach((b, index) => {
    if (b.type === 'text') {
      out.push(frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const text of pieces(b.text)) out.push(frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
    } else if (b.type === 'thinking') {
      out.push(frame({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } }));
      for (const thinking of pieces(b.thinking, 6)) out.push(frame({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } }));
      out.push(frame({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: b.signature } }));
    } else {
      out.push(frame({ type: 'content_block_start', index, content_block: { ...b, input: {} } }));
      out.push(frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }));
      for (const partial_json of pieces(JSON.stringify(b.input), 5)) out.push(frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
    }
    out.push(frame({ type: 'content_block_stop', index }));
  });
  out.push(frame({ type: 'message_delta', delta: { stop_reason: reply.stop_reason, stop_sequence: null }, usage: { output_tokens: reply.usage.output_tokens } }));
  out.push(frame({ type: 'message_stop' }));
  return out;
}

export function startAnthropicServer(script, { apiKey, expectRejections, cors } = {}) {
  return startLoopback(script, {
    prefix: '/v1',
    expectRejections,
    cors,
    check: (request) => {
      if (request.method !== 'POST' || request.path !== '/v1/messages') throw new Rejection(404, `Not Found (${request.method} ${request.path})`, { type: 'not_found_error' });
      validateMessagesRequest(request, apiKey);
    },
    isStream: (request) => request.body.stream === true,
    streamOf: messageEvents,
    errorBody: (e) => ({ type: 'error', error: { type: e.extra.type ?? 'not_found_error', message: e.message } }),
  });
}
