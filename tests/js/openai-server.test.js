// The strict OpenAI stand-in holds tests to what api.openai.com accepts: each
// rule refuses its request with OpenAI's status and error shape, and valid
// conversations (tool calls answered, streamed or not) pass.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, reply, call } from './support/openai-server.js';

const tc = (id, name = 'f') => call(id, name, {});
const user = { role: 'user', content: 'hi' };

async function post(s, body, headers = {}) {
  const res = await fetch(`${s.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

const refused = [
  ['a tool message answering no call', [user, { role: 'tool', tool_call_id: 'x', content: 'r' }], /role 'tool' must be a response to a preceeding message with 'tool_calls'/, 'messages.[1].role'],
  ['a tool message answering an older assistant', [user, { role: 'assistant', content: null, tool_calls: [tc('a')] }, { role: 'tool', tool_call_id: 'a', content: 'r' }, { role: 'assistant', content: 'ok' }, { role: 'tool', tool_call_id: 'a', content: 'again' }], /preceeding message with 'tool_calls'/, 'messages.[4].role'],
  ['a second answer to one call', [user, { role: 'assistant', content: null, tool_calls: [tc('a')] }, { role: 'tool', tool_call_id: 'a', content: 'r' }, { role: 'tool', tool_call_id: 'a', content: 'r' }], /preceeding message/, 'messages.[3].role'],
  ['calls without results before the next message', [user, { role: 'assistant', content: null, tool_calls: [tc('a'), tc('b')] }, { role: 'tool', tool_call_id: 'a', content: 'r' }, user], /did not have response messages: b$/, 'messages.[1].role'],
  ['calls without results at the end', [user, { role: 'assistant', content: null, tool_calls: [tc('a')] }], /did not have response messages: a/, 'messages.[1].role'],
  ['an unknown role', [{ role: 'robot', content: 'x' }], /Invalid value: 'robot'/, 'messages[0].role'],
  ['a field OpenAI does not know', [{ role: 'user', content: 'x', id: 'msg-1' }], /'id' was unexpected/, 'messages[0]'],
  ['content of the wrong type', [{ role: 'user', content: { text: 'x' } }], /expected one of a string or array of objects/, 'messages[0].content'],
  ['an assistant with neither content nor calls', [user, { role: 'assistant', content: null }], /expected a string, got null/, 'messages.[1].content'],
  ['a tool message without tool_call_id', [user, { role: 'assistant', content: null, tool_calls: [tc('a')] }, { role: 'tool', content: 'r' }], /must have a 'tool_call_id'/, 'messages.[2].tool_call_id'],
];

test('each message rule answers 400 with OpenAI\'s error shape', async () => {
  const s = await startServer([]);
  try {
    for (const [label, messages, message, param] of refused) {
      const r = await post(s, { model: 'm', messages });
      assert.equal(r.status, 400, label);
      const { error } = JSON.parse(r.text);
      assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'param', 'type'], label);
      assert.equal(error.type, 'invalid_request_error', label);
      assert.match(error.message, message, label);
      assert.equal(error.param, param, label);
    }
    assert.equal(s.rejected.length, refused.length);
  } finally { await s.close(); }
});

test('request and tool rules: model, messages, names, parameters, tool_choice, stream_options, unknown arguments', async () => {
  const s = await startServer([]);
  const fn = (name, parameters) => ({ type: 'function', function: { name, ...(parameters !== undefined ? { parameters } : {}) } });
  try {
    for (const [body, pattern] of [
      [{ messages: [user] }, /you must provide a model parameter/],
      [{ model: 'm' }, /Missing required parameter: 'messages'/],
      [{ model: 'm', messages: [] }, /empty array/],
      [{ model: 'm', messages: [user], tools: [fn('send email')] }, /string does not match pattern/],
      [{ model: 'm', messages: [user], tools: [fn('x'.repeat(65))] }, /string too long/],
      [{ model: 'm', messages: [user], tools: [fn('f', { type: 'string' })] }, /must be a JSON Schema of 'type: "object"'/],
      [{ model: 'm', messages: [user], tools: [fn('f', [])] }, /must be a JSON Schema/],
      [{ model: 'm', messages: [user], tools: [] }, /'tools': empty array/],
      [{ model: 'm', messages: [user], tool_choice: 'auto' }, /only allowed when 'tools' are specified/],
      [{ model: 'm', messages: [user], stream_options: { include_usage: true } }, /only allowed when 'stream' is enabled/],
      [{ model: 'm', messages: [user], temprature: 0 }, /Unrecognized request argument supplied: temprature/],
      ['{"model": "m", "messages": [', /could not parse the JSON body/],
    ]) {
      const r = await post(s, body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(JSON.parse(r.text).error.message, pattern);
    }
  } finally { await s.close(); }
});

test('valid conversations pass: answered tool calls, parts, tools; streamed replies carry tool calls as deltas', async () => {
  const s = await startServer([{ json: reply('fine') }, { json: reply(null, [call('c1', 'get_weather', { city: 'Lisbon' })]) }], { apiKey: 'sk-test' });
  try {
    const messages = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
      { role: 'assistant', content: null, tool_calls: [tc('a', 'get_weather'), tc('b', 'get_weather')] },
      { role: 'tool', tool_call_id: 'b', content: 'r2' },
      { role: 'tool', tool_call_id: 'a', content: 'r1' },
      { role: 'assistant', content: 'ok' },
      user,
    ];
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const auth = { authorization: 'Bearer sk-test' };
    const plain = await post(s, { model: 'm', messages, tools }, auth);
    assert.equal(plain.status, 200, plain.text);
    assert.equal(JSON.parse(plain.text).choices[0].message.content, 'fine');
    const streamed = await post(s, { model: 'm', messages, tools, stream: true, stream_options: { include_usage: true } }, auth);
    assert.equal(streamed.status, 200, streamed.text);
    const chunks = streamed.text.split('\n\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
    const deltas = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    assert.ok(deltas.length > 2, 'the call arrives in several pieces');
    assert.equal(deltas[0].id, 'c1');
    assert.equal(deltas.map((d) => d.function.arguments).join(''), '{"city":"Lisbon"}');
    assert.ok(streamed.text.trimEnd().endsWith('data: [DONE]'));
    const noKey = await post(s, { model: 'm', messages: [user] });
    assert.equal(noKey.status, 401);
    assert.equal(JSON.parse(noKey.text).error.code, 'invalid_api_key');
  } finally { await s.close(); }
});
