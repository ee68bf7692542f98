// Threads, checkpoints, retries, errors and recursionLimit, ported from LangGraph.js:
// libs/langgraph-core/src/tests/pregel.test.ts and python_port/{checkpoint,interrupt}.test.ts.
// Where a test read LangGraph's saver directly (checkpointer.get), the port reads
// graph.getState(), which both implementations answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, collect, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = impl;

  test(named(impl, 'pregel.test.ts > StateGraph: should use a retry policy'), async () => {
    let erroredOnce = false;
    let nonRetryable = 0;
    const State = Annotation.Root({ total: Annotation(), input: Annotation() });
    const check = ({ total }) => {
      if (total > 2 && !erroredOnce) { erroredOnce = true; throw Object.assign(new Error('I will be retried'), { status: 500 }); }
      if (total > 8) { nonRetryable += 1; throw Object.assign(new Error('Total is too large'), { status: 400 }); }
      return { total };
    };
    const checkpointer = new MemorySaver();
    const app = new StateGraph(State)
      .addNode('add', ({ input, total }) => ({ total: input + (total ?? 0) }))
      .addNode('check', check, { retryPolicy: { logWarning: false, initialInterval: 1, jitter: false } })
      .addEdge('__start__', 'add').addEdge('add', 'check').addEdge('check', '__end__')
      .compile({ checkpointer });
    const thread = (id) => ({ configurable: { thread_id: id } });
    assert.deepEqual(await app.invoke({ input: 2 }, thread('1')), { input: 2, total: 2 });
    // The saver read through LangGraph's own API.
    assert.equal((await checkpointer.get(thread('1'))).channel_values.total, 2);
    assert.ok(await checkpointer.getTuple(thread('1')));
    assert.equal((await app.getState(thread('1'))).values.total, 2);
    assert.equal(erroredOnce, false);
    assert.deepEqual(await app.invoke({ input: 3 }, thread('1')), { input: 3, total: 5 });
    assert.equal(erroredOnce, true);
    assert.equal(nonRetryable, 0);
    await assert.rejects(app.invoke({ input: 4 }, thread('1')), /Total is too large/);
    assert.equal(nonRetryable, 1);
    assert.deepEqual(await app.invoke({ input: 5 }, thread('2')), { input: 5, total: 5 });
    assert.equal((await checkpointer.get(thread('2'))).channel_values.total, 5);
    assert.ok(await checkpointer.get(thread('1')));
    assert.equal(nonRetryable, 1);
    const listed = [];
    for await (const tuple of checkpointer.list(thread('2'))) listed.push(tuple);
    assert.equal(listed[0].checkpoint.channel_values.total, 5);
  });

  test(named(impl, 'python_port/interrupt.test.ts: should properly propagate error from one node to graph invoke'), async () => {
    const graph = new StateGraph(Annotation.Root({}))
      .addNode('agent', async () => {})
      .addNode('bad', async () => { throw new Error('I am bad'); })
      .addConditionalEdges(START, () => ['agent', 'bad'])
      .addEdge('agent', END).addEdge('bad', END)
      .compile();
    await assert.rejects(graph.invoke({}), (e) => e.message === 'I am bad');
  });

  test(named(impl, 'pregel.test.ts: should pass recursion limit set via .withConfig'), async () => {
    const graph = new StateGraph(Annotation.Root({ prop: Annotation() }))
      .addNode('first', async () => ({ prop: 'foo' }))
      .addNode('second', async () => ({}))
      .addEdge('__start__', 'first').addEdge('first', 'second')
      .compile();
    assert.deepEqual(await graph.invoke({}), { prop: 'foo' });
    await assert.rejects(graph.withConfig({ recursionLimit: 1 }).invoke({}), (e) => e instanceof impl.GraphRecursionError && e.name === 'GraphRecursionError');
  });

  test(named(impl, 'pregel.test.ts: can invoke graph ... recursionLimit counts supersteps, as LangGraph does'), async () => {
    const chain = (length) => {
      let g = new StateGraph(Annotation.Root({ n: Annotation({ reducer: (a, b) => a + b, default: () => 0 }) }));
      for (let i = 0; i < length; i++) g = g.addNode(`n${i}`, () => ({ n: 1 }));
      g = g.addEdge(START, 'n0');
      for (let i = 1; i < length; i++) g = g.addEdge(`n${i - 1}`, `n${i}`);
      return g.addEdge(`n${length - 1}`, END).compile({ checkpointer: new MemorySaver() });
    };
    // A chain of `length` nodes needs `length` supersteps: it finishes when recursionLimit > length.
    for (const [length, limit] of [[2, 3], [3, 4]]) {
      assert.equal((await chain(length).invoke({ n: 0 }, { recursionLimit: limit, configurable: { thread_id: 'ok' } })).n, length);
    }
    for (const [length, limit] of [[1, 1], [2, 2], [4, 2], [5, 3]]) {
      const graph = chain(length);
      const config = { recursionLimit: limit, configurable: { thread_id: `t${length}-${limit}` } };
      await assert.rejects(graph.invoke({ n: 0 }, config), (e) => e.name === 'GraphRecursionError' && /Recursion limit of \d+ reached/.test(e.message));
      // The state keeps the supersteps that ran: `limit` of them.
      const state = await graph.getState(config);
      assert.equal(state.values.n, limit);
      assert.deepEqual(state.next, length > limit ? [`n${limit}`] : []);
    }
  });

  test(named(impl, 'python_port/checkpoint.test.ts: should test invoke checkpoint functionality (as a StateGraph)'), async () => {
    let erroredOnce = false;
    const State = Annotation.Root({ total: Annotation({ reducer: (a, b) => a + b, default: () => 0 }), input: Annotation(), output: Annotation() });
    const one = (s) => {
      const x = s.total + s.input;
      if (x > 4 && !erroredOnce) { erroredOnce = true; throw new Error('ConnectionError: I will be retried'); }
      if (x > 10) throw new Error('ValueError: Input is too large');
      return { output: x, total: s.input };
    };
    const app = new StateGraph(State).addNode('one', one, { retryPolicy: { maxAttempts: 3, initialInterval: 1, maxInterval: 4, backoffFactor: 2, jitter: false } })
      .addEdge(START, 'one').addEdge('one', END).compile({ checkpointer: new MemorySaver() });
    const thread = (id) => ({ configurable: { thread_id: id } });
    assert.equal((await app.invoke({ input: 2 }, thread('1'))).output, 2);
    assert.equal((await app.getState(thread('1'))).values.total, 2);
    assert.equal((await app.invoke({ input: 3 }, thread('1'))).output, 5);
    assert.equal(erroredOnce, true);
    assert.equal((await app.getState(thread('1'))).values.total, 5);
    await assert.rejects(app.invoke({ input: 7 }, thread('1')), /ValueError/);
    assert.equal((await app.invoke({ input: 5 }, thread('2'))).output, 5);
    assert.equal((await app.getState(thread('2'))).values.total, 5);
  });

  test(named(impl, 'python_port/checkpoint.test.ts: should test that running from a checkpoint ID retains previous writes'), async () => {
    const State = Annotation.Root({ myval: Annotation({ reducer: (a, b) => a + b, default: () => 0 }), otherval: Annotation({ reducer: (_, b) => b, default: () => false }) });
    let on = false;
    const node = async () => { on = !on; return { myval: on ? 2 : 1, otherval: on }; };
    const edge = (src) => (state) => (state.myval > 3 ? END : state.otherval ? (src === 'node_two' ? 'node_one' : 'node_two') : src);
    const graph = new StateGraph({ stateSchema: State })
      .addNode('node_one', node).addNode('node_two', node)
      .addEdge(START, 'node_one')
      .addConditionalEdges('node_one', edge('node_one'))
      .addConditionalEdges('node_two', edge('node_two'))
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: 'fork-thread' } };
    assert.equal((await graph.invoke({ myval: 1 }, thread)).myval, 4);
    const history = await collect(graph.getStateHistory(thread));
    assert.equal(history.length, 4);
    assert.equal(history.at(-1).values.myval, 0);
    assert.deepEqual(history[0].values, { myval: 4, otherval: false });
    const checkpointId = history[1].config.configurable.checkpoint_id;
    assert.ok(checkpointId);
    // Running from the second checkpoint runs node_two again over that checkpoint's state.
    assert.deepEqual(await graph.invoke(null, { configurable: { ...thread.configurable, checkpoint_id: checkpointId } }), { myval: 5, otherval: true });
    const after = await collect(graph.getStateHistory(thread));
    // +2: the fork's checkpoint, then the new execution's; the original ones follow, unchanged.
    assert.equal(after.length, history.length + 2);
    assert.deepEqual(after[0].values, { myval: 5, otherval: true });
    assert.equal(after[1].metadata.source, 'fork');
    assert.deepEqual(after.slice(2).map((s) => [s.values, s.next, s.metadata.step]), history.map((s) => [s.values, s.next, s.metadata.step]));
  });

  test(named(impl, 'getState and getStateHistory: values, next, config and parentConfig of each checkpoint'), async () => {
    const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('a', () => ({ log: ['a'] })).addNode('b', () => ({ log: ['b'] }))
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'h' } };
    await graph.invoke({ log: ['in'] }, config);
    const history = await collect(graph.getStateHistory(config));
    assert.deepEqual(history.map((s) => s.values.log), [['in', 'a', 'b'], ['in', 'a'], ['in'], []]);
    assert.deepEqual(history.map((s) => s.next), [[], ['b'], ['a'], ['__start__']]);
    assert.deepEqual(history.map((s) => s.metadata.step), [2, 1, 0, -1]);
    assert.deepEqual(history.map((s) => s.metadata.source), ['loop', 'loop', 'loop', 'input']);
    for (let i = 0; i < history.length - 1; i++) assert.deepEqual(history[i].parentConfig.configurable.checkpoint_id, history[i + 1].config.configurable.checkpoint_id);
    const latest = await graph.getState(config);
    assert.deepEqual(latest.values, { log: ['in', 'a', 'b'] });
    assert.equal(latest.config.configurable.checkpoint_id, history[0].config.configurable.checkpoint_id);
    const past = await graph.getState({ configurable: { thread_id: 'h', checkpoint_id: history[2].config.configurable.checkpoint_id } });
    assert.deepEqual(past.values, { log: ['in'] });
    assert.deepEqual(past.next, ['a']);
    assert.equal((await collect(graph.getStateHistory(config, { limit: 2 }))).length, 2);
  });

  test(named(impl, 'a second invoke on a thread continues it: its input goes through the reducers'), async () => {
    const graph = new StateGraph(Annotation.Root({ n: Annotation({ reducer: (a, b) => a + b, default: () => 0 }) }))
      .addNode('a', () => ({ n: 1 })).addEdge(START, 'a').addEdge('a', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'x' } };
    assert.deepEqual(await graph.invoke({ n: 5 }, config), { n: 6 });
    assert.deepEqual(await graph.invoke({ n: 5 }, config), { n: 12 });
    assert.deepEqual(await graph.invoke({ n: 5 }, { configurable: { thread_id: 'y' } }), { n: 6 });
  });

  test(named(impl, 'a step that paused is one checkpoint of the history: a fork of it asks again, and its answer is not replayed'), async () => {
    let sent = 0;
    const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }), approved: Annotation() }))
      .addNode('agent', () => ({ log: ['agent'] }))
      .addNode('review', () => (interrupt('send it?') === 'approve'
        ? new Command({ goto: 'tools', update: { approved: true } })
        : new Command({ goto: END, update: { approved: false } })), { ends: ['tools', END] })
      .addNode('tools', () => { sent++; return { log: ['tools'] }; })
      .addEdge(START, 'agent').addEdge('agent', 'review').addEdge('tools', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'review' } };
    await graph.invoke({ log: [] }, config);
    assert.deepEqual(await graph.invoke(new Command({ resume: 'approve' }), config), { log: ['agent', 'tools'], approved: true });
    const history = [];
    for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
    assert.deepEqual(history.map((s) => [s.metadata.step, s.next]), [[3, []], [2, ['tools']], [1, ['review']], [0, ['agent']], [-1, ['__start__']]]);
    // Each checkpoint's parent is the one listed after it.
    assert.deepEqual(history.slice(0, -1).map((s) => s.parentConfig.configurable.checkpoint_id), history.slice(1).map((s) => s.config.configurable.checkpoint_id));
    // A fork of the step that asked, answered the other way: the email is not sent again.
    const fork = await graph.updateState(history[2].config, { log: ['forked'] });
    assert.deepEqual(await graph.invoke(new Command({ resume: 'reject' }), fork), { log: ['agent', 'forked'], approved: false });
    assert.equal(sent, 1);
  });

  test(named(impl, 'interruptAfter and updateState with asNode: getState shows the step\'s values and where it goes next (its router has chosen)'), async () => {
    const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('x', () => ({ log: ['x'] })).addNode('y', () => ({ log: ['y'] })).addNode('z', () => ({ log: ['z'] }))
      .addEdge(START, 'x').addEdge('x', 'y').addConditionalEdges('y', () => 'z', ['z'])
      .compile({ checkpointer: new MemorySaver(), interruptAfter: ['x', 'y'] });
    const config = { configurable: { thread_id: 'after' } };
    const seen = async () => { const s = await graph.getState(config); return [s.values.log, s.next, s.metadata.step]; };
    await graph.invoke({ log: [] }, config);
    assert.deepEqual(await seen(), [['x'], ['y'], 1]);
    await graph.invoke(null, config);
    assert.deepEqual(await seen(), [['x', 'y'], ['z'], 2]);
    assert.deepEqual(await graph.invoke(null, config), { log: ['x', 'y', 'z'] });
    assert.deepEqual(await seen(), [['x', 'y', 'z'], [], 3]);
    // As node y: the edit is the state now, and y's router decides next (its path map's one destination).
    await graph.updateState(config, { log: ['edit'] }, 'y');
    assert.deepEqual(await seen(), [['x', 'y', 'z', 'edit'], ['z'], 4]);
    const steps = [];
    for await (const s of graph.getStateHistory(config)) steps.push([s.metadata.step, s.next]);
    assert.deepEqual(steps, [[4, ['z']], [3, []], [2, ['z']], [1, ['y']], [0, ['x']], [-1, ['__start__']]]);
  });

  test(named(impl, 'a failed step: getState shows its task\'s error, the history one checkpoint for it, and invoke(null) runs it again'), async () => {
    let fail = true;
    const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('x', () => ({ log: ['x'] }))
      .addNode('boom', () => { if (fail) throw new Error('boom!'); return { log: ['ok'] }; })
      .addEdge(START, 'x').addEdge('x', 'boom').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'failed' } };
    await assert.rejects(graph.invoke({ log: [] }, config), /boom!/);
    const state = await graph.getState(config);
    assert.deepEqual([state.values, state.next, state.tasks.map((t) => [t.name, t.error?.message])], [{ log: ['x'] }, ['boom'], [['boom', 'boom!']]]);
    fail = false;
    assert.deepEqual(await graph.invoke(null, config), { log: ['x', 'ok'] });
    const steps = [];
    for await (const s of graph.getStateHistory(config)) steps.push([s.metadata.step, s.next]);
    assert.deepEqual(steps, [[2, []], [1, ['boom']], [0, ['x']], [-1, ['__start__']]]);
  });

  test(named(impl, 'getStateHistory takes before (a checkpoint\'s config) and filter (metadata values)'), async () => {
    const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('x', () => ({ log: ['x'] })).addNode('y', () => ({ log: ['y'] }))
      .addEdge(START, 'x').addEdge('x', 'y').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'pages' } };
    await graph.invoke({ log: [] }, config);
    const all = [];
    for await (const s of graph.getStateHistory(config)) all.push(s);
    const nexts = async (options) => { const out = []; for await (const s of graph.getStateHistory(config, options)) out.push(s.next); return out; };
    assert.deepEqual(await nexts({ before: all[1].config }), [['x'], ['__start__']]);
    assert.deepEqual(await nexts({ before: all[1].config, limit: 1 }), [['x']]);
    assert.deepEqual(await nexts({ filter: { step: 1 } }), [['y']]);
    assert.deepEqual(await nexts({ filter: { source: 'input' } }), [['__start__']]);
  });
}

