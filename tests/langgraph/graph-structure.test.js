// Graph shapes, ported from LangGraph.js libs/langgraph-core/src/tests/python_port/graph_structure.test.ts.
// Tests written there on raw Pregel channels are ported as the same flow in a StateGraph
// (edgegraph/langgraph has no Pregel layer); concurrent invokes of one compiled graph included.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, collect, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, Send } = impl;

  test(named(impl, 'graph_structure.test.ts: should handle conditional edges after send'), async () => {
    const State = Annotation.Root({ items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const node = (name) => async () => ({ items: [name] });
    const graph = new StateGraph(State)
      .addNode('1', node('1')).addNode('2', node('2')).addNode('3', node('3'))
      .addEdge(START, '1')
      .addConditionalEdges('1', (state) => [new Send('2', state), new Send('2', state)])
      .addConditionalEdges('2', () => '3')
      .compile();
    assert.deepEqual(await graph.invoke({ items: ['0'] }), { items: ['0', '1', '2', '2', '3'] });
  });

  const entrypoint = (State, fields) => new StateGraph(State)
    .addNode('left', async (s) => ({ [fields.out]: `${s[fields.in]}->left` }))
    .addNode('right', async (s) => ({ [fields.out]: `${s[fields.in]}->right` }))
    .addConditionalEdges(START, (s) => (s[fields.in].length > 10 ? 'go-right' : 'go-left'), { 'go-left': 'left', 'go-right': 'right' })
    .addConditionalEdges('left', () => END)
    .addEdge('right', END)
    .compile();

  test(named(impl, 'graph_structure.test.ts: should handle conditional entrypoint graphs'), async () => {
    const app = entrypoint(Annotation.Root({ value: Annotation({ default: () => '', reducer: (_, b) => b }) }), { in: 'value', out: 'value' });
    assert.equal((await app.invoke({ value: 'what is weather in sf' })).value, 'what is weather in sf->right');
    assert.deepEqual(await collect(app.stream({ value: 'what is weather in sf' })), [{ right: { value: 'what is weather in sf->right' } }]);
    assert.equal((await app.invoke({ value: 'short' })).value, 'short->left');
  });

  test(named(impl, 'graph_structure.test.ts: should handle conditional entrypoint graphs with state'), async () => {
    const State = Annotation.Root({
      input: Annotation({ default: () => '', reducer: (_, b) => b }),
      output: Annotation({ default: () => '', reducer: (_, b) => b }),
      steps: Annotation({ default: () => [], reducer: (a, b) => a.concat(b) }),
    });
    const app = entrypoint(State, { in: 'input', out: 'output' });
    const input = { input: 'what is weather in sf', output: '', steps: [] };
    assert.deepEqual(await app.invoke(input), { input: 'what is weather in sf', output: 'what is weather in sf->right', steps: [] });
    assert.deepEqual(await collect(app.stream(input)), [{ right: { output: 'what is weather in sf->right' } }]);
  });

  test(named(impl, 'graph_structure.test.ts: should process two inputs joined into one topic and produce two outputs (100 in a row, 100 at once)'), async () => {
    const State = Annotation.Root({ input: Annotation(), inbox: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }), output: Annotation() });
    const app = new StateGraph(State)
      .addNode('one', (s) => ({ inbox: [s.input + 1] }))
      .addNode('chainThree', (s) => ({ inbox: [s.input + 1] }))
      .addNode('chainFour', (s) => ({ output: s.inbox.map((y) => y + 10).sort() }))
      .addEdge(START, 'one').addEdge(START, 'chainThree')
      .addEdge('one', 'chainFour').addEdge('chainThree', 'chainFour')
      .addEdge('chainFour', END)
      .compile();
    for (let i = 0; i < 100; i++) assert.deepEqual((await app.invoke({ input: 2 })).output, [13, 13]);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => app.invoke({ input: i })));
    results.forEach((r, i) => assert.deepEqual(r.output, [i + 11, i + 11]));
  });

  test(named(impl, 'graph_structure.test.ts: should invoke join then call other app (10 in a row, 10 at once)'), async () => {
    const inner = new StateGraph(Annotation.Root({ input: Annotation(), output: Annotation() }))
      .addNode('one', (s) => ({ output: s.input + 1 })).addEdge(START, 'one').addEdge('one', END).compile();
    const State = Annotation.Root({ input: Annotation(), outbox: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }), output: Annotation() });
    const app = new StateGraph(State)
      .addNode('two', async (s) => ({ outbox: [(await inner.invoke({ input: s.input })).output] }))
      .addNode('chain_three', (s) => ({ output: s.outbox.reduce((a, b) => a + b, 0) }))
      .addConditionalEdges(START, (s) => s.input.map((x) => new Send('two', { input: x + 10 })))
      .addEdge('two', 'chain_three').addEdge('chain_three', END)
      .compile();
    for (let i = 0; i < 10; i++) assert.equal((await app.invoke({ input: [2, 3] })).output, 27);
    assert.deepEqual((await Promise.all(Array.from({ length: 10 }, () => app.invoke({ input: [2, 3] })))).map((r) => r.output), Array(10).fill(27));
  });

  test(named(impl, 'graph_structure.test.ts: should handle two processes with one input and two outputs'), async () => {
    const State = Annotation.Root({ input: Annotation(), between: Annotation(), output: Annotation() });
    const app = new StateGraph(State)
      .addNode('one', (s) => ({ output: s.input + 1, between: s.input + 1 }))
      .addNode('two', (s) => ({ output: s.between + 1 }))
      .addEdge(START, 'one').addEdge('one', 'two').addEdge('two', END)
      .compile();
    const values = await collect(app.stream({ input: 2 }, { streamMode: 'values' }));
    assert.deepEqual(values.slice(1).map(({ between, output }) => ({ between, output })), [{ between: 3, output: 3 }, { between: 3, output: 4 }]);
  });

  test(named(impl, 'graph_structure.test.ts: should finish executing without output'), async () => {
    const State = Annotation.Root({ input: Annotation(), between: Annotation(), output: Annotation() });
    const app = new StateGraph(State)
      .addNode('one', (s) => ({ between: s.input + 1 }))
      .addNode('two', () => {})
      .addEdge(START, 'one').addEdge('one', 'two')
      .compile();
    const out = await app.invoke({ input: 2 });
    assert.equal(out.output, undefined);
    assert.deepEqual(out, { input: 2, between: 3 });
  });
}
