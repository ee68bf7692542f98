// The OpenAI-compatible client against a real HTTP server on loopback:
// exact requests, streaming, tool-call deltas, retries, errors, timeouts,
// aborts. The API key must never appear in an error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createChatClient, LLMError } from 'edgegraph';
import { startServer, reply, call, textChunks } from './support/openai-server.js';

const KEY = 'sk-test-SECRET-0123456789';

async function withServer(script, fn) {
  const server = await startServer(script);
  try { return await fn(server); } finally { await server.close(); }
}

test('non-streamed text: the exact request (URL, headers, body) and the parsed reply', () => withServer([{ json: reply('Hello there') }], async (s) => {
  const client = createChatClient({ baseURL: s.baseURL, apiKey: KEY, model: 'gpt-test', defaults: { temperature: 0.2 }, headers: { 'x-team': 'edge' } });
  const r = await client.chat({ messages: [{ role: 'user', content: 'hi', id: 'msg-1' }], max_tokens: 50 });
  assert.equal(r.content, 'Hello there');
  assert.equal(r.finishReason, 'stop');
  assert.deepEqual(r.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
  const [req] = s.requests;
  assert.equal(req.method, 'POST');
  assert.equal(req.url, '/v1/chat/completions');
  assert.equal(req.headers.authorization, `Bearer ${KEY}`);
  assert.equal(req.headers['content-type'], 'application/json');
  assert.equal(req.headers['x-team'], 'edge');
  assert.deepEqual(req.body, { temperature: 0.2, max_tokens: 50, model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, 'no id field goes to the server');
  assert.equal(JSON.stringify(client).includes(KEY), false);
}));

test('streamed text: tokens in order through onToken and the async iterator; usage and finish reason', () => withServer([{ sse: textChunks('Streaming works fine.') }, { sse: textChunks('Again.') }], async (s) => {
  const client = createChatClient({ baseURL: s.baseURL, apiKey: KEY, model: 'gpt-test' });
  const tokens = [];
  const r = await client.chat({ messages: [{ role: 'user', content: 'go' }], onToken: (t) => tokens.push(t) });
  assert.equal(tokens.join(''), 'Streaming works fine.');
  assert.ok(tokens.length > 3);
  assert.equal(r.content, 'Streaming works fine.');
  assert.equal(r.finishReason, 'stop');
  assert.deepEqual(r.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  assert.equal(s.requests[0].body.stream, true);
  assert.deepEqual(s.requests[0].body.stream_options, { include_usage: true });
  assert.equal(s.requests[0].headers.accept, 'text/event-stream');
  const events = [];
  for await (const e of client.stream({ messages: [{ role: 'user', content: 'again' }] })) events.push(e.type === 'token' ? e.text : e.type);
  assert.deepEqual(events, ['Aga', 'in.', 'done']);
}));

test('streamed tool calls: several in one reply, ids, names and arguments split across chunks', () => withServer([{
  sse: [
    { choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] } }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] } }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":' } }] } }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Lisbon"}' } }] } }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '"UTC"}' } }] } }] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  ],
}], async (s) => {
  const client = createChatClient({ baseURL: s.baseURL, model: 'm' });
  const r = await client.chat({ messages: [{ role: 'user', content: 'weather and time?' }], stream: true, tools: [{ name: 'get_weather', description: 'w', parameters: { type: 'object' } }] });
  assert.equal(r.finishReason, 'tool_calls');
  assert.deepEqual(r.toolCalls, [call('call_a', 'get_weather', { city: 'Lisbon' }), call('call_b', 'get_time', { tz: 'UTC' })]);
  assert.equal(r.content, null);
  assert.deepEqual(s.requests[0].body.tools, [{ type: 'function', function: { name: 'get_weather', description: 'w', parameters: { type: 'object' } } }]);
  assert.equal(s.requests[0].headers.authorization, undefined, 'no key, no header');
}));

test('429 with Retry-After is retried after the time it asks for; 500 then success; other 4xx are not retried', { timeout: 20_000 }, () => withServer([
  { status: 429, headers: { 'retry-after': '0' }, body: '{"error":{"message":"Rate limit reached for m on requests per min (RPM): Limit 3, Used 3, Requested 1.","type":"requests","param":null,"code":"rate_limit_exceeded"}}' },
  { json: reply('after 429') },
  { status: 500, body: 'upstream exploded' },
  { json: reply('after 500') },
  { status: 404, body: '{"error":{"message":"The model `m` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}' },
], async (s) => {
  // A huge backoff: only honouring Retry-After: 0 lets this finish.
  const client = createChatClient({ baseURL: s.baseURL, model: 'm', retryBaseMs: 60_000, retryMaxMs: 60_000 });
  assert.equal((await client.chat({ messages: [{ role: 'user', content: '1' }] })).content, 'after 429');
  const quick = createChatClient({ baseURL: s.baseURL, model: 'm', retryBaseMs: 1, retryMaxMs: 2 });
  assert.equal((await quick.chat({ messages: [{ role: 'user', content: '2' }] })).content, 'after 500');
  await assert.rejects(quick.chat({ messages: [{ role: 'user', content: '3' }] }), (e) => e instanceof LLMError && e.code === 'LLM_HTTP_ERROR' && e.status === 404 && /does not exist/.test(e.message) && e.attempts === 1);
  assert.equal(s.requests.length, 5);
}));

