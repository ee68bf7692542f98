// Token usage in edgegraph's own types: every model call of a run (node,
// provider, model, input, output and cached tokens) and the totals, in
// result.usage and as llm_usage events; LLM nodes as well as agents; a resumed
// run counts its own calls. Against the strict OpenAI server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, createAgentNode, createLLMNode, createToolsNode, routeOnToolCalls, approve, createChatClient } from 'edgegraph';
import { startServer, reply, call } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

const usage = (prompt, completion, cached) => ({ usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached } } });
const lookup = { name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} }, run: () => 'found' };

test('an explicit LLM -> tools -> LLM loop: each LLM node call is counted, cached tokens from prompt_tokens_details', async (t) => {
  const s = await startServer([{ json: reply(null, [call('c1', 'lookup', {})], usage(50, 5, 20)) }, { json: reply('All done.', undefined, usage(70, 3, 40)) }]);
  try {
    const { router, targets } = routeOnToolCalls('tools', '__end__');
    const engine = disposeAfter(t, new GraphEngine({
      nodes: { llm: createLLMNode({ llm: { baseURL: s.baseURL, model: 'm' }, tools: [lookup], stream: false }), tools: createToolsNode({ tools: [lookup] }) },
      edges: { llm: { router, targets }, tools: 'llm' },
      entryPoint: 'llm',
    }));
    const events = [];
    const r = await engine.execute({ messages: [{ role: 'user', content: 'go' }] }, { onEvent: (e) => events.push(e) });
    assert.equal(r.status, 'FINISHED', r.error?.message);
    assert.deepEqual(r.usage, {
      inputTokens: 120, outputTokens: 8, cachedTokens: 60, totalTokens: 128,
      calls: [
        { node: 'llm', provider: 'openai', model: 'test-model', inputTokens: 50, outputTokens: 5, cachedTokens: 20 },
        { node: 'llm', provider: 'openai', model: 'test-model', inputTokens: 70, outputTokens: 3, cachedTokens: 40 },
      ],
    });
    assert.deepEqual(events.filter((e) => e.type === 'llm_usage').map((e) => [e.node, e.inputTokens, typeof e.taskId]), [['llm', 50, 'string'], ['llm', 70, 'string']]);
  } finally { await s.close(); }
});

test('a run without model calls has zero usage; a resumed run counts only its own calls', async (t) => {
  const s = await startServer([{ json: reply(null, [call('m1', 'send', {})], usage(30, 4, 0)) }, { json: reply('Sent.', undefined, usage(45, 2, 30)) }]);
  try {
    const send = { ...lookup, name: 'send', needsApproval: true };
    const engine = () => disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: { baseURL: s.baseURL, model: 'm' }, tools: [send] }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
    const idle = await disposeAfter(t, new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' })).execute({});
    assert.deepEqual(idle.usage, { inputTokens: 0, outputTokens: 0, cachedTokens: 0, totalTokens: 0, calls: [] });
    const paused = await engine().execute({ messages: [{ role: 'user', content: 'send it' }] });
    assert.equal(paused.status, 'PAUSED');
    assert.deepEqual(paused.usage.calls.map((c) => c.inputTokens), [30]);
    // Another engine, from the checkpoint's JSON: the resumed run's usage is its own call.
    const done = await engine().resume(JSON.parse(JSON.stringify(paused.checkpoint)), approve());
    assert.equal(done.status, 'FINISHED', done.error?.message);
    assert.deepEqual(done.usage, { inputTokens: 45, outputTokens: 2, cachedTokens: 30, totalTokens: 47, calls: [{ node: 'agent', provider: 'openai', model: 'test-model', inputTokens: 45, outputTokens: 2, cachedTokens: 30 }] });
    assert.equal(JSON.stringify(done.state).includes('cachedTokens'), false, 'usage is the run\'s, not the state\'s');
  } finally { await s.close(); }
});

test('a node of your own counts the calls it makes with ctx.recordUsage(reply)', async (t) => {
  const s = await startServer([{ json: reply('hi', undefined, usage(12, 3, 0)) }]);
  try {
    const client = createChatClient({ baseURL: s.baseURL, model: 'm' });
    const engine = disposeAfter(t, new GraphEngine({ nodes: { mine: async (state, _engine, ctx) => { ctx.recordUsage(await client.chat({ messages: [{ role: 'user', content: 'x' }] })); ctx.recordUsage({ tokens: null }); return {}; } }, edges: { mine: '__end__' }, entryPoint: 'mine' }));
    const r = await engine.execute({});
    assert.deepEqual(r.usage.calls, [{ node: 'mine', provider: 'openai', model: 'test-model', inputTokens: 12, outputTokens: 3, cachedTokens: 0 }], 'a reply without tokens counts nothing');
  } finally { await s.close(); }
});
