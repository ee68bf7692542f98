// LangGraph 1.7's node policies: addNode(name, fn, { timeout, errorHandler }),
// StateGraph.setNodeDefaults(...), and the error classes programs test for
// (libs/langgraph-core/src/tests: timeout, error handler and node defaults
// tests of pregel.test.ts); each test runs on both implementations.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, named } from './support/impls.js';

/** A node that waits until its try's signal fires (as a hung model call does), then says so. */
const hung = (seen) => async (state, config) => {
  await new Promise((resolve) => config.signal.addEventListener('abort', resolve, { once: true }));
  seen.push('stopped');
  return { out: 'too late' };
};

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver } = impl;
  const State = () => Annotation.Root({ out: Annotation(), lastError: Annotation(), tries: Annotation({ reducer: (a, b) => a + b, default: () => 0 }) });

  test(named(impl, 'a node\'s timeout stops its try (its signal fires) and fails the run with a NodeTimeoutError naming the node; getState keeps the node to run'), async () => {
    const seen = [];
    const graph = new StateGraph(State())
      .addNode('llm', hung(seen), { timeout: 20 })
      .addEdge(START, 'llm').addEdge('llm', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'timeout' } };
    const error = await graph.invoke({}, config).then(() => null, (e) => e);
    assert.equal(error?.name, 'NodeTimeoutError');
    assert.ok(impl.isNodeTimeoutError(error) && error instanceof impl.NodeTimeoutError && error instanceof impl.BaseLangGraphError);
    assert.equal(error.node, 'llm');
    assert.deepEqual(seen, ['stopped']);
    const state = await graph.getState(config);
    assert.deepEqual(state.next, ['llm']);
    assert.equal(state.tasks[0].error?.name, 'NodeTimeoutError');
  });

  test(named(impl, 'a timeout of { runTimeout } is a try\'s cap too, and a node that answers in time is not stopped'), async () => {
    const seen = [];
    const graph = new StateGraph(State())
      .addNode('slow', hung(seen), { timeout: { runTimeout: 20 } })
      .addNode('quick', () => ({ out: 'in time' }), { timeout: 60_000 })
      .addEdge(START, 'quick').addEdge('quick', 'slow').addEdge('slow', END)
      .compile();
    const error = await graph.invoke({}).then(() => null, (e) => e);
    assert.equal(error?.name, 'NodeTimeoutError');
    assert.equal(error.node, 'slow');
    assert.deepEqual(seen, ['stopped']);
  });

  test(named(impl, 'an errorHandler runs once the node\'s last try failed (after its retries), with a NodeError; its update is written, and the node\'s branch ends there (the handler is a node without edges)'), async () => {
    let tries = 0;
    const handled = [];
    const graph = new StateGraph(State())
      .addNode('fetch', () => { tries++; throw new Error('api down'); }, {
        retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false },
        errorHandler: (state, nodeError) => {
          handled.push([impl.isNodeError(nodeError), nodeError.node, nodeError.error.message]);
          return { lastError: `${nodeError.node}: ${nodeError.error.message}`, tries };
        },
      })
      .addNode('after', (state) => ({ out: `after ${state.lastError}` }))
      .addEdge(START, 'fetch').addEdge('fetch', 'after').addEdge('after', END)
      .compile();
    const result = await graph.invoke({});
    assert.deepEqual(result, { lastError: 'fetch: api down', tries: 3 });
    assert.deepEqual(handled, [[true, 'fetch', 'api down']]);
  });

  test(named(impl, 'an errorHandler\'s Command routes the branch (the node\'s own edges are not followed), and one that throws fails the run with what it threw'), async () => {
    const graph = new StateGraph(State())
      .addNode('fetch', () => { throw new Error('api down'); }, { errorHandler: () => new impl.Command({ update: { lastError: 'down' }, goto: 'fallback' }), ends: ['fallback'] })
      .addNode('after', () => ({ out: 'after' }))
      .addNode('fallback', () => ({ out: 'fallback' }))
      .addEdge(START, 'fetch').addEdge('fetch', 'after').addEdge('after', END).addEdge('fallback', END)
      .compile();
    assert.deepEqual(await graph.invoke({}), { lastError: 'down', out: 'fallback', tries: 0 });
    let calls = 0;
    const failing = new StateGraph(State())
      .addNode('fetch', () => { throw new Error('api down'); }, { errorHandler: () => { calls++; throw new Error('handler down'); } })
      .addEdge(START, 'fetch').addEdge('fetch', END)
      .compile();
    await assert.rejects(failing.invoke({}), /handler down/);
    assert.equal(calls, 1);
    // A list of Commands is one, as a node's: the branch goes where it says.
    const listed = new StateGraph(State())
      .addNode('fetch', () => { throw new Error('api down'); }, { errorHandler: () => [new impl.Command({ update: { lastError: 'down' } }), new impl.Command({ goto: 'fallback' })], ends: ['fallback'] })
      .addNode('after', () => ({ out: 'after' }))
      .addNode('fallback', () => ({ out: 'fallback' }))
      .addEdge(START, 'fetch').addEdge('fetch', 'after').addEdge('after', END).addEdge('fallback', END)
      .compile();
    assert.deepEqual(await listed.invoke({}), { lastError: 'down', out: 'fallback', tries: 0 });
  });

  test(named(impl, 'an errorHandler may ask (interrupt()) of a sync node: the run pauses, and the resume\'s answer is the handler\'s'), async () => {
    const graph = new StateGraph(State())
      .addNode('a', () => { throw new Error('x'); }, { errorHandler: () => ({ out: `fixed: ${impl.interrupt('fix?')}` }) })
      .addEdge(START, 'a').addEdge('a', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'handler-asks' } };
    const paused = await graph.invoke({}, config);
    assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['fix?']);
    assert.equal((await graph.invoke(new impl.Command({ resume: 'yes' }), config)).out, 'fixed: yes');
  });

  test(named(impl, 'an errorHandler on a node with conditional edges: its branch ends there, the router is not asked'), async () => {
    const routed = [];
    const graph = new StateGraph(State())
      .addNode('a', () => { throw new Error('boom'); }, { errorHandler: (s, e) => ({ lastError: e.error.message }) })
      .addNode('b', () => ({ out: 'b' }))
      .addEdge(START, 'a').addConditionalEdges('a', () => { routed.push('asked'); return 'b'; }, ['b', END]).addEdge('b', END)
      .compile();
    assert.deepEqual(await graph.invoke({}), { lastError: 'boom', tries: 0 });
    assert.deepEqual(routed, []);
  });

  test(named(impl, 'setNodeDefaults: a graph-wide retry policy and errorHandler, before or after addNode; a node\'s own options win'), async () => {
    let flaky = 0, own = 0;
    const graph = new StateGraph(State())
      .addNode('flaky', () => { if (++flaky < 3) throw new Error('flaky'); return { tries: flaky }; })
      .addNode('own', () => { own++; throw new Error('own'); }, { retryPolicy: { maxAttempts: 1 } })
      .setNodeDefaults({ retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false }, errorHandler: (state, e) => ({ lastError: e.node }) })
      .addEdge(START, 'flaky').addEdge('flaky', 'own').addEdge('own', END)
      .compile();
    const result = await graph.invoke({});
    assert.deepEqual(result, { tries: 3, lastError: 'own' });
    assert.deepEqual([flaky, own], [3, 1]);
  });

  test(named(impl, 'setNodeDefaults: a field left undefined (in a later call, or in a node\'s own options) is none: the default stands'), async () => {
    let a = 0, b = 0;
    const graph = new StateGraph(State())
      .setNodeDefaults({ retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false }, errorHandler: () => ({ tries: 1 }) })
      .setNodeDefaults({ retryPolicy: undefined })
      .addNode('a', () => { a++; throw new Error('a'); }, { retryPolicy: undefined, errorHandler: undefined })
      .addNode('b', () => { b++; throw new Error('b'); })
      .addEdge(START, 'a').addEdge(START, 'b')
      .compile();
    // (Each node tried twice, then handled: the handlers' writes add up.)
    assert.deepEqual(await graph.invoke({}), { tries: 2 });
    assert.deepEqual([a, b], [2, 2]);
  });

  test(named(impl, 'LangGraph\'s error classes: every one a BaseLangGraphError, GraphBubbleUp matching what a node rethrows'), async () => {
    for (const name of ['GraphRecursionError', 'InvalidUpdateError', 'UnreachableNodeError', 'EmptyInputError', 'GraphValueError', 'EmptyChannelError', 'UnknownInterruptError', 'StateGraphInputError', 'MultipleSubgraphsError', 'RemoteException']) {
      const e = new impl[name]('x', { reason: 'not_pending' });
      assert.ok(e instanceof impl.BaseLangGraphError && e instanceof Error, name);
      // (LangGraph's MultipleSubgraphsError is named without the s.)
      assert.equal(e.name, name === 'MultipleSubgraphsError' ? 'MultipleSubgraphError' : name);
    }
    assert.ok(impl.isUnknownInterruptError(new impl.UnknownInterruptError('x', { reason: 'not_pending' })));
    // A node's catch-all rethrows what is a GraphBubbleUp: an interrupt is one, a plain error is not.
    const graph = new StateGraph(State())
      .addNode('ask', () => {
        try { return { out: impl.interrupt('ok?') }; } catch (e) { if (e instanceof impl.GraphBubbleUp) throw e; return { out: 'swallowed' }; }
      })
      .addEdge(START, 'ask').addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const paused = await graph.invoke({}, { configurable: { thread_id: 'bubble' } });
    assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['ok?']);
    assert.ok(!(new Error('x') instanceof impl.GraphBubbleUp));
  });
}

