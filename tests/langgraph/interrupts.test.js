// interrupt(), Command, breakpoints, updateState and joins, ported from LangGraph.js:
// libs/langgraph-core/src/tests/pregel.test.ts and python_port/interrupt.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, collect, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt, Send } = impl;

  test(named(impl, 'pregel.test.ts: should fail fast when interrupt is called without a checkpointer'), async () => {
    const graph = new StateGraph(impl.MessagesAnnotation).addNode('one', () => { interrupt('<INTERRUPTED>'); return {}; }).addEdge(START, 'one').compile();
    const config = { configurable: { thread_id: '1' } };
    await assert.rejects(graph.invoke({ messages: [{ type: 'human', content: 'test' }] }, config), /No checkpointer set/);
    await assert.rejects(graph.getState(config), /No checkpointer set/);
  });

  test(named(impl, 'python_port/interrupt.test.ts: should handle dynamic interrupts with state graphs'), async () => {
    const State = Annotation.Root({ my_key: Annotation({ reducer: (a, b) => (a || '') + b }), market: Annotation() });
    let count = 0;
    const builder = new StateGraph({ stateSchema: State })
      .addNode('tool_two', (state) => { count += 1; return state.market === 'DE' ? { my_key: interrupt('Just because...') } : { my_key: ' all good' }; })
      .addEdge(START, 'tool_two');
    await assert.rejects(builder.compile().invoke({ my_key: 'value', market: 'DE' }), /No checkpointer set/);
    assert.equal(count, 1);
    assert.deepEqual(await builder.compile().invoke({ my_key: 'value', market: 'US' }), { my_key: 'value all good', market: 'US' });
    const saved = builder.compile({ checkpointer: new MemorySaver() });
    await assert.rejects(saved.invoke({ my_key: 'value', market: 'DE' }), /thread_id/);
    const thread2 = { configurable: { thread_id: '2' } };
    const first = await collect(saved.stream({ my_key: 'value ⛰️', market: 'DE' }, thread2));
    assert.equal(first.length, 1);
    assert.deepEqual(first[0].__interrupt__.map((i) => i.value), ['Just because...']);
    assert.equal(typeof first[0].__interrupt__[0].id, 'string');
    assert.deepEqual(await collect(saved.stream(new Command({ resume: ' my answer' }), thread2)), [{ tool_two: { my_key: ' my answer' } }]);
    assert.deepEqual((await saved.getState(thread2)).values, { my_key: 'value ⛰️ my answer', market: 'DE' });
  });

  for (const resumeStyle of ['null', 'map']) {
    test(named(impl, `pregel.test.ts: can throw a node interrupt multiple times in a single node (${resumeStyle})`), async () => {
      const graph = new StateGraph(Annotation.Root({ myKey: Annotation({ reducer: (a, b) => a + b }) }))
        .addNode('one', () => { const a = interrupt({ value: 1 }); const b = interrupt({ value: 2 }); return { myKey: `${a} ${b}` }; })
        .addEdge(START, 'one').compile({ checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: 'test_multi_interrupt' }, streamMode: 'values' };
      const first = await collect(graph.stream({ myKey: 'DE' }, config));
      assert.deepEqual(first.at(-1).__interrupt__.map((i) => i.value), [{ value: 1 }]);
      let state = await graph.getState(config);
      assert.equal(state.tasks.length, 1);
      assert.deepEqual(state.tasks[0].interrupts.map((i) => i.value), [{ value: 1 }]);
      let id = state.tasks[0].interrupts[0].id;
      await collect(graph.stream(new Command({ resume: resumeStyle === 'null' ? 'answer 1' : { [id]: 'answer 1' } }), config));
      state = await graph.getState(config);
      assert.deepEqual(state.tasks[0].interrupts.map((i) => i.value), [{ value: 2 }]);
      id = state.tasks[0].interrupts[0].id;
      const third = await collect(graph.stream(new Command({ resume: resumeStyle === 'null' ? 'answer 2' : { [id]: 'answer 2' } }), config));
      assert.equal(third.at(-1).myKey, 'DEanswer 1 answer 2');
      assert.equal((await graph.getState(config)).tasks.length, 0);
    });
  }

  test(named(impl, 'pregel.test.ts: test_command_with_static_breakpoints'), async () => {
    const graph = new StateGraph(Annotation.Root({ foo: Annotation() }))
      .addNode('node1', async (s) => ({ foo: `${s.foo}|node-1` }))
      .addNode('node2', async (s) => ({ foo: `${s.foo}|node-2` }))
      .addEdge('__start__', 'node1').addEdge('node1', 'node2')
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['node1'] });
    const config = { configurable: { thread_id: '1' } };
    assert.deepEqual(await graph.invoke({ foo: 'abc' }, config), { foo: 'abc', __interrupt__: [] });
    assert.deepEqual(await graph.invoke(new Command({ update: { foo: 'def' } }), config), { foo: 'def|node-1|node-2' });
  });

  test(named(impl, 'pregel.test.ts: can goto an interrupt'), async () => {
    const graph = new StateGraph(Annotation.Root({ messages: Annotation({ default: () => [], reducer: (a, b) => [...a, ...(Array.isArray(b) ? b : [b])] }) }))
      .addNode('router', () => new Command({ goto: END }), { ends: ['interrupt', END] })
      .addNode('interrupt', () => ({ messages: [`interrupt: ${interrupt('interrupt')}`] }))
      .addEdge(START, 'router')
      .compile({ checkpointer: new MemorySaver() });
    const configurable = { thread_id: '1' };
    await graph.invoke({ messages: ['input'] }, { configurable });
    let state = await graph.getState({ configurable });
    assert.deepEqual(state.next, []);
    assert.deepEqual(state.values, { messages: ['input'] });
    await graph.invoke(new Command({ goto: 'interrupt', update: { messages: ['update'] } }), { configurable });
    state = await graph.getState({ configurable });
    assert.deepEqual(state.next, ['interrupt']);
    assert.deepEqual(state.values, { messages: ['input', 'update'] });
    assert.deepEqual(state.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value)]), [['interrupt', ['interrupt']]]);
    await graph.invoke(new Command({ resume: 'resume', update: { messages: ['update: resume'] } }), { configurable });
    state = await graph.getState({ configurable });
    assert.deepEqual(state.next, []);
    assert.deepEqual(state.values, { messages: ['input', 'update', 'update: resume', 'interrupt: resume'] });
  });

  test(named(impl, 'pregel.test.ts: can interrupt then update state with asNode of __end__'), async () => {
    const graph = new StateGraph(impl.MessagesAnnotation).addNode('one', () => { interrupt('<INTERRUPTED>'); return {}; }).addEdge(START, 'one')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'test_update_state_as_node_end' } };
    assert.ok(await graph.invoke({ messages: [] }, config));
    assert.deepEqual((await graph.getState(config)).next, ['one']);
    assert.ok(await graph.updateState(config, null, END));
    assert.deepEqual((await graph.getState(config)).next, []);
  });

  test(named(impl, 'pregel.test.ts: should support a simple edgeless graph (Command goto with ends)'), async () => {
    const graph = new StateGraph(Annotation.Root({ foo: Annotation() }))
      .addNode('nodeA', async (s) => new Command({ update: { foo: 'a' }, goto: s.foo === 'foo' ? 'nodeB' : 'nodeC' }), { ends: ['nodeB', 'nodeC'] })
      .addNode('nodeB', async (s) => ({ foo: `${s.foo}|b` }))
      .addNode('nodeC', async (s) => ({ foo: `${s.foo}|c` }))
      .addEdge('__start__', 'nodeA').compile();
    assert.deepEqual(await graph.invoke({ foo: 'foo' }), { foo: 'a|b' });
    assert.deepEqual(await graph.invoke({ foo: '' }), { foo: 'a|c' });
  });

  test(named(impl, 'pregel.test.ts: should support a simple edgeless graph (lists of updates and Commands)'), async () => {
    const graph = new StateGraph(Annotation.Root({ foo: Annotation(), bar: Annotation() }))
      .addNode('nodeA', async (s) => [new Command({ update: { foo: 'a' }, goto: s.foo === 'foo' ? 'nodeB' : 'nodeC' })], { ends: ['nodeB', 'nodeC'] })
      .addNode('nodeB', async (s) => [{ foo: `${s.foo}|b` }, new Command({ update: { bar: 'test' } })])
      .addNode('nodeC', async (s) => ({ foo: `${s.foo}|c` }))
      .addEdge('__start__', 'nodeA').compile();
    assert.deepEqual(await graph.invoke({ foo: 'foo' }), { foo: 'a|b', bar: 'test' });
    assert.deepEqual(await graph.invoke({ foo: '' }), { foo: 'a|c' });
  });

  const fanOut = (waiting) => {
    const sortedAdd = (x, y) => [...x, ...y].sort();
    const b = new StateGraph(Annotation.Root({ query: Annotation(), answer: Annotation(), docs: Annotation({ reducer: sortedAdd }) }))
      .addNode('rewrite_query', (s) => ({ query: `query: ${s.query}` }))
      .addNode('analyzer_one', (s) => ({ query: `analyzed: ${s.query}` }))
      .addNode('retriever_one', () => ({ docs: ['doc1', 'doc2'] }))
      .addNode('retriever_two', async () => ({ docs: ['doc3', 'doc4'] }))
      .addNode('qa', (s) => ({ answer: s.docs?.join(',') }), { defer: waiting === 'defer' })
      .addEdge(START, 'rewrite_query');
    return b;
  };

  test(named(impl, 'pregel.test.ts > StateGraph: In one fan out state graph waiting edge'), async () => {
    const app = fanOut('join').addEdge('rewrite_query', 'analyzer_one').addEdge('analyzer_one', 'retriever_one').addEdge('rewrite_query', 'retriever_two')
      .addEdge(['retriever_one', 'retriever_two'], 'qa').addEdge('qa', END).compile();
    assert.deepEqual(await app.invoke({ query: 'what is weather in sf' }), { query: 'analyzed: query: what is weather in sf', docs: ['doc1', 'doc2', 'doc3', 'doc4'], answer: 'doc1,doc2,doc3,doc4' });
    // qa waited for both retrievers (one superstep apart) and ran once.
    const updates = await collect(app.stream({ query: 'what is weather in sf' }));
    assert.deepEqual(updates.filter((u) => u.qa), [{ qa: { answer: 'doc1,doc2,doc3,doc4' } }]);
  });

  for (const waitingEdge of [true, false]) {
    test(named(impl, `pregel.test.ts > StateGraph: in_one_fan_out_state_graph_defer_node (waiting edge: ${waitingEdge})`), async () => {
      const b = fanOut('defer').addEdge('rewrite_query', 'retriever_one').addEdge('retriever_one', 'analyzer_one').addEdge('rewrite_query', 'retriever_two');
      if (waitingEdge) b.addEdge(['retriever_one', 'retriever_two'], 'qa');
      else b.addEdge('retriever_one', 'qa').addEdge('retriever_two', 'qa');
      const app = b.addEdge('qa', END).compile();
      assert.deepEqual(await app.invoke({ query: 'what is weather in sf' }), { query: 'analyzed: query: what is weather in sf', docs: ['doc1', 'doc2', 'doc3', 'doc4'], answer: 'doc1,doc2,doc3,doc4' });
      assert.deepEqual(await collect(app.stream({ query: 'what is weather in sf' })), [
        { rewrite_query: { query: 'query: what is weather in sf' } },
        { retriever_one: { docs: ['doc1', 'doc2'] } },
        { retriever_two: { docs: ['doc3', 'doc4'] } },
        { analyzer_one: { query: 'analyzed: query: what is weather in sf' } },
        { qa: { answer: 'doc1,doc2,doc3,doc4' } },
      ]);
    });
  }

  test(named(impl, 'updateState with asNode: the write goes through the reducers and that node\'s edges decide what runs next'), async () => {
    const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('x', () => ({ log: ['x'] })).addNode('y', () => ({ log: ['y'] }))
      .addEdge(START, 'x').addEdge('x', 'y').addEdge('y', END)
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['y'] });
    const config = { configurable: { thread_id: 'u' } };
    assert.deepEqual(await graph.invoke({ log: ['in'] }, config), { log: ['in', 'x'], __interrupt__: [] });
    const written = await graph.updateState(config, { log: ['edited'] });
    assert.equal(typeof written.configurable.checkpoint_id, 'string');
    assert.deepEqual((await graph.getState(config)).values, { log: ['in', 'x', 'edited'] });
    assert.deepEqual((await graph.getState(config)).next, ['y']);
    assert.deepEqual(await graph.invoke(null, config), { log: ['in', 'x', 'edited', 'y'] });
  });

  test(named(impl, 'Send inside a Command goto runs the node with its own input'), async () => {
    const graph = new StateGraph(Annotation.Root({ items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('fan', () => new Command({ goto: [new Send('work', { items: ['p'] }), new Send('work', { items: ['q'] })] }), { ends: ['work'] })
      .addNode('work', (s) => ({ items: s.items.map((i) => `${i}!`) }))
      .addEdge(START, 'fan').compile();
    assert.deepEqual(await graph.invoke({ items: [] }), { items: ['p!', 'q!'] });
  });

  // LangGraph keeps a Command's resume given while no interrupt is pending for an interrupt() of the tasks about to run.
  const askGraph = (asks = 1) => new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
    .addNode('a', () => ({ log: ['a'] }))
    .addNode('ask', () => {
      const answers = [];
      for (let i = 0; i < asks; i++) answers.push(interrupt(`q${i}?`));
      return { log: [`ask:${answers.join(',')}`] };
    })
    .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });

  test(named(impl, 'a resume while no interrupt is pending goes to an interrupt() of the tasks about to run: a goto on a finished thread, a fork'), async () => {
    const graph = askGraph();
    const config = { configurable: { thread_id: 'early' } };
    assert.deepEqual((await graph.invoke({ log: [] }, config)).__interrupt__.map((i) => i.value), ['q0?']);
    assert.deepEqual(await graph.invoke(new Command({ resume: 'first' }), config), { log: ['a', 'ask:first'] });
    // The thread finished: the goto runs `ask` again, and its interrupt() takes the resume instead of pausing.
    assert.deepEqual(await graph.invoke(new Command({ goto: 'ask', resume: 'again' }), config), { log: ['a', 'ask:first', 'ask:again'] });
    // A resume alone on a finished thread has nothing to continue: the values, unchanged.
    assert.deepEqual(await graph.invoke(new Command({ resume: 'late' }), config), { log: ['a', 'ask:first', 'ask:again'] });

    // Forks (updateState writes a new checkpoint): of the step where `ask` runs, whose interrupt() takes the answer;
    // of the step before, where `a` runs: the answer was for that step's tasks, and `ask` asks again.
    const other = { configurable: { thread_id: 'fork' } };
    await graph.invoke({ log: [] }, other);
    const at = {};
    for await (const snapshot of graph.getStateHistory(other)) at[snapshot.next.join()] ??= snapshot.config;
    const atAsk = await graph.updateState(at.ask, { log: ['forked'] });
    assert.deepEqual(await graph.invoke(new Command({ resume: 'v' }), atAsk), { log: ['a', 'forked', 'ask:v'] });
    const atA = await graph.updateState(at.a, { log: ['forked'] });
    const asked = await graph.invoke(new Command({ resume: 'w' }), atA);
    assert.deepEqual([asked.log, asked.__interrupt__.map((i) => i.value)], [['forked', 'a'], ['q0?']]);
  });

  test(named(impl, 'Sends to one node, one finished and one paused: getState shows the paused task\'s interrupt'), async () => {
    const graph = new StateGraph(Annotation.Root({ items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }), out: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('w', (s) => ({ out: [s.items[0] === 'b' ? `b:${interrupt('b?')}` : s.items[0]] }))
      .addConditionalEdges(START, (s) => s.items.map((i) => new Send('w', { items: [i] })), ['w'])
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'sends' } };
    await graph.invoke({ items: ['a', 'b'] }, config);
    const state = await graph.getState(config);
    assert.deepEqual([state.next, state.tasks.flatMap((t) => t.interrupts.map((i) => i.value))], [['w'], ['b?']]);
    assert.deepEqual((await graph.invoke(new Command({ resume: 'y' }), config)).out.toSorted(), ['a', 'b:y']);
  });

  test(named(impl, 'a goto to two asking nodes on a finished thread, with a resume: both take it'), async () => {
    const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('a', () => ({ log: ['a'] }), { ends: ['p', 'q'] })
      .addNode('p', () => ({ log: [`p:${interrupt('p?')}`] })).addNode('q', () => ({ log: [`q:${interrupt('q?')}`] }))
      .addEdge(START, 'a').addEdge('a', END).addEdge('p', END).addEdge('q', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'goto-two' } };
    await graph.invoke({ log: [] }, config);
    const resumed = await graph.invoke(new Command({ goto: ['p', 'q'], resume: 'v' }), config);
    assert.deepEqual([resumed.log, resumed.__interrupt__], [['a', 'p:v', 'q:v'], undefined]);
  });
}

test('edgegraph: an answer the first interrupt() took without pausing stays the task\'s when a later interrupt() of the node pauses', async () => {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = implementations.find((i) => i.name === 'edgegraph');
  let calls = 0;
  const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
    .addNode('ask', () => { calls++; const first = interrupt('first?'); const second = interrupt('second?'); return { log: [`${first},${second}`] }; })
    .addNode('done', () => ({ log: ['done'] }), { ends: ['ask'] })
    .addEdge(START, 'done').addEdge('done', END).addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'kept' } };
  assert.deepEqual(await graph.invoke({ log: [] }, config), { log: ['done'] });
  // The goto's run: `ask`'s first interrupt() takes 'x'; its second pauses.
  const paused = await graph.invoke(new Command({ goto: 'ask', resume: 'x' }), config);
  assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['second?']);
  // Its checkpoint keeps 'x' with the task: the resume re-runs the node from the top with both answers.
  assert.deepEqual(await graph.invoke(new Command({ resume: 'y' }), config), { log: ['done', 'x,y'] });
  assert.equal(calls, 2);
});
