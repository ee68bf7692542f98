// Any AI SDK language model as `llm`: the AI SDK's own mock models (ai/test,
// specification v3 and v4) and @ai-sdk/openai's real client against the
// strict loopback servers (chat completions and Responses). Dev dependencies
// only: edgegraph recognises the model by its shape.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MockLanguageModelV3, MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { createOpenAI } from '@ai-sdk/openai';
import { GraphEngine, createAgentNode, createChatClient, LLMError } from 'edgegraph';
import { startServer, fromPolicy } from './support/openai-server.js';
import { startResponsesServer, response, outputText, functionCall } from './support/responses-server.js';
import { disposeAfter } from './support/dispose.js';

const weather = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, run: ({ city }) => ({ city, sky: 'sunny' }) };
const v4Usage = (input, output, cached) => ({ inputTokens: { total: input, noCache: input - cached, cacheRead: cached, cacheWrite: 0 }, outputTokens: { total: output, text: output, reasoning: 0 } });
const finish = (unified) => ({ unified, raw: unified });

function agentGraph(t, llm, extra = {}) {
  return disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm, tools: [weather], systemPrompt: 'Be brief.', ...extra }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
}

test('an AI SDK v4 model (MockLanguageModelV4) runs the tool loop: the prompt in the specification\'s shape, usage in edgegraph\'s', async (t) => {
  const model = new MockLanguageModelV4({
    provider: 'mock-provider',
    modelId: 'mock-model',
    doGenerate: [
      { content: [{ type: 'tool-call', toolCallId: 'tc1', toolName: 'get_weather', input: '{"city":"Lisbon"}' }, { type: 'tool-call', toolCallId: 'tc2', toolName: 'get_weather', input: '{"city":"Porto"}' }], finishReason: finish('tool-calls'), usage: v4Usage(40, 6, 16), warnings: [] },
      { content: [{ type: 'text', text: 'Sunny in both.' }], finishReason: finish('stop'), usage: v4Usage(60, 4, 32), warnings: [] },
    ],
  });
  const r = await agentGraph(t, model, { stream: false }).execute({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] });
  assert.equal(r.status, 'FINISHED', r.error?.message);
  assert.equal(r.state.lastModelOutput, 'Sunny in both.');
  const second = model.doGenerateCalls[1];
  assert.deepEqual(second.prompt.map((m) => m.role), ['system', 'user', 'assistant', 'tool']);
  assert.match(second.prompt[0].content, /Be brief\./);
  assert.deepEqual(second.prompt[1].content[1], { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } });
  assert.deepEqual(second.prompt[2].content.map((p) => [p.type, p.toolCallId, p.input]), [['tool-call', 'tc1', { city: 'Lisbon' }], ['tool-call', 'tc2', { city: 'Porto' }]]);
  assert.deepEqual(second.prompt[3].content.map((p) => [p.type, p.toolCallId, p.toolName, JSON.parse(p.output.value).city]), [['tool-result', 'tc1', 'get_weather', 'Lisbon'], ['tool-result', 'tc2', 'get_weather', 'Porto']]);
  assert.deepEqual(second.tools.map((t) => [t.type, t.name, t.inputSchema.type]), [['function', 'get_weather', 'object']]);
  assert.deepEqual(r.usage.calls.map((c) => [c.provider, c.model, c.inputTokens, c.outputTokens, c.cachedTokens]), [['mock-provider', 'mock-model', 40, 6, 16], ['mock-provider', 'mock-model', 60, 4, 32]]);
  assert.equal(r.usage.totalTokens, 110);
});

