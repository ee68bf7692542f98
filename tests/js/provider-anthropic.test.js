// Anthropic's Messages API end to end against the strict loopback server
// (support/anthropic-server.js): the agent's tool loop, streamed and not,
// with parallel calls, an image, a system prompt and usage; retries, abort,
// a redacted 400; replies that break the protocol; and every rule the server
// enforces, refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, createAgentNode, createChatClient } from 'edgegraph';
import { startAnthropicServer, message, textBlock, toolUse, messageEvents } from './support/anthropic-server.js';
import { providerSuite } from './support/provider-suite.js';
import { disposeAfter } from './support/dispose.js';

const KEY = 'sk-ant-SECRET-0123456789';

providerSuite({
  provider: 'anthropic',
  start: (script, options) => startAnthropicServer(script, { apiKey: KEY, ...options }),
  key: KEY,
  toolReply: (calls) => message(calls.map((c) => toolUse(c.id, c.name, c.args))),
  textReply: (text) => message([textBlock(text)]),
  expectedTokens: { inputTokens: 32, outputTokens: 8, cachedTokens: 12, totalTokens: 40 },
  errorBody: (text) => JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: text } }),
  /** What the second request of the tool loop says, in Anthropic's words. */
  checkToolRound(body, { system, ids }) {
    assert.match(body.system, system, 'the system prompt is the top-level field');
    assert.ok(body.max_tokens > 0);
    assert.deepEqual(body.messages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.deepEqual(body.messages[1].content.map((b) => b.type), ['tool_use', 'tool_use']);
    assert.deepEqual(body.messages[2].content.map((b) => [b.type, b.tool_use_id]), ids.map((id) => ['tool_result', id]));
    assert.deepEqual(body.tools.map((t) => Object.keys(t)), [['name', 'description', 'input_schema'], ['name', 'description', 'input_schema']]);
  },
  checkImage(body) {
    const blocks = body.messages[0].content;
    assert.deepEqual(blocks[0], { type: 'text', text: 'What is in this picture?' });
    assert.deepEqual(blocks[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
  },
  checkHeaders(headers) {
    assert.equal(headers['x-api-key'], KEY);
    assert.equal(headers['anthropic-version'], '2023-06-01');
    assert.equal(headers.authorization, undefined);
  },
  /** Replies that break the protocol, each with what the error must say. */
  midStreamError: (text) => [{ event: 'message_start', data: { type: 'message_start', message: message([]) } }, { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: text } } }],
  checkStructured(body) {
    assert.match(body.system, /Answer with one JSON value only, no prose, that matches this JSON Schema:\n\{"type":"object"/);
  },
  streamOf: (reply) => messageEvents(reply).slice(0, -2),
  badReplies: [
    ['an unknown content block type', { reply: message([{ type: 'hologram', text: 'x' }]) }, /anthropic reply has content block 0 of unknown type 'hologram'/],
    ['a tool_result in the reply (an id the model cannot answer)', { reply: message([{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'hi' }]) }, /unknown type 'tool_result'/],
    ['a truncated stream', { sse: messageEvents(message([toolUse('toolu_1', 'get_weather', { city: 'Lisbon' })])).slice(0, -2) }, /stream ended before message_stop \(truncated\)/],
    ['a delta for a block never started', { sse: [{ event: 'message_start', data: { type: 'message_start', message: message([]) } }, { event: 'content_block_delta', data: { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'x' } } }] }, /content_block_delta for content block 3, which was never started/],
    ['invalid JSON arguments', { sse: messageEvents(message([toolUse('toolu_1', 'get_weather', { city: 'Lisbon' })])).map((f) => (f.data.delta?.partial_json ? { ...f, data: { ...f.data, delta: { ...f.data.delta, partial_json: f.data.delta.partial_json.replace('}', '') } } } : f)) }, /tool call 'get_weather' \(toolu_1\) whose arguments are not JSON/],
  ],
});

