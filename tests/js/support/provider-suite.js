// The scenarios every provider passes against its strict loopback server:
// the agent's tool loop (two calls at once, streamed and not, a system
// prompt, usage per call and in total, events), an image, a 429 with
// Retry-After, an abort, a 400 that echoes the key, and replies that break
// the protocol (a typed error naming the provider, the state kept, no tool run).
// Each provider's test file gives its server and its own wire checks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, createAgentNode, createLLMNode, createChatClient, LLMError } from 'edgegraph';
import { disposeAfter } from './dispose.js';

export function providerSuite(p) {
  const { provider, start, key } = p;
  const llm = (s, extra = {}) => ({ provider, model: 'test-model', apiKey: key, baseURL: s.baseURL, ...extra });
  async function withServer(script, fn, options) {
    const s = await start(script, options);
    try { return await fn(s); } finally { await s.close(); }
  }
  function toolsCounting() {
    const ran = [];
    const tools = ['get_weather', 'get_time'].map((name) => ({
      name, description: `${name} for a city`,
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      run: ({ city }) => { ran.push(name); return { city, [name]: name === 'get_weather' ? 'sunny' : 'noon' }; },
    }));
    return { ran, tools };
  }

  for (const stream of [false, true]) {
    test(`${provider}: the agent's tool loop, ${stream ? 'streamed' : 'not streamed'}: two calls at once, results back, a system prompt, usage per call and in total`, (t) => withServer([
      { reply: p.toolReply([{ id: 'call_a', name: 'get_weather', args: { city: 'Lisbon' } }, { id: 'call_b', name: 'get_time', args: { city: 'Lisbon' } }]) },
      { reply: p.textReply('Sunny, and it is noon.') },
    ], async (s) => {
      const { ran, tools } = toolsCounting();
      const engine = disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: llm(s), tools, systemPrompt: 'Be brief.', stream }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
      const events = [];
      const r = await engine.execute({ messages: [{ role: 'user', content: 'Weather and time in Lisbon?' }] }, { onEvent: (e) => events.push(e) });
      assert.equal(r.status, 'FINISHED', r.error?.message);
      assert.equal(r.state.lastModelOutput, 'Sunny, and it is noon.');
      assert.deepEqual(ran.sort(), ['get_time', 'get_weather']);
      const asked = r.state.messages.find((m) => m.tool_calls);
      assert.deepEqual(asked.tool_calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]), [['get_weather', { city: 'Lisbon' }], ['get_time', { city: 'Lisbon' }]]);
      const ids = asked.tool_calls.map((c) => c.id);
      assert.deepEqual(r.state.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id), ids);
      assert.equal(s.requests.length, 2);
      p.checkHeaders(s.requests[0].headers);
      p.checkToolRound(s.requests[1].body, { ids, system: /Be brief\./ });
      const one = { node: 'agent', provider, inputTokens: p.expectedTokens.inputTokens, outputTokens: p.expectedTokens.outputTokens, cachedTokens: p.expectedTokens.cachedTokens };
      assert.deepEqual(r.usage.calls.map(({ model, ...c }) => c), [one, one]);
      assert.ok(r.usage.calls.every((c) => typeof c.model === 'string' && c.model));
      assert.deepEqual({ ...r.usage, calls: undefined }, { inputTokens: 2 * one.inputTokens, outputTokens: 2 * one.outputTokens, cachedTokens: 2 * one.cachedTokens, totalTokens: 2 * p.expectedTokens.totalTokens, calls: undefined });
      assert.equal(events.filter((e) => e.type === 'llm_usage').length, 2);
      if (stream) assert.equal(events.filter((e) => e.type === 'llm_token').map((e) => e.text).join(''), 'Sunny, and it is noon.');
    }));
  }

  const Review = { type: 'object', properties: { score: { type: 'integer' } }, required: ['score'], additionalProperties: false };
  test(`${provider}: structured output: the schema in the provider's own field (or words), the reply parsed into structuredResponse`, (t) => withServer([
    { reply: p.textReply('{"score":4}') },
    { reply: p.toolReply([{ id: 'call_s', name: 'get_weather', args: { city: 'Lisbon' } }]) },
    { reply: p.textReply('{"score":5}') },
  ], async (s) => {
    const alone = await disposeAfter(t, new GraphEngine({ nodes: { rate: createLLMNode({ llm: llm(s), responseFormat: { name: 'review', schema: Review } }) }, edges: { rate: '__end__' }, entryPoint: 'rate' }))
      .execute({ messages: [{ role: 'user', content: 'Rate it.' }] });
    assert.equal(alone.status, 'FINISHED', alone.error?.message);
    assert.deepEqual(alone.state.structuredResponse, { score: 4 });
    p.checkStructured(s.requests[0].body, { tools: false });
    const { tools } = toolsCounting();
    const agent = createAgentNode({ llm: llm(s), tools, responseFormat: { name: 'review', schema: Review }, stream: false });
    const looped = await disposeAfter(t, new GraphEngine({ nodes: { agent }, edges: { agent: '__end__' }, entryPoint: 'agent' })).execute({ messages: [{ role: 'user', content: 'Rate Lisbon.' }] });
    assert.equal(looped.status, 'FINISHED', looped.error?.message);
    assert.deepEqual(looped.state.structuredResponse, { score: 5 });
    p.checkStructured(s.requests[2].body, { tools: true });
  }));

  test(`${provider}: an image in the user's content reaches the model`, () => withServer([{ reply: p.textReply('A cat.') }], async (s) => {
    const client = createChatClient(llm(s));
    const r = await client.chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] });
    assert.equal(r.content, 'A cat.');
    assert.equal(r.provider, provider);
    p.checkImage(s.requests[0].body);
  }));

  test(`${provider}: a 429 with Retry-After is waited out as the server says, then the reply comes`, () => withServer([
    { status: 429, headers: { 'retry-after': '0' }, body: p.errorBody('Rate limit exceeded') },
    { reply: p.textReply('after the wait') },
  ], async (s) => {
    // A backoff of a minute: only Retry-After: 0 lets this test finish.
    const client = createChatClient(llm(s, { retryBaseMs: 60_000, retryMaxMs: 60_000 }));
    const r = await client.chat({ messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(r.content, 'after the wait');
    assert.equal(s.requests.length, 2);
  }));

  test(`${provider}: an abort during the request is LLM_ABORTED`, async () => {
    const controller = new AbortController();
    await withServer([() => { controller.abort(); return new Promise(() => {}); }], async (s) => {
      const client = createChatClient(llm(s));
      await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal }), (e) => e instanceof LLMError && e.code === 'LLM_ABORTED' && e.provider === provider);
    });
  });

  test(`${provider}: an abort in the middle of a stream is LLM_ABORTED, the stream closed`, () => withServer([{ sse: p.streamOf(p.textReply('Sunny all day long')), end: 'stall' }], async (s) => {
    const controller = new AbortController();
    const tokens = [];
    const client = createChatClient(llm(s));
    const asked = client.chat({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal, onToken: (text) => { tokens.push(text); controller.abort(); } });
    await assert.rejects(asked, (e) => e instanceof LLMError && e.code === 'LLM_ABORTED' && e.provider === provider);
    assert.ok(tokens.length >= 1, 'it was streaming');
  }));

  test(`${provider}: a 400 whose text echoes the key is LLM_HTTP_ERROR with the key redacted`, () => withServer([{ status: 400, body: p.errorBody(`invalid request made with key ${key}`) }], async (s) => {
    const client = createChatClient(llm(s));
    const e = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }).then(() => null, (error) => error);
    assert.ok(e instanceof LLMError && e.code === 'LLM_HTTP_ERROR' && e.status === 400 && e.provider === provider, String(e));
    assert.match(e.message, /invalid request made with key \[redacted\]/);
    assert.equal([e.message, e.stack, JSON.stringify(e), e.providerMessage].join('\n').includes(key), false);
  }));

  test(`${provider}: an error event mid-stream is LLM_HTTP_ERROR with the provider's message, the key redacted`, () => withServer([{ sse: p.midStreamError(`overloaded, key ${key}`) }], async (s) => {
    const client = createChatClient(llm(s));
    const e = await client.chat({ messages: [{ role: 'user', content: 'hi' }], stream: true }).then(() => null, (error) => error);
    assert.ok(e instanceof LLMError && e.code === 'LLM_HTTP_ERROR' && e.provider === provider, String(e));
    assert.match(e.message, /reported an error mid-stream: overloaded, key \[redacted\]/);
  }));

  for (const [what, step, pattern] of p.badReplies) {
    test(`${provider}: a reply with ${what} is LLM_BAD_RESPONSE naming the provider; the state is kept, no tool runs`, (t) => withServer([step], async (s) => {
      const { ran, tools } = toolsCounting();
      const engine = disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: llm(s, { maxRetries: 0 }), tools, stream: Boolean(step.sse) }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
      const r = await engine.execute({ messages: [{ role: 'user', content: 'Weather in Lisbon?' }] });
      assert.equal(r.status, 'ERROR');
      // The node failed (NODE_FAILED naming it); its cause is the provider's typed error.
      assert.equal(r.error.node, 'agent');
      assert.ok(r.error.cause instanceof LLMError && r.error.cause.code === 'LLM_BAD_RESPONSE' && r.error.cause.provider === provider, String(r.error.cause));
      assert.match(r.error.cause.message, new RegExp(`the ${provider} `));
      assert.match(r.error.message, pattern);
      assert.deepEqual(r.state.messages.map((m) => [m.role, m.content]), [['user', 'Weather in Lisbon?']]);
      assert.deepEqual(ran, []);
    }));
  }
}
