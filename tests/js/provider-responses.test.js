// OpenAI's Responses API end to end against the strict loopback server
// (support/responses-server.js): the provider suite, the Responses wire
// shape, and every rule the server enforces, refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createChatClient } from 'edgegraph';
import { startResponsesServer, response, outputText, functionCall, responseEvents } from './support/responses-server.js';
import { providerSuite } from './support/provider-suite.js';

const KEY = 'sk-resp-SECRET-0123456789';

providerSuite({
  provider: 'openai-responses',
  start: (script, options) => startResponsesServer(script, { apiKey: KEY, ...options }),
  key: KEY,
  toolReply: (calls) => response(calls.map((c) => functionCall(c.id, c.name, c.args))),
  textReply: (text) => response([outputText(text)]),
  expectedTokens: { inputTokens: 25, outputTokens: 9, cachedTokens: 5, totalTokens: 34 },
  errorBody: (text) => JSON.stringify({ error: { message: text, type: 'invalid_request_error', param: null, code: null } }),
  checkToolRound(body, { system, ids }) {
    assert.match(body.instructions, system);
    assert.equal(body.store, false);
    assert.deepEqual(body.input.map((it) => it.type), ['message', 'function_call', 'function_call', 'function_call_output', 'function_call_output']);
    assert.deepEqual(body.input.filter((it) => it.type === 'function_call_output').map((it) => it.call_id), ids);
    assert.deepEqual(body.tools.map((t) => [t.type, t.name]), [['function', 'get_weather'], ['function', 'get_time']]);
  },
  checkImage(body) {
    assert.deepEqual(body.input[0].content, [{ type: 'input_text', text: 'What is in this picture?' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' }]);
  },
  checkHeaders(headers) {
    assert.equal(headers.authorization, `Bearer ${KEY}`);
  },
  midStreamError: (text) => [{ event: 'error', data: { type: 'error', code: 'server_error', message: text, param: null, sequence_number: 0 } }],
  checkStructured(body) {
    assert.equal(body.text.format.type, 'json_schema');
    assert.equal(body.text.format.name, 'review');
    assert.equal(body.text.format.strict, true);
  },
  streamOf: (reply) => responseEvents(reply).slice(0, -1),
  badReplies: [
    ['an unknown output item type', { reply: response([{ type: 'hologram' }]) }, /openai-responses reply has output\[0\] of unknown type 'hologram'/],
    ['a function_call_output in the reply (an id the model cannot answer)', { reply: response([{ type: 'function_call_output', call_id: 'call_x', output: 'x' }]) }, /unknown type 'function_call_output'/],
    ['a function_call without a call_id', { reply: response([{ type: 'function_call', name: 'get_weather', arguments: '{}' }]) }, /function_call output\[0\] without a call_id/],
    ['invalid JSON arguments', { reply: response([{ ...functionCall('call_1', 'get_weather', {}), arguments: '{"city": "Lis' }]) }, /tool call 'get_weather' \(call_1\) whose arguments are not JSON/],
    ['a truncated stream', { sse: responseEvents(response([functionCall('call_1', 'get_weather', { city: 'Lisbon' })])).slice(0, -1) }, /stream ended before response.completed \(truncated\)/],
    ['arguments for an item never added', { sse: [{ event: 'response.function_call_arguments.delta', data: { type: 'response.function_call_arguments.delta', output_index: 4, delta: '{' } }] }, /response.function_call_arguments.delta for output item 4, which was never added/],
  ],
});

const post = (s, body, headers = { authorization: `Bearer ${KEY}` }) => fetch(`${s.baseURL}/responses`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, json: await r.json() }));

test('the strict Responses server refuses what api.openai.com refuses, in its words', async () => {
  const s = await startResponsesServer([], { apiKey: KEY, expectRejections: true });
  const user = { role: 'user', content: 'hi' };
  const base = { model: 'gpt-test' };
  const call = { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' };
  const cases = [
    [{ ...base, input: [user] }, /Incorrect API key provided/, 401, { authorization: 'Bearer wrong' }],
    [{ ...base, messages: [user] }, /^Unknown parameter: 'messages'\.$/],
    [{ input: [user] }, /^Missing required parameter: 'model'\.$/],
    [{ ...base, input: { role: 'user' } }, /Invalid type for 'input'/],
    [{ ...base, input: [{ type: 'hologram' }] }, /^Invalid value: 'hologram'\. Supported values are/],
    [{ ...base, input: [{ role: 'tool', content: 'x' }] }, /^Invalid value: 'tool'\./],
    [{ ...base, input: [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }] }, /^Invalid value: 'output_text'\./],
    [{ ...base, input: [{ role: 'user', content: [{ type: 'input_image' }] }] }, /Missing required parameter: 'input\[0\]\.content\[0\]\.image_url'/],
    [{ ...base, input: [{ role: 'user', content: 5 }] }, /Invalid type for 'input\[0\]\.content'/],
    [{ ...base, input: [user, { type: 'function_call', call_id: 'c', name: 'f', arguments: {} }] }, /Missing required parameter: 'input\[1\]\.arguments'/],
    [{ ...base, input: [user, { type: 'function_call_output', output: 'x' }] }, /Missing required parameter: 'input\[1\]\.call_id'/],
    [{ ...base, input: [user, call, { type: 'function_call_output', call_id: 'call_1' }] }, /Missing required parameter: 'input\[2\]\.output'/],
    [{ ...base, input: [user, call, { type: 'function_call_output', call_id: 'call_1', output: 'ok' }, { type: 'function_call_output', call_id: 'call_9', output: 'x' }] }, /^No tool call found for function call output with call_id call_9\.$/],
    [{ ...base, input: [user, call] }, /^No tool output found for function call call_1\.$/],
    [{ ...base, input: [user], tools: [{ type: 'function', parameters: { type: 'object' } }] }, /Missing required parameter: 'tools\[0\]\.name'/],
    [{ ...base, input: [user], tools: [{ type: 'function', name: 'bad name' }] }, /string does not match pattern/],
    [{ ...base, input: [user], tools: [{ type: 'function', name: 'f', parameters: { type: 'array' } }] }, /schema must be a JSON Schema of 'type: "object"'/],
    [{ ...base, input: [user], max_output_tokens: 5 }, /Expected a value >= 16, but got 5 instead/],
    [{ ...base, input: [user], temperature: 3 }, /Invalid 'temperature': decimal above maximum value/],
    [{ ...base, input: [user], text: { format: { type: 'json_schema', schema: {} } } }, /text\.format\.name/],
  ];
  try {
    for (const [body, pattern, status = 400, headers] of cases) {
      const r = await post(s, body, headers);
      assert.equal(r.status, status, JSON.stringify(body));
      assert.match(r.json.error.message, pattern, JSON.stringify(body));
    }
    const ok = await post(s, { ...base, input: [user, call, { type: 'function_call_output', call_id: 'call_1', output: 'ok' }] });
    const notJson = await fetch(`${s.baseURL}/responses`, { method: 'POST', headers: { 'content-type': 'application/json', ...{ authorization: `Bearer ${KEY}` } }, body: '{not json' });
    assert.equal(notJson.status, 400);
    assert.match(JSON.stringify(await notJson.json()), /We could not parse the JSON body/);
    assert.equal(ok.status, 500, 'a valid request reaches the script (exhausted here)');
  } finally { await s.close(); }
});

test('openai-responses: structured output goes as text.format; max_tokens as max_output_tokens; an incomplete response is finishReason length', async () => {
  const s = await startResponsesServer([{ reply: response([outputText('{"a":')], { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }) }], { apiKey: KEY });
  try {
    const client = createChatClient({ provider: 'openai-responses', model: 'gpt-test', apiKey: KEY, baseURL: s.baseURL });
    const r = await client.chat({ messages: [{ role: 'user', content: 'json please' }], responseFormat: { name: 'out', schema: { type: 'object' }, strict: true }, max_tokens: 20 });
    assert.equal(r.finishReason, 'length');
    assert.deepEqual(s.requests[0].body.text, { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } });
    assert.equal(s.requests[0].body.max_output_tokens, 20);
  } finally { await s.close(); }
});