test('an AI SDK v3 model streams (doStream): tokens as llm_token events, tool calls from its stream parts', async (t) => {
  const parts = (list) => ({ stream: convertArrayToReadableStream([{ type: 'stream-start', warnings: [] }, ...list]) });
  const model = new MockLanguageModelV3({
    doStream: [
      parts([{ type: 'tool-input-start', id: 'tc1', toolName: 'get_weather' }, { type: 'tool-input-delta', id: 'tc1', delta: '{"city":"Lisbon"}' }, { type: 'tool-input-end', id: 'tc1' },
        { type: 'tool-call', toolCallId: 'tc1', toolName: 'get_weather', input: '{"city":"Lisbon"}' }, { type: 'finish', finishReason: finish('tool-calls'), usage: v4Usage(10, 3, 0) }]),
      parts([{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Sunny ' }, { type: 'text-delta', id: 't', delta: 'today.' }, { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: finish('stop'), usage: v4Usage(20, 2, 0) }]),
    ],
  });
  const events = [];
  const r = await agentGraph(t, model).execute({ messages: [{ role: 'user', content: 'Weather?' }] }, { onEvent: (e) => events.push(e) });
  assert.equal(r.status, 'FINISHED', r.error?.message);
  assert.equal(r.state.lastModelOutput, 'Sunny today.');
  assert.deepEqual(events.filter((e) => e.type === 'llm_token').map((e) => e.text), ['Sunny ', 'today.']);
  assert.equal(r.state.messages.filter((m) => m.role === 'tool').length, 1);
  assert.deepEqual(model.doStreamCalls[1].prompt.at(-1).content[0].output, { type: 'text', value: '{"city":"Lisbon","sky":"sunny"}' });
  assert.equal(r.usage.inputTokens, 30);
});

test('an AI SDK model: a tool call with arguments that are not JSON is LLM_BAD_RESPONSE, nothing runs; its errors and aborts are LLMErrors', async (t) => {
  const bad = new MockLanguageModelV4({ doGenerate: { content: [{ type: 'tool-call', toolCallId: 'tc1', toolName: 'get_weather', input: '{"city":' }], finishReason: finish('tool-calls'), usage: v4Usage(1, 1, 0), warnings: [] } });
  const r = await agentGraph(t, bad, { stream: false }).execute({ messages: [{ role: 'user', content: 'x' }] });
  assert.equal(r.status, 'ERROR');
  assert.ok(r.error.cause instanceof LLMError && r.error.cause.code === 'LLM_BAD_RESPONSE', String(r.error.cause));
  assert.match(r.error.message, /the mock-provider reply has tool call 'get_weather' \(tc1\) whose arguments are not JSON/);
  assert.deepEqual(r.state.messages.map((m) => m.role), ['user']);

  const failing = new MockLanguageModelV4({ doGenerate: async () => { throw Object.assign(new Error('Bad Request: model overloaded'), { statusCode: 400 }); } });
  await assert.rejects(createChatClient(failing).chat({ messages: [{ role: 'user', content: 'x' }] }), (e) => e instanceof LLMError && e.code === 'LLM_HTTP_ERROR' && e.status === 400 && /mock-provider model 'mock-model-id' failed with 400: Bad Request/.test(e.message));

  const controller = new AbortController();
  const hanging = new MockLanguageModelV4({ doGenerate: ({ abortSignal }) => new Promise((_, reject) => { abortSignal.addEventListener('abort', () => reject(abortSignal.reason)); controller.abort(); }) });
  await assert.rejects(createChatClient(hanging).chat({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal }), (e) => e instanceof LLMError && e.code === 'LLM_ABORTED');
});

test('@ai-sdk/openai (chat) against the strict OpenAI server: the agent tool loop, streamed and not', async (t) => {
  let round = 0;
  const server = await startServer(fromPolicy(({ messages }) => (messages.at(-1).role === 'tool' ? `It is ${JSON.parse(messages.at(-1).content).sky}.` : { toolCalls: [{ id: `call_${++round}`, name: 'get_weather', arguments: { city: 'Lisbon' } }] })), { apiKey: 'sk-aisdk-SECRET-1' });
  try {
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-aisdk-SECRET-1' });
    for (const stream of [false, true]) {
      const r = await agentGraph(t, openai.chat('gpt-test'), { stream }).execute({ messages: [{ role: 'user', content: 'Weather in Lisbon?' }] });
      assert.equal(r.status, 'FINISHED', r.error?.message);
      assert.equal(r.state.lastModelOutput, 'It is sunny.');
      assert.equal(r.usage.calls.length, 2);
      assert.ok(r.usage.calls.every((c) => c.provider === 'openai.chat' && c.inputTokens > 0));
    }
    assert.equal(server.requests.length, 4);
  } finally { await server.close(); }
});

test('@ai-sdk/openai (responses) against the strict Responses server: the agent tool loop', async (t) => {
  const server = await startResponsesServer([
    { reply: response([functionCall('call_1', 'get_weather', { city: 'Lisbon' })]) },
    { reply: response([outputText('Sunny.')]) },
  ], { apiKey: 'sk-aisdk-SECRET-2' });
  try {
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-aisdk-SECRET-2' });
    const r = await agentGraph(t, openai.responses('gpt-test'), { stream: false }).execute({ messages: [{ role: 'user', content: 'Weather in Lisbon?' }] });
    assert.equal(r.status, 'FINISHED', r.error?.message);
    assert.equal(r.state.lastModelOutput, 'Sunny.');
    assert.deepEqual(r.usage.calls.map((c) => [c.inputTokens, c.outputTokens, c.cachedTokens]), [[25, 9, 5], [25, 9, 5]]);
  } finally { await server.close(); }
});