// edgegraph's own: what its saver's list() cannot do is refused, not done differently.
test('edgegraph: a saver\'s list() without a thread_id, or with a filter, is refused (INVALID_INPUT / INVALID_OPTIONS), naming what to use instead', async () => {
  const { StateGraph, Annotation, START, END, MemorySaver } = implementations.find((i) => i.name === 'edgegraph');
  const memory = new MemorySaver();
  const graph = new StateGraph(Annotation.Root({ n: Annotation() })).addNode('a', () => ({ n: 1 })).addEdge(START, 'a').addEdge('a', END).compile({ checkpointer: memory });
  await graph.invoke({}, { configurable: { thread_id: 'one' } });
  const drain = async (it) => { for await (const _ of it); };
  await assert.rejects(drain(memory.list({})), (e) => e.code === 'INVALID_INPUT' && /thread_id/.test(e.message));
  await assert.rejects(drain(memory.list({ configurable: { thread_id: 'one' } }, { filter: { source: 'input' } })), (e) => e.code === 'INVALID_OPTIONS' && /filter/.test(e.message) && /getStateHistory/.test(e.message));
  const listed = [];
  for await (const tuple of memory.list({ configurable: { thread_id: 'one' } }, { limit: 2 })) listed.push(tuple.config.configurable.thread_id);
  assert.deepEqual(listed, ['one', 'one']);
});

test('edgegraph: a saver\'s list() by a config that names a checkpoint yields that one, as LangGraph\'s', async () => {
  const { StateGraph, Annotation, START, END, MemorySaver } = implementations.find((i) => i.name === 'edgegraph');
  const memory = new MemorySaver();
  const graph = new StateGraph(Annotation.Root({ n: Annotation() })).addNode('a', () => ({ n: 1 })).addEdge(START, 'a').addEdge('a', END).compile({ checkpointer: memory });
  await graph.invoke({}, { configurable: { thread_id: 'pin' } });
  const [, second] = await collect(memory.list({ configurable: { thread_id: 'pin' } }));
  const pinned = await collect(memory.list(second.config));
  assert.deepEqual(pinned.map((t) => t.checkpoint.id), [second.checkpoint.id]);
});
