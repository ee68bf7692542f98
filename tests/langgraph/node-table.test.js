// A compiled graph's nodes run as named: edgegraph/langgraph hands the engine
// its node table (each node's name, handler and router in the order its
// definition text lists them, which is how the core numbers them) instead of
// the engine reading it from the core. Node names JS objects would reorder
// (integer-like), names JSON must escape, routers and a join: each node and
// router must run as itself. Runs against both implementations.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, collect, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END } = impl;

  test(named(impl, 'nodes named "2", "1", "say \\"hi\\"" and "a", with routers and a join, each run as named'), async () => {
    const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const node = (name) => () => ({ log: [name] });
    const graph = new StateGraph(State)
      .addNode('2', node('2'))
      .addNode('1', node('1'))
      .addNode('say "hi"', node('say "hi"'))
      .addNode('a', node('a'))
      .addEdge(START, '2')
      .addConditionalEdges('2', (state) => (state.log.length === 1 ? ['1', 'say "hi"'] : END))
      .addEdge(['1', 'say "hi"'], 'a')
      .addConditionalEdges('a', () => END)
      .compile();
    const chunks = await collect(graph.stream({ log: [] }, { streamMode: 'updates' }));
    assert.deepEqual(chunks, [{ 2: { log: ['2'] } }, { 1: { log: ['1'] } }, { 'say "hi"': { log: ['say "hi"'] } }, { a: { log: ['a'] } }]);
    assert.deepEqual((await graph.invoke({ log: [] })).log, ['2', '1', 'say "hi"', 'a']);
  });

  test(named(impl, 'names JSON escapes (a quote, a backslash, a newline, an emoji) as static targets and with a router, each run as named'), async () => {
    const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const names = ['plain', 'a\\b', 'line\nbreak', '😀 "q"', 'é'];
    const graph = new StateGraph(State);
    for (const name of names) graph.addNode(name, () => ({ log: [name] }));
    graph.addEdge(START, 'plain').addEdge('plain', 'a\\b').addEdge('a\\b', 'line\nbreak')
      .addConditionalEdges('line\nbreak', () => '😀 "q"', ['😀 "q"']).addEdge('😀 "q"', 'é').addEdge('é', END);
    assert.deepEqual((await graph.compile().invoke({ log: [] })).log, names);
  });
}
