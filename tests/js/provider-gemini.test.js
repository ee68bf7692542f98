// The Gemini API end to end against the strict loopback server
// (support/gemini-server.js): the provider suite, Gemini's own wire shape,
// and every rule the server enforces, refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createChatClient } from 'edgegraph';
import { startGeminiServer, candidate, candidateEvents } from './support/gemini-server.js';
import { providerSuite } from './support/provider-suite.js';
import { startServer, reply } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

const KEY = 'AIza-SECRET-gemini-0123456789';
const fc = (name, args) => ({ functionCall: { name, args } });

providerSuite({
  provider: 'gemini',
  start: (script, options) => startGeminiServer(script, { apiKey: KEY, ...options }),
  key: KEY,
  toolReply: (calls) => candidate(calls.map((c) => fc(c.name, c.args))),
  textReply: (text) => candidate([{ text }]),
  expectedTokens: { inputTokens: 30, outputTokens: 7, cachedTokens: 10, totalTokens: 37 },
  errorBody: (text) => JSON.stringify({ error: { code: 400, message: text, status: 'INVALID_ARGUMENT' } }),
  checkToolRound(body, { system }) {
    assert.match(body.systemInstruction.parts[0].text, system);
    assert.deepEqual(body.contents.map((c) => c.role), ['user', 'model', 'user']);
    assert.deepEqual(body.contents[1].parts.map((p) => p.functionCall.name), ['get_weather', 'get_time']);
    assert.deepEqual(body.contents[2].parts.map((p) => [p.functionResponse.name, JSON.parse(p.functionResponse.response.result).city]), [['get_weather', 'Lisbon'], ['get_time', 'Lisbon']]);
    assert.deepEqual(body.tools[0].functionDeclarations.map((f) => f.name), ['get_weather', 'get_time']);
    assert.equal(body.tools[0].functionDeclarations[0].parametersJsonSchema.type, 'object');
  },
  checkImage(body) {
    assert.deepEqual(body.contents[0].parts, [{ text: 'What is in this picture?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }]);
  },
  checkHeaders(headers) {
    assert.equal(headers['x-goog-api-key'], KEY);
    assert.equal(headers.authorization, undefined);
  },
  midStreamError: (text) => [{ data: { error: { code: 503, message: text, status: 'UNAVAILABLE' } } }],
  checkStructured(body, { tools }) {
    if (tools) {
      assert.equal(body.generationConfig?.responseMimeType, undefined, 'Gemini refuses a JSON type with function calling');
      assert.match(body.systemInstruction.parts[0].text, /Answer with one JSON value only/);
    } else {
      assert.equal(body.generationConfig.responseMimeType, 'application/json');
      assert.equal(body.generationConfig.responseJsonSchema.properties.score.type, 'integer');
    }
  },
  streamOf: (reply) => candidateEvents(reply).slice(0, -1),
  badReplies: [
    ['a functionResponse part in the model turn (answering a call nobody made)', { reply: candidate([{ functionResponse: { name: 'get_weather', response: { result: 'x' } } }]) }, /gemini reply has a functionResponse part \(0\)/],
    ['a part of no known kind', { reply: candidate([{ hologram: {} }]) }, /part 0 of no known kind \(hologram\)/],
    ['a functionCall without a name', { reply: candidate([{ functionCall: { args: {} } }]) }, /functionCall part 0 without a name/],
    ['args that are not an object', { reply: candidate([fc('get_weather', '{"city":')]) }, /functionCall 'get_weather' whose args are not an object/],
    ['MALFORMED_FUNCTION_CALL', { reply: candidate([], { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'MALFORMED_FUNCTION_CALL' }] }) }, /MALFORMED_FUNCTION_CALL/],
    ['a truncated stream', { sse: candidateEvents(candidate([{ text: 'Sunny all day long' }])).slice(0, -1) }, /stream ended before a finishReason \(truncated\)/],
  ],
});

const post = (s, body, { model = 'gemini-test', method = 'generateContent', headers = { 'x-goog-api-key': KEY } } = {}) => fetch(`${s.baseURL}/models/${model}:${method}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, json: await r.json() }));

test('the strict Gemini server refuses what the Gemini API refuses, in its words', async () => {
  const s = await startGeminiServer([], { apiKey: KEY, expectRejections: true });
  const user = { role: 'user', parts: [{ text: 'hi' }] };
  const called = { role: 'model', parts: [fc('f', {}), fc('g', {})] };
  const cases = [
    [{ contents: [user] }, /Method doesn't allow unregistered callers/, 403, { headers: {} }],
    [{ contents: [user] }, /API key not valid/, 400, { headers: { 'x-goog-api-key': 'wrong' } }],
    [{ contents: [user], messages: [] }, /Unknown name "messages": Cannot find field/],
    [{}, /contents is not specified/],
    [{ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, /Please use a valid role: user, model\./],
    [{ contents: [{ role: 'user', parts: [] }] }, /contents.parts must not be empty/],
    [{ contents: [{ role: 'user', parts: [{}] }] }, /required oneof field 'data' must have one initialized field/],
    [{ contents: [{ role: 'user', parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: 'x' } }] }] }, /required oneof field 'data'/],
    [{ contents: [{ role: 'user', parts: [{ inlineData: { data: 'x' } }] }] }, /mime_type and data are required/],
    [{ contents: [{ role: 'user', parts: [{ fileData: {} }] }] }, /file_uri: required/],
    [{ contents: [user, { role: 'model', parts: [{ functionCall: {} }] }] }, /Name cannot be empty/],
    [{ contents: [{ role: 'user', parts: [fc('f', {})] }] }, /a functionCall part belongs to a model turn/],
    [{ contents: [user, { role: 'model', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }, /a functionResponse part belongs to a user turn/],
    [{ contents: [user, { role: 'user', parts: [{ functionResponse: { name: 'f', response: 'x' } }] }] }, /name and an object response are required/],
    [{ contents: [user, { role: 'model', parts: [{ text: 'x' }] }, called] }, /function call turn comes immediately after a user turn or after a function response turn/],
    [{ contents: [user, called, { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }, /number of function response parts is equal to the number of function call parts/],
    [{ contents: [user, called, { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }, { functionResponse: { name: 'h', response: {} } }] }] }, /function response 'h' answers no function call/],
    [{ contents: [user], systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'x' } }] } }, /only text parts/],
    [{ contents: [user], tools: [{ functionDeclarations: [{ name: '9lives' }] }] }, /Invalid function name/],
    [{ contents: [user], tools: [{ functionDeclarations: [{ name: 'f' }] }], generationConfig: { responseMimeType: 'application/json' } }, /^Function calling with a response mime type: 'application\/json' is unsupported$/],
  ];
  try {
    for (const [body, pattern, status = 400, options] of cases) {
      const r = await post(s, body, options);
      assert.equal(r.status, status, JSON.stringify(body));
      assert.match(r.json.error.message, pattern, JSON.stringify(body));
      assert.equal(typeof r.json.error.status, 'string');
    }
    assert.equal((await post(s, { contents: [user] }, { model: 'x', method: 'chat' })).status, 404);
    assert.equal((await post(s, { contents: [{ parts: [{ text: 'no role: the user' }] }] })).status, 500, 'a content without a role is accepted, as by Gemini');
    const ok = await post(s, { contents: [user, called, { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }, { functionResponse: { name: 'g', response: {} } }] }] });
    const notJson = await fetch(`${s.baseURL}/models/gemini-test:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json', ...{ 'x-goog-api-key': KEY } }, body: '{not json' });
    assert.equal(notJson.status, 400);
    assert.match(JSON.stringify(await notJson.json()), /"Invalid JSON payload received\."/);
    assert.equal(ok.status, 500, 'a valid request reaches the script (exhausted here)');
  } finally { await s.close(); }
});

