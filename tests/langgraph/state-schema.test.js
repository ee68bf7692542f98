// State declarations, ported from LangGraph.js libs/langgraph-core/src/graph/state.test.ts
// (describe "StateGraph"): Annotation.Root, { stateSchema, input, output }, the
// legacy { channels }, Zod objects (by shape), output filtering, reducer conflicts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { implementations, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END } = impl;
  const counter = () => Annotation.Root({ count: Annotation({ reducer: (a, b) => a + b, default: () => 0 }), name: Annotation() });
  const oneNode = (schema, fn) => new StateGraph(schema).addNode('n', fn).addEdge(START, 'n').addEdge('n', END).compile();

  test(named(impl, 'state.test.ts > constructor: accepts Annotation.Root directly'), async () => {
    const result = await oneNode(counter(), () => ({ count: 1 })).invoke({ name: 'test' });
    assert.equal(result.count, 1);
    assert.equal(result.name, 'test');
  });

  test(named(impl, 'state.test.ts > constructor: accepts Zod schema directly'), async () => {
    const result = await oneNode(z.object({ count: z.number(), name: z.string() }), (s) => ({ count: s.count + 1 })).invoke({ count: 0, name: 'test' });
    assert.equal(result.count, 1);
    assert.equal(result.name, 'test');
  });

  test(named(impl, 'state.test.ts > constructor: accepts { stateSchema, input, output } with Annotation'), async () => {
    const stateSchema = Annotation.Root({ question: Annotation(), answer: Annotation(), language: Annotation() });
    const graph = oneNode({ stateSchema, input: Annotation.Root({ question: Annotation() }), output: Annotation.Root({ answer: Annotation() }) },
      (s) => ({ answer: `Answer to: ${s.question}`, language: 'en' }));
    assert.deepEqual(await graph.invoke({ question: 'What is LangGraph?' }), { answer: 'Answer to: What is LangGraph?' });
  });

  test(named(impl, 'state.test.ts > constructor: accepts { stateSchema } with Annotation (input/output default to state)'), async () => {
    const result = await oneNode({ stateSchema: counter() }, () => ({ count: 1 })).invoke({ name: 'test' });
    assert.equal(result.count, 1);
    assert.equal(result.name, 'test');
  });

  test(named(impl, 'state.test.ts > constructor: accepts { input, output } with Annotation'), async () => {
    const input = Annotation.Root({ question: Annotation(), context: Annotation() });
    const output = Annotation.Root({ question: Annotation(), context: Annotation(), answer: Annotation() });
    const result = await oneNode({ input, output }, (s) => ({ answer: `Answer: ${s.question}` })).invoke({ question: 'Hi', context: 'ctx' });
    assert.equal(result.answer, 'Answer: Hi');
    assert.equal(result.question, 'Hi');
    assert.equal(result.context, 'ctx');
  });

  test(named(impl, 'state.test.ts > constructor: accepts { state, input, output } with Zod'), async () => {
    const graph = oneNode({ state: z.object({ question: z.string(), answer: z.string().optional(), language: z.string().optional() }), input: z.object({ question: z.string() }), output: z.object({ answer: z.string() }) },
      (s) => ({ answer: `Answer to: ${s.question}`, language: 'en' }));
    assert.deepEqual(await graph.invoke({ question: 'What is LangGraph?' }), { answer: 'Answer to: What is LangGraph?' });
  });

  test(named(impl, 'state.test.ts > constructor: accepts { state } with Zod (input/output default to state)'), async () => {
    const result = await oneNode({ state: z.object({ count: z.number(), name: z.string() }) }, (s) => ({ count: s.count + 1 })).invoke({ count: 0, name: 'test' });
    assert.equal(result.count, 1);
    assert.equal(result.name, 'test');
  });

  test(named(impl, 'state.test.ts > deprecated patterns: accepts { channels: {...} }'), async () => {
    const result = await oneNode({ channels: { count: { reducer: (a, b) => a + b, default: () => 0 }, name: null } }, () => ({ count: 1 })).invoke({ name: 'test' });
    assert.equal(result.count, 1);
    assert.equal(result.name, 'test');
  });

  test(named(impl, 'the older { channels } form\'s reducers under `value` fold every write (a chain, and parallel writes)'), async () => {
    const graph = new impl.StateGraph({ channels: { messages: { value: (x, y) => x.concat(y), default: () => [] }, count: { value: (x, y) => x + y, default: () => 0 } } })
      .addNode('a', () => ({ messages: ['from a'], count: 1 })).addNode('b', () => ({ messages: ['from b'], count: 1 })).addNode('c', () => ({ messages: ['from c'], count: 1 }))
      .addEdge(impl.START, 'a').addEdge('a', 'b').addEdge('a', 'c').addEdge('b', impl.END).addEdge('c', impl.END).compile();
    assert.deepEqual(await graph.invoke({ messages: ['hi'], count: 1 }), { messages: ['hi', 'from a', 'from b', 'from c'], count: 4 });
  });

  test(named(impl, 'state.test.ts > graph functionality: correctly collapses multiple schemas into channels'), async () => {
    const stateSchema = Annotation.Root({ question: Annotation(), answer: Annotation(), internal: Annotation() });
    const graph = oneNode({ stateSchema, input: Annotation.Root({ question: Annotation() }), output: Annotation.Root({ answer: Annotation() }) },
      (s) => ({ answer: `Answer: ${s.question}`, internal: 'internal data' }));
    const result = await graph.invoke({ question: 'test' });
    assert.deepEqual(result, { answer: 'Answer: test' });
    assert.equal(result.internal, undefined);
  });

  test(named(impl, 'state.test.ts > graph functionality: outputs only fields from output schema'), async () => {
    const graph = oneNode({ state: z.object({ question: z.string(), answer: z.string().optional(), metadata: z.string().optional() }), output: z.object({ answer: z.string() }) },
      (s) => ({ answer: `Answer: ${s.question}`, metadata: 'some metadata' }));
    const result = await graph.invoke({ question: 'test' });
    assert.deepEqual(result, { answer: 'Answer: test' });
    assert.ok(!('metadata' in result));
  });

  test(named(impl, 'state.test.ts > graph functionality: detects channel conflicts with different reducers'), () => {
    const schema1 = Annotation.Root({ items: Annotation({ reducer: (a, b) => [...a, ...b], default: () => [] }) });
    const schema2 = Annotation.Root({ items: Annotation({ reducer: (_a, b) => b, default: () => [] }) });
    assert.throws(() => new StateGraph({ stateSchema: schema1, output: schema2 }).addNode('process', () => ({})).addEdge(START, 'process').addEdge('process', END).compile());
  });

  test(named(impl, 'state.test.ts > graph functionality: per-node input with Annotation (with reducer in state): a node sees the whole state'), async () => {
    const State = Annotation.Root({ items: Annotation({ reducer: (a, b) => [...a, ...b], default: () => [] }), label: Annotation() });
    const graph = new StateGraph(State)
      .addNode('a', () => ({ items: ['a'], label: 'x' }))
      .addNode('b', (s) => ({ items: [`b saw ${s.items.join('+')} ${s.label}`] }))
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END).compile();
    assert.deepEqual(await graph.invoke({ items: ['0'] }), { items: ['0', 'a', 'b saw 0+a x'], label: 'x' });
  });
}