test('a 401 is a typed error with the status and the provider message, never the key', () => withServer([
  { status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } }) },
], async (s) => {
  const client = createChatClient({ baseURL: s.baseURL, apiKey: KEY, model: 'm' });
  const e = await client.chat({ messages: [{ role: 'user', content: 'x' }] }).catch((err) => err);
  assert.equal(e.code, 'LLM_HTTP_ERROR');
  assert.equal(e.status, 401);
  assert.match(e.message, /Incorrect API key provided: \[redacted\]/);
  assert.equal(JSON.stringify({ m: e.message, p: e.providerMessage, s: String(e), st: e.stack }).includes(KEY), false);
  assert.equal(s.requests.length, 1, 'no retry on 401');
}));

test('retries give up: the last 5xx is the error, with the number of attempts', () => withServer([
  { status: 503, body: 'down' }, { status: 503, body: 'down' }, { status: 503, body: 'still down' },
], async (s) => {
  const client = createChatClient({ baseURL: s.baseURL, model: 'm', maxRetries: 2, retryBaseMs: 1, retryMaxMs: 2 });
  await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'x' }] }), (e) => e.status === 503 && e.attempts === 3 && /still down/.test(e.message));
}));

test('a truncated stream, a stalled stream and invalid JSON are typed errors', () => withServer([
  { sse: textChunks('cut here').slice(0, 2), end: 'truncate' },
  { sse: textChunks('stall').slice(0, 1), end: 'stall' },
  { sse: ['{not json'] },
  { status: 200, body: 'not json either' },
], async (s) => {
  const client = createChatClient({ baseURL: s.baseURL, model: 'm', timeoutMs: 150, maxRetries: 0 });
  await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'a' }], stream: true }), (e) => e.code === 'LLM_BAD_RESPONSE' && /truncated/.test(e.message));
  await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'b' }], stream: true }), (e) => e.code === 'LLM_TIMEOUT' && /stalled/.test(e.message));
  await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'c' }], stream: true }), (e) => e.code === 'LLM_BAD_RESPONSE');
  await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'd' }] }), (e) => e.code === 'LLM_BAD_RESPONSE');
}));

test('an AbortSignal cancels a request in flight, mid-stream', () => withServer([{ sse: textChunks('a long answer that keeps coming', 1), gapMs: 20 }], async (s) => {
  const client = createChatClient({ baseURL: s.baseURL, model: 'm' });
  const controller = new AbortController();
  const tokens = [];
  await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal, onToken: (t) => { tokens.push(t); if (tokens.length === 3) controller.abort(); } }),
    (e) => e.code === 'LLM_ABORTED');
  assert.equal(tokens.length, 3);
}));

test('a server that is not there is LLM_NETWORK_ERROR; fetch is injectable', () => withServer([{ json: reply('through the injected fetch') }], async (s) => {
  const client = createChatClient({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0 });
  await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'x' }] }), (e) => e.code === 'LLM_NETWORK_ERROR');
  // The injected fetch (a proxy, a test double) gets the request meant for
  // api.openai.com and hands it to the strict server, which checks it.
  const seen = [];
  const proxy = async (url, init) => { seen.push([String(url), JSON.parse(init.body).model]); return fetch(`${s.baseURL}/chat/completions`, init); };
  const proxied = createChatClient({ model: 'm', fetch: proxy });
  assert.equal((await proxied.chat({ messages: [{ role: 'user', content: 'x' }] })).content, 'through the injected fetch');
  assert.deepEqual(seen, [['https://api.openai.com/v1/chat/completions', 'm']]);
  assert.deepEqual(s.requests[0].body, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
}));

test('tool options in shared defaults go only with tools: OpenAI refuses tool_choice and parallel_tool_calls without them', () => withServer([{ json: reply('no tools here') }, { json: reply('with tools') }], async (s) => {
  // One config for every node, some with tools and some without (a chat agent, a summarizer).
  const client = createChatClient({ baseURL: s.baseURL, model: 'm', defaults: { parallel_tool_calls: false, tool_choice: 'auto', temperature: 0 } });
  assert.equal((await client.chat({ messages: [{ role: 'user', content: 'x' }] })).content, 'no tools here');
  assert.deepEqual(s.requests[0].body, { temperature: 0, model: 'm', messages: [{ role: 'user', content: 'x' }] });
  await client.chat({ messages: [{ role: 'user', content: 'y' }], tools: [{ name: 'f', parameters: { type: 'object' } }] });
  assert.equal(s.requests[1].body.parallel_tool_calls, false);
  assert.equal(s.requests[1].body.tool_choice, 'auto');
}));
