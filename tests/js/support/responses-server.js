// A strict loopback server for OpenAI's Responses API: the rules in
// responses-validate.js, errors in OpenAI's shape ({ error: { message, type,
// param, code } }), and streams as the Responses API streams them
// (https://platform.openai.com/docs/api-reference/responses-streaming):
// event-named frames with a sequence_number; response.created and
// .in_progress; per output item response.output_item.added, then for a
// message content_part.added, output_text.delta pieces, output_text.done,
// content_part.done, for a function_call function_call_arguments.delta
// pieces and .done; response.output_item.done; response.completed with usage.

import { startLoopback, pieces, Rejection } from './loopback.js';
import { validateResponsesRequest } from './responses-validate.js';

export const outputText = (text) => ({ type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
export const functionCall = (callId, name, args) => ({ type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: JSON.stringify(args), status: 'completed' });

/** A response object with these output items. */
export function response(output, extra = {}) {
  return { id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-test', output, usage: { input_tokens: 25, input_tokens_details: { cached_tokens: 5 }, output_tokens: 9, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 34 }, ...extra };
}

export function responseEvents(reply) {
  let sequence = 0;
  const frame = (data) => ({ event: data.type, data: { ...data, sequence_number: sequence++ } });
  const pending = { ...reply, status: 'in_progress', output: [], usage: null };
  const out = [frame({ type: 'response.created', response: pending }), frame({ type: 'response.in_progress', response: pending })];
  reply.output.forEach((item, output_index) => {
    if (item.type === 'message') {
      out.push(frame({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } }));
      item.content.forEach((part, content_index) => {
        out.push(frame({ type: 'response.content_part.added', item_id: item.id, output_index, content_index, part: { ...part, text: '' } }));
        for (const delta of pieces(part.text)) out.push(frame({ type: 'response.output_text.delta', item_id: item.id, output_index, content_index, delta }));
        out.push(frame({ type: 'response.output_text.done', item_id: item.id, output_index, content_index, text: part.text }));
        out.push(frame({ type: 'response.content_part.done', item_id: item.id, output_index, content_index, part }));
      });
    } else if (item.type === 'function_call') {
      out.push(frame({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', arguments: '' } }));
      for (const delta of pieces(item.arguments, 5)) out.push(frame({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta }));
      out.push(frame({ type: 'response.function_call_arguments.done', item_id: item.id, output_index, arguments: item.arguments }));
    } else {
      out.push(frame({ type: 'response.output_item.added', output_index, item }));
    }
    out.push(frame({ type: 'response.output_item.done', output_index, item }));
  });
  out.push(frame({ type: `response.${reply.status === 'incomplete' ? 'incomplete' : 'completed'}`, response: reply }));
  return out;
}

export function startResponsesServer(script, { apiKey, expectRejections } = {}) {
  return startLoopback(script, {
    prefix: '/v1',
    expectRejections,
    check: (request) => {
      if (request.method !== 'POST' || request.path !== '/v1/responses') throw new Rejection(404, `Invalid URL (${request.method} ${request.path})`, { type: 'invalid_request_error' });
      validateResponsesRequest(request, apiKey);
    },
    isStream: (request) => request.body.stream === true,
    streamOf: responseEvents,
    errorBody: (e) => ({ error: { message: e.message, type: e.extra.type ?? 'invalid_request_error', param: e.extra.param ?? null, code: e.extra.code ?? null } }),
  });
}