// edgegraph's own: a try's progress is not watched, so an idleTimeout is refused (LangGraph's restarts its clock on progress).
test('edgegraph: a timeout with idleTimeout is refused when the graph compiles, naming the node', async () => {
  const { StateGraph, Annotation, START, END } = implementations[1];
  const builder = new StateGraph(Annotation.Root({ out: Annotation() }))
    .addNode('llm', () => ({ out: 1 }), { timeout: { idleTimeout: 1000 } })
    .addEdge(START, 'llm').addEdge('llm', END);
  assert.throws(() => builder.compile(), (e) => e.code === 'INVALID_DEFINITION' && /nodes\.llm\.timeoutMs/.test(e.message));
});

// edgegraph's own: an answer for an interrupt that is not pending is refused (LangGraph's ignores it), as UnknownInterruptError.
test('edgegraph: a Command({ resume }) by an id that is not pending throws UnknownInterruptError (reason not_pending), naming the pending id', async () => {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt, UnknownInterruptError, isUnknownInterruptError, BaseLangGraphError } = implementations[1];
  const graph = new StateGraph(Annotation.Root({ v: Annotation() })).addNode('ask', () => ({ v: interrupt('q') })).addEdge(START, 'ask').addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'stale' } };
  const [{ id }] = (await graph.invoke({}, config)).__interrupt__;
  const error = await graph.invoke(new Command({ resume: { 'other:1.0:0': 'x' } }), config).then(() => null, (e) => e);
  assert.ok(error instanceof UnknownInterruptError && error instanceof BaseLangGraphError && isUnknownInterruptError(error));
  assert.equal(error.reason, 'not_pending');
  assert.ok(error.message.includes(id), error.message);
  assert.deepEqual((await graph.getState(config)).next, ['ask']);
});

test('edgegraph: a class extending GraphBubbleUp is matched as any class is (an interrupt is not one of it)', () => {
  const { GraphBubbleUp, GraphInterrupt, BaseLangGraphError } = implementations[1];
  class Mine extends GraphBubbleUp {}
  assert.ok(new Mine('x') instanceof Mine && new Mine('x') instanceof GraphBubbleUp && new Mine('x') instanceof BaseLangGraphError);
  assert.ok(!(new GraphInterrupt([{ id: 'a', value: 1 }]) instanceof Mine));
  assert.ok(new GraphInterrupt([{ id: 'a', value: 1 }]) instanceof GraphBubbleUp);
  assert.equal(new GraphBubbleUp('x').name, 'GraphBubbleUp');
});
