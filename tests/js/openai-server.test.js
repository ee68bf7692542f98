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
  ['a field OpenAI does not know', [{ role: 'user', content: 'x', id: 'msg-1' }], /^Additional properties are not allowed \('id' was unexpected\) - 'messages.0'$/, null],
  ['a participant name with a space', [{ role: 'user', content: 'x', name: 'Ann Lee' }], /^Invalid 'messages\[0\].name': string does not match pattern/, 'messages[0].name'],
  ['a called function name OpenAI would not accept', [user, { role: 'assistant', content: null, tool_calls: [tc('a', 'get weather')] }, { role: 'tool', tool_call_id: 'a', content: 'r' }], /^Invalid 'messages\[1\].tool_calls\[0\].function.name': string does not match pattern/, 'messages[1].tool_calls[0].function.name'],
  ['content of the wrong type', [{ role: 'user', content: { text: 'x' } }], /expected one of a string or array of objects/, 'messages[0].content'],
  ['an assistant with neither content nor calls', [user, { role: 'assistant', content: null }], /expected a string, got null/, 'messages.[1].content'],
  ['a tool message without tool_call_id', [user, { role: 'assistant', content: null, tool_calls: [tc('a')] }, { role: 'tool', content: 'r' }], /must have a 'tool_call_id'/, 'messages.[2].tool_call_id'],
];

test('each message rule answers 400 with OpenAI\'s error shape', async () => {
  const s = await startServer([], { expectRejections: true });
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

test('request and tool rules: model, messages, names, parameters, tool_choice, parallel_tool_calls, stream_options, ranges, unknown arguments', async () => {
  const s = await startServer([], { expectRejections: true });
  const fn = (name, parameters) => ({ type: 'function', function: { name, ...(parameters !== undefined ? { parameters } : {}) } });
  try {
    for (const [body, pattern] of [
      [{ messages: [user] }, /you must provide a model parameter/],
      [{ model: 'm' }, /Missing required parameter: 'messages'/],
      [{ model: 'm', messages: [] }, /empty array/],
      [{ model: 'm', messages: [user], tools: [fn('send email')] }, /string does not match pattern/],
      [{ model: 'm', messages: [user], tools: [fn('x'.repeat(65))] }, /string too long/],
      [{ model: 'm', messages: [user], tools: [fn('f', { type: 'string' })] }, /must be a JSON Schema of 'type: "object"'/],
      [{ model: 'm', messages: [user], tools: [fn('f', [])] }, /^Invalid schema for function 'f': \[\] is not of type 'object', 'boolean'\.$/],
      [{ model: 'm', messages: [user], tools: [fn('f', {})] }, /got 'type: "None"'/],
      [{ model: 'm', messages: [user], tools: [fn('')] }, /string does not match pattern/],
      [{ model: 'm', messages: [user], tools: [] }, /'tools': empty array/],
      [{ model: 'm', messages: [user], tool_choice: 'auto' }, /only allowed when 'tools' are specified/],
      [{ model: 'm', messages: [user], parallel_tool_calls: false }, /^Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified\.$/],
      [{ model: 'm', messages: [user], temperature: 3 }, /^3 is greater than the maximum of 2 - 'temperature'$/],
      [{ model: 'm', messages: [user], top_p: -0.5 }, /is less than the minimum of 0 - 'top_p'/],
      [{ model: 'm', messages: [user], n: 0 }, /minimum of 1 - 'n'/],
      [{ model: 'm', messages: [user], temperature: '0.2' }, /Invalid type for 'temperature'/],
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
  const s = await startServer([{ json: reply('fine') }, { json: reply(null, [call('c1', 'get_weather', { city: 'Lisbon' })]) }], { apiKey: 'sk-test', expectRejections: true });
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
    assert.deepEqual(s.rejected, [], 'both valid');
    const noKey = await post(s, { model: 'm', messages: [user] });
    assert.equal(noKey.status, 401);
    assert.equal(JSON.parse(noKey.text).error.code, 'invalid_api_key');
  } finally { await s.close(); }
});

/** The data events of a streamed answer, parsed; and whether it ended with [DONE]. */
function events(text) {
  const data = text.split('\n\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
  return { chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d)), done: data.at(-1) === '[DONE]' };
}

test('a streamed tool call arrives as OpenAI sends it: role, index, id, type and name first, then argument fragments; usage only when asked', async () => {
  const calls = [call('c1', 'get_weather', { city: 'Lisbon' }), call('c2', 'get_time', { tz: 'Europe/Lisbon' })];
  const s = await startServer([{ json: reply(null, calls) }, { json: reply(null, calls) }, { json: reply('Hello there, friend.') }]);
  try {
    const tools = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } }));
    const ask = { model: 'm', messages: [user], tools, stream: true };
    const withUsage = events((await post(s, { ...ask, stream_options: { include_usage: true } })).text);
    assert.ok(withUsage.done);
    const [first, ...rest] = withUsage.chunks;
    assert.deepEqual(first.choices[0].delta, { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '' } }], refusal: null });
    const deltas = rest.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const opening = deltas.filter((d) => d.id);
    assert.deepEqual(opening.map((d) => [d.index, d.id, d.function.name]), [[1, 'c2', 'get_time']], 'each later call opens once');
    for (const index of [0, 1]) {
      const fragments = deltas.filter((d) => d.index === index && !d.id);
      assert.ok(fragments.length > 2, `call ${index}: arguments in several fragments`);
      assert.ok(fragments.every((d) => Object.keys(d).join() === 'index,function' && Object.keys(d.function).join() === 'arguments'), 'a fragment carries only its index and arguments');
      assert.equal(fragments.map((d) => d.function.arguments).join(''), calls[index].function.arguments);
    }
    const last = withUsage.chunks.at(-1);
    assert.deepEqual(last.choices, [], 'the usage chunk has no choices');
    assert.deepEqual(last.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    assert.equal(withUsage.chunks.at(-2).choices[0].finish_reason, 'tool_calls');
    assert.ok(withUsage.chunks.slice(0, -1).every((c) => c.usage === null), 'every other chunk has usage: null');
    const plain = events((await post(s, ask)).text);
    assert.ok(plain.chunks.every((c) => !('usage' in c) && c.choices.length === 1), 'no usage without include_usage');
    const text = events((await post(s, { model: 'm', messages: [user], stream: true })).text);
    assert.deepEqual(text.chunks[0].choices[0].delta, { role: 'assistant', content: '', refusal: null });
    assert.equal(text.chunks.map((c) => c.choices[0].delta.content ?? '').join(''), 'Hello there, friend.');
  } finally { await s.close(); }
});

