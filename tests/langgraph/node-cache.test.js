// Node caching (addNode(name, fn, { cachePolicy }) with compile({ cache })), ported from LangGraph.js:
// libs/langgraph-core/src/tests/pregel.test.ts. LangGraph's InMemoryCache comes from
// @langchain/langgraph-checkpoint; edgegraph's from edgegraph/langgraph.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryCache as LangGraphCache } from '@langchain/langgraph-checkpoint';
import { implementations, collect, named } from './support/impls.js';

/** Run `fn` with Date.now() moved `ms` ahead (a TTL runs out without waiting). */
async function later(ms, fn) {
  const now = Date.now;
  const at = now() + ms;
  Date.now = () => at;
  try { return await fn(); } finally { Date.now = now; }
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, Command } = impl;
  const newCache = () => (impl.name === 'langgraph' ? new LangGraphCache() : new impl.InMemoryCache());

  test(named(impl, 'a cachePolicy keyFunc that gives no string (a misspelt key: undefined) fails the run, never serving one input\'s result to another'), async () => {
    const State = Annotation.Root({ userId: Annotation(), profile: Annotation() });
    const graph = new StateGraph(State)
      .addNode('lookup', (s) => ({ profile: `profile of user ${s.userId}` }), { cachePolicy: { keyFunc: ([s]) => s.userID } })
      .addEdge(START, 'lookup').compile({ cache: newCache() });
    for (const userId of [1, 2]) await assert.rejects(graph.invoke({ userId }), (e) => impl.name === 'langgraph' || (e.code === 'INVALID_OPTIONS' && e.message.includes("node 'lookup'")));
  });

  for (const cachePolicy of [true, false]) {
    test(named(impl, `pregel.test.ts: in one fan out state graph waiting edge multiple ({ cachePolicy: ${cachePolicy}, slowCache: false })`), async () => {
      const State = Annotation.Root({ query: Annotation(), answer: Annotation(), docs: Annotation({ reducer: (x, y) => [...x, ...y].sort() }) });
      let rewriteQueryCount = 0;
      const graph = new StateGraph(State)
        .addNode('rewrite_query', (s) => { rewriteQueryCount += 1; return { query: `query: ${s.query}` }; }, { cachePolicy })
        .addNode('analyzer_one', (s) => ({ query: `analyzed: ${s.query}` }))
        .addNode('retriever_one', () => ({ docs: ['doc1', 'doc2'] }))
        .addNode('retriever_two', async () => { await Promise.resolve(); return { docs: ['doc3', 'doc4'] }; })
        .addNode('qa', (s) => ({ answer: s.docs.join(',') }))
        .addNode('decider', () => ({}))
        .addEdge(START, 'rewrite_query').addEdge('rewrite_query', 'analyzer_one').addEdge('analyzer_one', 'retriever_one')
        .addEdge('rewrite_query', 'retriever_two').addEdge(['retriever_one', 'retriever_two'], 'decider')
        .addConditionalEdges('decider', (s) => (s.query.split('analyzed').length - 1 > 1 ? 'qa' : 'rewrite_query'), ['qa', 'rewrite_query'])
        .compile({ cache: newCache() });
      const expected = {
        query: 'analyzed: query: analyzed: query: what is weather in sf',
        answer: 'doc1,doc1,doc2,doc2,doc3,doc3,doc4,doc4',
        docs: ['doc1', 'doc1', 'doc2', 'doc2', 'doc3', 'doc3', 'doc4', 'doc4'],
      };
      assert.deepEqual(await graph.invoke({ query: 'what is weather in sf' }), expected);
      const chunks = await collect(graph.stream({ query: 'what is weather in sf' }));
      const rewrites = chunks.filter((c) => c.rewrite_query);
      assert.deepEqual(rewrites, [
        { rewrite_query: { query: 'query: what is weather in sf' }, ...(cachePolicy ? { __metadata__: { cached: true } } : {}) },
        { rewrite_query: { query: 'query: analyzed: query: what is weather in sf' }, ...(cachePolicy ? { __metadata__: { cached: true } } : {}) },
      ]);
      // The rest of the stream is the same, in the same order, cached or not.
      assert.deepEqual(chunks.map((c) => Object.keys(c)[0]), ['rewrite_query', 'analyzer_one', 'retriever_two', 'retriever_one', 'decider', 'rewrite_query', 'analyzer_one', 'retriever_two', 'retriever_one', 'decider', 'qa']);
      assert.equal(rewriteQueryCount, cachePolicy ? 2 : 4);
      if (cachePolicy) {
        await graph.clearCache();
        assert.deepEqual(await graph.invoke({ query: 'what is weather in sf' }), expected);
        assert.equal(rewriteQueryCount, 4);
      }
    });
  }

  test(named(impl, 'cachePolicy ttl (seconds): a result is reused within it and computed again after it'), async () => {
    let calls = 0;
    const graph = new StateGraph(Annotation.Root({ n: Annotation(), out: Annotation() }))
      .addNode('slow', (s) => { calls++; return { out: s.n * 2 }; }, { cachePolicy: { ttl: 60 } })
      .addEdge(START, 'slow').compile({ cache: newCache() });
    assert.deepEqual(await graph.invoke({ n: 2 }), { n: 2, out: 4 });
    assert.deepEqual(await graph.invoke({ n: 2 }), { n: 2, out: 4 });
    assert.equal(calls, 1);
    assert.deepEqual(await graph.invoke({ n: 3 }), { n: 3, out: 6 });
    assert.equal(calls, 2);
    await later(61_000, async () => assert.deepEqual(await graph.invoke({ n: 2 }), { n: 2, out: 4 }));
    assert.equal(calls, 3);
  });

  test(named(impl, 'cachePolicy keyFunc: inputs with the same key share a result; keys are per node'), async () => {
    const calls = [];
    const State = Annotation.Root({ user: Annotation(), noise: Annotation(), greeting: Annotation(), farewell: Annotation() });
    const graph = new StateGraph(State)
      .addNode('greet', (s) => { calls.push('greet'); return { greeting: `hi ${s.user}` }; }, { cachePolicy: { keyFunc: ([s]) => s.user } })
      .addNode('bye', (s) => { calls.push('bye'); return { farewell: `bye ${s.user}` }; }, { cachePolicy: { keyFunc: ([s]) => s.user } })
      .addEdge(START, 'greet').addEdge('greet', 'bye').compile({ cache: newCache() });
    await graph.invoke({ user: 'ann', noise: 1 });
    const second = await graph.invoke({ user: 'ann', noise: 2 });
    assert.deepEqual(second, { user: 'ann', noise: 2, greeting: 'hi ann', farewell: 'bye ann' });
    assert.deepEqual(calls, ['greet', 'bye']);
  });

  test(named(impl, 'cachePolicy: a node that throws is not cached; a cached Command routes again'), async () => {
    let attempts = 0;
    let routed = 0;
    const graph = new StateGraph(Annotation.Root({ v: Annotation(), via: Annotation() }))
      .addNode('flaky', (s) => {
        attempts++;
        if (attempts === 1) throw new Error('first call fails');
        return new Command({ update: { via: 'flaky' }, goto: 'next' });
      }, { cachePolicy: true, ends: ['next'] })
      .addNode('next', (s) => { routed++; return { v: `${s.v}!` }; })
      .addEdge(START, 'flaky').compile({ cache: newCache() });
    await assert.rejects(graph.invoke({ v: 'a' }), /first call fails/);
    assert.deepEqual(await graph.invoke({ v: 'a' }), { v: 'a!', via: 'flaky' });
    assert.deepEqual(await graph.invoke({ v: 'a' }), { v: 'a!', via: 'flaky' });
    assert.equal(attempts, 2);
    assert.equal(routed, 2);
  });

  test(named(impl, 'compile({ cache }) without a cachePolicy on any node caches nothing'), async () => {
    let calls = 0;
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('count', () => { calls++; return {}; }).addEdge(START, 'count').compile({ cache: newCache() });
    await graph.invoke({ n: 1 });
    await graph.invoke({ n: 1 });
    assert.equal(calls, 2);
  });
}