const post = (s, body, headers = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }) => fetch(`${s.baseURL}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, json: await r.json() }));

test('the strict Anthropic server refuses what api.anthropic.com refuses, in its words', async () => {
  const s = await startAnthropicServer([], { apiKey: KEY, expectRejections: true });
  const user = { role: 'user', content: 'hi' };
  const base = { model: 'claude-test', max_tokens: 100 };
  const asked = { role: 'assistant', content: [toolUse('toolu_1', 'f', {})] };
  const cases = [
    [{ ...base, messages: [user] }, /invalid x-api-key/, 401, { 'x-api-key': 'wrong', 'anthropic-version': '2023-06-01' }],
    [{ ...base, messages: [user] }, /anthropic-version: header is required/, 400, { 'x-api-key': KEY }],
    [{ model: 'claude-test', messages: [user] }, /^max_tokens: Field required$/],
    [{ max_tokens: 5, messages: [user] }, /^model: Field required$/],
    [{ ...base }, /^messages: Field required$/],
    [{ ...base, messages: [] }, /at least one message/],
    [{ ...base, messages: [user], stream_options: { include_usage: true } }, /^stream_options: Extra inputs are not permitted$/],
    [{ ...base, messages: [{ role: 'system', content: 'be nice' }, user] }, /Unexpected role "system"/],
    [{ ...base, messages: [{ role: 'tool', content: 'x' }] }, /role: Input should be 'user' or 'assistant'/],
    [{ ...base, messages: [{ role: 'assistant', content: 'hello' }, user] }, /first message must use the "user" role/],
    [{ ...base, messages: [user, user] }, /roles must alternate between "user" and "assistant", but found multiple "user" roles in a row/],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }] }, /does not match any of the expected tags/],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, /text content blocks must be non-empty/],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'x' } }] }] }, /valid image source/],
    [{ ...base, messages: [user, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: 'x' }] }] }, /an object input/],
    [{ ...base, messages: [user, { role: 'assistant', content: [{ type: 'text', text: 'x' }] }, { role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }, /tool_use_id: Field required/],
    [{ ...base, messages: [user, asked, { role: 'user', content: 'no result' }] }, /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1\./],
    [{ ...base, messages: [user, asked, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }, { type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] }] }, /^messages\.2\.content\.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9\./],
    [{ ...base, messages: [user], tools: [{ name: 'bad name', input_schema: { type: 'object' } }] }, /String should match pattern/],
    [{ ...base, messages: [user], tools: [{ name: 'f' }] }, /input_schema: Field required/],
    [{ ...base, messages: [user], tools: [{ name: 'f', input_schema: { type: 'string' } }] }, /input_schema.type: Input should be 'object'/],
    [{ ...base, messages: [user], tool_choice: { type: 'auto' } }, /tool_choice may only be specified while providing tools/],
    [{ ...base, messages: [user], temperature: 1.5 }, /temperature: Input should be less than or equal to 1/],
    [{ ...base, max_tokens: 0, messages: [user] }, /max_tokens: Input should be greater than or equal to 1/],
    [{ ...base, messages: [user], system: 5 }, /system: Input should be a valid string/],
    [{ ...base, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [user, asked, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }] }, /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/],
  ];
  try {
    for (const [body, pattern, status = 400, headers] of cases) {
      const r = await post(s, body, headers);
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(r.json.type, 'error');
      assert.match(r.json.error.message, pattern, JSON.stringify(body));
    }
    const ok = await post(s, { ...base, messages: [user, asked, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }] });
    const notJson = await fetch(`${s.baseURL}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...{ 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } }, body: '{not json' });
    assert.equal(notJson.status, 400);
    assert.match(JSON.stringify(await notJson.json()), /There was an issue with your request body/);
    assert.equal(ok.status, 500, 'a valid request reaches the script (exhausted here)');
  } finally { await s.close(); }
});

test('an unknown stream event type is skipped, as Anthropic asks clients to do', async () => {
  const events = messageEvents(message([textBlock('fine')]));
  events.splice(2, 0, { event: 'content_block_hologram', data: { type: 'content_block_hologram', index: 0 } });
  const s = await startAnthropicServer([{ sse: events }], { apiKey: KEY });
  try {
    const r = await createChatClient({ provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseURL: s.baseURL }).chat({ messages: [{ role: 'user', content: 'hi' }], stream: true });
    assert.equal(r.content, 'fine');
  } finally { await s.close(); }
});

test('consecutive messages of one role (a tool result, then a user message) go as one user turn', async () => {
  const s = await startAnthropicServer([{ reply: message([textBlock('ok')]) }], { apiKey: KEY });
  try {
    const client = createChatClient({ provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseURL: s.baseURL });
    const r = await client.chat({ messages: [
      { role: 'system', content: 'one' }, { role: 'user', content: 'a' }, { role: 'user', content: 'b' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'done' }, { role: 'user', content: 'and now?' },
    ] });
    assert.equal(r.content, 'ok');
    const sent = s.requests[0].body.messages;
    assert.deepEqual(sent.map((m) => m.content.map((b) => b.type)), [['text', 'text'], ['tool_use'], ['tool_result', 'text']]);
  } finally { await s.close(); }
});

test('an agent on Anthropic: the reply names its provider; the key is in no state, event or error', async (t) => {
  const s = await startAnthropicServer([{ reply: message([textBlock('Hi there')]) }], { apiKey: KEY });
  try {
    const events = [];
    const engine = disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: { provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseURL: s.baseURL }, mode: 'chat' }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
    const r = await engine.execute({ messages: [{ role: 'user', content: 'Hello' }] }, { onEvent: (e) => events.push(e) });
    assert.equal(r.state.lastModelOutput, 'Hi there');
    assert.equal(JSON.stringify([r.state, events.filter((e) => e.type !== 'run_end'), r.usage]).includes(KEY), false);
  } finally { await s.close(); }
});

test("with extended thinking on, the reply's thinking blocks go back before its tool_use blocks (streamed and not)", async (t) => {
  const thinking = { type: 'thinking', thinking: 'The user wants the weather.', signature: 'EqQBCgIYAhIM' };
  const asks = message([thinking, toolUse('toolu_1', 'get_weather', { city: 'Lisbon' })]);
  const s = await startAnthropicServer([{ reply: asks }, { reply: message([textBlock('Sunny.')]) }, { reply: asks }, { reply: message([textBlock('Sunny.')]) }], { apiKey: KEY });
  try {
    const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, run: () => 'sunny' };
    for (const stream of [false, true]) {
      const agent = createAgentNode({ llm: { provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseURL: s.baseURL, defaults: { thinking: { type: 'enabled', budget_tokens: 1024 } } }, tools: [weather], stream });
      const r = await disposeAfter(t, new GraphEngine({ nodes: { agent }, edges: { agent: '__end__' }, entryPoint: 'agent' })).execute({ messages: [{ role: 'user', content: 'Weather?' }] });
      assert.equal(r.status, 'FINISHED', r.error?.message);
      const second = s.requests.at(-1).body;
      assert.deepEqual(second.messages[1].content.map((b) => b.type), ['thinking', 'tool_use']);
      assert.deepEqual(second.messages[1].content[0], thinking);
      assert.deepEqual(second.thinking, { type: 'enabled', budget_tokens: 1024 });
    }
  } finally { await s.close(); }
});