test('validation comes first: a scripted error, broken stream or reply never answers a request OpenAI would refuse', async () => {
  const serverError = { status: 500, body: '{"error":{"message":"boom","type":"server_error","param":null,"code":null}}' };
  const s = await startServer([serverError, { sse: ['{"choices":[]}'], end: 'truncate' }, () => ({ json: reply('from a function') })], { expectRejections: true });
  try {
    const orphan = { model: 'm', messages: [user, { role: 'tool', tool_call_id: 'x', content: 'r' }], stream: true };
    for (let i = 0; i < 3; i++) assert.equal((await post(s, orphan)).status, 400);
    assert.equal(s.rejected.length, 3);
    // The script was not consumed by the refused requests: it answers valid ones, in order.
    assert.equal((await post(s, { model: 'm', messages: [user] })).status, 500);
    assert.equal(events((await post(s, { model: 'm', messages: [user], stream: true })).text).done, false);
    assert.equal(JSON.parse((await post(s, { model: 'm', messages: [user] })).text).choices[0].message.content, 'from a function');
  } finally { await s.close(); }
});

test('close() fails a test whose requests the real API would have refused', async () => {
  const s = await startServer([{ json: reply('never sent') }]);
  await post(s, { model: 'm', messages: [{ role: 'system', content: 'x' }, { role: 'assistant', content: null, tool_calls: [tc('a')] }] });
  await assert.rejects(s.close(), /refused 1 request\(s\)[\s\S]*did not have response messages: a/);
});

test('what api.openai.com accepts passes too: empty system text, an empty parts array, null sampling values, developer messages, names', async () => {
  const s = await startServer(() => ({ json: reply('ok') }));
  try {
    for (const body of [
      { model: 'm', messages: [{ role: 'system', content: '' }, user] }, // no minLength in the spec
      { model: 'm', messages: [{ role: 'system', content: [] }, user] }, // minItems: 1 in the spec, 200 from the API (openai/openai-python#1812)
      { model: 'm', messages: [{ role: 'developer', content: [{ type: 'text', text: 'be brief' }] }, { role: 'user', content: 'hi', name: 'ann_lee-2' }], temperature: null, top_p: 1, n: 1 },
      { model: 'm', messages: [user, { role: 'assistant', content: '', tool_calls: [tc('a')] }, { role: 'tool', tool_call_id: 'a', content: [{ type: 'text', text: 'r' }] }], tools: [{ type: 'function', function: { name: 'f' } }], parallel_tool_calls: false, tool_choice: 'required' },
    ]) {
      const r = await post(s, body);
      assert.equal(r.status, 200, r.text);
    }
  } finally { await s.close(); }
});