test('edgegraph: compile({ cache }) takes LangGraph\'s own InMemoryCache (the BaseCache shape)', async () => {
  const { StateGraph, Annotation, START } = implementations.find((i) => i.name === 'edgegraph');
  let calls = 0;
  const graph = new StateGraph(Annotation.Root({ n: Annotation(), out: Annotation() }))
    .addNode('double', (s) => { calls++; return { out: s.n * 2 }; }, { cachePolicy: { ttl: 60 } })
    .addEdge(START, 'double').compile({ cache: new LangGraphCache() });
  assert.deepEqual(await graph.invoke({ n: 4 }), { n: 4, out: 8 });
  assert.deepEqual(await graph.invoke({ n: 4 }), { n: 4, out: 8 });
  assert.equal(calls, 1);
  await graph.clearCache();
  await graph.invoke({ n: 4 });
  assert.equal(calls, 2);
});

test('edgegraph: compile({ cache }) with something that is not a cache is INVALID_OPTIONS; a cachePolicy without a cache caches nothing', async () => {
  const { StateGraph, Annotation, START } = implementations.find((i) => i.name === 'edgegraph');
  const builder = () => {
    let calls = 0;
    const b = new StateGraph(Annotation.Root({ n: Annotation() })).addNode('count', () => { calls++; return {}; }, { cachePolicy: true }).addEdge(START, 'count');
    return { b, calls: () => calls };
  };
  assert.throws(() => builder().b.compile({ cache: { get() {} } }), (e) => e.code === 'INVALID_OPTIONS' && /compile\(\{ cache \}\)/.test(e.message));
  const { b, calls } = builder();
  const graph = b.compile();
  await graph.invoke({ n: 1 });
  await graph.invoke({ n: 1 });
  assert.equal(calls(), 2);
  await graph.clearCache();
});