test('gemini: streamed requests go to :streamGenerateContent?alt=sse, others to :generateContent; calls get ids of their own', async () => {
  const s = await startGeminiServer([{ reply: candidate([fc('f', { a: 1 }), fc('f', { a: 2 })]) }, { reply: candidate([{ text: 'hi' }]) }], { apiKey: KEY });
  try {
    const client = createChatClient({ provider: 'gemini', model: 'gemini-test', apiKey: KEY, baseURL: s.baseURL });
    const tools = [{ name: 'f', parameters: { type: 'object' } }];
    const r = await client.chat({ messages: [{ role: 'user', content: 'x' }], tools, toolChoice: 'required', stream: true });
    assert.equal(r.finishReason, 'tool_calls');
    const ids = r.toolCalls.map((c) => c.id);
    assert.equal(new Set(ids).size, 2);
    assert.ok(ids.every((id) => /^call_/.test(id)));
    assert.equal(s.requests[0].url, '/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    assert.deepEqual(s.requests[0].body.toolConfig, { functionCallingConfig: { mode: 'ANY' } });
    await client.chat({ messages: [{ role: 'user', content: 'y' }], responseFormat: { name: 'out', schema: { type: 'object' } }, max_tokens: 50 });
    assert.equal(s.requests[1].url, '/v1beta/models/gemini-test:generateContent');
    assert.deepEqual(s.requests[1].body.generationConfig, { maxOutputTokens: 50, responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } });
  } finally { await s.close(); }
});