test('edgegraph: a cached result of LangChain messages (a tool call, a tool reply) and an edgegraph Command gives what the fresh one gave', async () => {
  const { StateGraph, MessagesAnnotation, Annotation, START, InMemoryCache } = implementations.find((i) => i.name === 'edgegraph');
  const { AIMessage, ToolMessage } = await import('@langchain/core/messages');
  const { Command: EngineCommand } = await import('edgegraph');
  let calls = 0;
  const graph = new StateGraph(Annotation.Root({ ...MessagesAnnotation.spec, n: Annotation(), done: Annotation() }))
    .addNode('model', (s) => {
      calls++;
      return new EngineCommand({ goto: 'finish', update: { messages: [
        new AIMessage({ id: `a${s.n}`, content: '', tool_calls: [{ id: 'call_1', name: 'lookup', args: { q: s.n } }] }),
        new ToolMessage({ id: `t${s.n}`, content: 'found', tool_call_id: 'call_1', name: 'lookup' }),
      ] } });
    }, { cachePolicy: true, ends: ['finish'] })
    .addNode('finish', () => ({ done: true }))
    .addEdge(START, 'model').compile({ cache: new InMemoryCache() });
  const fresh = await collect(graph.stream({ n: 1 }, { streamMode: 'updates' }));
  const cached = await collect(graph.stream({ n: 1 }, { streamMode: 'updates' }));
  assert.equal(calls, 1);
  assert.deepEqual(cached[0], { ...fresh[0], __metadata__: { cached: true } });
  assert.deepEqual(cached.slice(1), fresh.slice(1));
  assert.deepEqual(fresh[0].model.messages, [
    { role: 'assistant', content: '', id: 'a1', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":1}' } }] },
    { role: 'tool', content: 'found', id: 't1', name: 'lookup', tool_call_id: 'call_1' },
  ]);
  assert.deepEqual(fresh.at(-1), { finish: { done: true } });
});