test("gemini: a call's thoughtSignature goes back with it in the next request, and never to another provider", async () => {
  const s = await startGeminiServer([{ reply: candidate([{ ...fc('f', { a: 1 }), thoughtSignature: 'c2lnbmF0dXJl' }]) }, { reply: candidate([{ text: 'done' }]) }], { apiKey: KEY });
  try {
    const client = createChatClient({ provider: 'gemini', model: 'gemini-test', apiKey: KEY, baseURL: s.baseURL });
    const tools = [{ name: 'f', parameters: { type: 'object' } }];
    const messages = [{ role: 'user', content: 'x' }];
    const first = await client.chat({ messages, tools });
    assert.equal(first.toolCalls[0].thoughtSignature, 'c2lnbmF0dXJl');
    messages.push(first.message, { role: 'tool', tool_call_id: first.toolCalls[0].id, content: 'ok' });
    await client.chat({ messages, tools });
    assert.deepEqual(s.requests[1].body.contents[1].parts, [{ functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'c2lnbmF0dXJl' }]);
    const openai = await startServer([{ json: reply('ok') }]);
    try {
      await createChatClient({ model: 'm', baseURL: openai.baseURL }).chat({ messages });
      assert.deepEqual(Object.keys(openai.requests[0].body.messages[1].tool_calls[0]), ['id', 'type', 'function']);
    } finally { await openai.close(); }
  } finally { await s.close(); }
});

test("gemini: a traced chat span carries the provider (gcp.gemini) and Gemini's token counts (usageMetadata, read as edgegraph's tokens)", async (t) => {
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('edgegraph-test');
  const s = await startGeminiServer([{ reply: candidate([{ text: 'hi' }]) }], { apiKey: KEY });
  try {
    const { GraphEngine, createAgentNode } = await import('edgegraph');
    const agent = createAgentNode({ llm: { provider: 'gemini', model: 'gemini-test', apiKey: KEY, baseURL: s.baseURL }, mode: 'chat', stream: false });
    const r = await disposeAfter(t, new GraphEngine({ nodes: { agent }, edges: { agent: '__end__' }, entryPoint: 'agent' }, { tracer })).execute({ messages: [{ role: 'user', content: 'x' }] });
    assert.equal(r.status, 'FINISHED');
  } finally { await s.close(); }
  const chat = exporter.getFinishedSpans().find((x) => x.name === 'chat gemini-test');
  assert.equal(chat.attributes['gen_ai.provider.name'], 'gcp.gemini');   // the GenAI conventions' well-known name
  assert.equal(chat.attributes['gen_ai.usage.input_tokens'], 30);
  assert.equal(chat.attributes['gen_ai.usage.output_tokens'], 7);
  assert.equal(JSON.stringify(exporter.getFinishedSpans().map((x) => x.attributes)).includes(KEY), false);
});
