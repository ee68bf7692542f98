// StateSchema, LangGraph 1.x's preferred state declaration, ported from LangGraph.js
// libs/langgraph-core/src/state/schema.test.ts (describe "StateSchema"): Standard Schema
// fields (last values, their `.default()`), ReducedValue, MessagesValue, UntrackedValue,
// as a StateGraph's state, input and output schemas.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { implementations, named, views } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, StateSchema, ReducedValue, MessagesValue, UntrackedValue, Command, Send, START, END, MemorySaver } = impl;
  const strings = () => new ReducedValue(z.array(z.string()).default(() => []), { inputSchema: z.string(), reducer: (current, next) => [...current, next] });
  const oneNode = (schema, fn, compiled) => new StateGraph(schema).addNode('n', fn).addEdge(START, 'n').addEdge('n', END).compile(compiled);

  test(named(impl, 'schema.test.ts > constructor: should create a StateSchema with plain schemas / ReducedValue / MessagesValue'), () => {
    const state = new StateSchema({ name: z.string(), count: z.number().default(0), items: strings(), temp: new UntrackedValue(z.string()) });
    assert.equal(StateSchema.isInstance(state), true);
    assert.equal(StateSchema.isInstance({ fields: {} }), false);
    assert.deepEqual(state.getAllKeys(), ['name', 'count', 'items', 'temp']);
    assert.deepEqual(state.getChannelKeys(), ['name', 'count', 'items', 'temp']);
    assert.equal(ReducedValue.isInstance(MessagesValue), true);
    assert.equal(UntrackedValue.isInstance(state.fields.temp), true);
  });

  test(named(impl, 'schema.test.ts > StateGraph integration: should accept StateSchema in constructor (a field\'s .default() starts its channel)'), async () => {
    const graph = oneNode(new StateSchema({ count: z.number().default(0) }), (state) => ({ count: state.count + 1 }));
    assert.equal((await graph.invoke({})).count, 1);
  });

  test(named(impl, 'schema.test.ts > StateGraph integration: should work with ReducedValue'), async () => {
    const graph = oneNode(new StateSchema({ items: strings() }), () => ({ items: 'item1' }));
    assert.deepEqual((await graph.invoke({})).items, ['item1']);
  });

  test(named(impl, 'schema.test.ts > should use ReducedValue defaults; a ReducedValue without one starts at its first write'), async () => {
    const graph = oneNode(new StateSchema({
      sum: new ReducedValue(z.number().default(100), { reducer: (a, b) => a + b }),
      total: new ReducedValue(z.number(), { reducer: (a, b) => a + b }),
    }), () => ({ sum: 1, total: 2 }));
    assert.deepEqual(await graph.invoke({}), { sum: 101, total: 2 });
  });

  test(named(impl, 'schema.test.ts > StateGraph integration: should work with MessagesValue'), async () => {
    const graph = oneNode(new StateSchema({ messages: MessagesValue }), () => ({ messages: { role: 'assistant', content: 'Hello!' } }));
    const result = await graph.invoke({ messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(result.messages.length, 2);
    assert.equal(result.messages[1].content, 'Hello!');
  });

  test(named(impl, 'MessagesValue: the message reducer (an id replaces its message)'), async () => {
    const graph = oneNode(new StateSchema({ messages: MessagesValue }), () => ({ messages: [{ role: 'assistant', content: 'edited', id: 'm1' }, { role: 'assistant', content: 'new', id: 'm2' }] }));
    const result = await graph.invoke({ messages: [{ role: 'user', content: 'first', id: 'm1' }] });
    assert.deepEqual(views(result.messages), [{ role: 'assistant', content: 'edited', id: 'm1' }, { role: 'assistant', content: 'new', id: 'm2' }]);
  });

  test(named(impl, 'schema.test.ts > StateGraph integration: should validate input using StateSchema validation (valid input)'), async () => {
    const graph = oneNode(new StateSchema({ name: z.string(), count: z.number().default(0) }), (state) => ({ count: state.count + 1 }));
    const result = await graph.invoke({ name: 'test' });
    assert.equal(result.count, 1);
    assert.equal(result.name, 'test');
  });

  test(named(impl, 'schema.test.ts > error handling: should provide helpful error for validation failures (edgegraph: not validated)'), async () => {
    const graph = oneNode(new StateSchema({ email: z.string().email() }), () => ({}));
    // LangGraph parses the input with the schema; edgegraph/langgraph does not (docs/migrating-from-langgraph.md).
    if (impl.name === 'langgraph') await assert.rejects(graph.invoke({ email: 'not-valid' }), /email/i);
    else assert.deepEqual(await graph.invoke({ email: 'not-valid' }), { email: 'not-valid' });
  });

  test(named(impl, 'schema.test.ts > error handling: should throw on invalid field type (at new StateGraph)'), () => {
    const invalid = new StateSchema({ invalid: { notASchema: true } });
    assert.throws(() => invalid.getChannels(), /Invalid state field "invalid"/);
    assert.throws(() => new StateGraph(invalid), /Invalid state field "invalid"/);
  });

  test(named(impl, 'schema.test.ts > StateGraph integration: should work with basic Command for goto'), async () => {
    const graph = new StateGraph(new StateSchema({ value: z.string().default(''), visited: strings() }))
      .addNode('a', () => new Command({ update: { value: 'from_a', visited: 'a' }, goto: 'b' }), { ends: ['b', 'c'] })
      .addNode('b', () => ({ value: 'from_b', visited: 'b' }))
      .addNode('c', () => ({ value: 'from_c', visited: 'c' }))
      .addEdge(START, 'a').addEdge('b', END).addEdge('c', END)
      .compile();
    const result = await graph.invoke({});
    assert.equal(result.value, 'from_b');
    assert.deepEqual(result.visited, ['a', 'b']);
  });

  test(named(impl, 'schema.test.ts > StateGraph integration: should work with Command.update containing ReducedValue inputs'), async () => {
    const graph = oneNode(new StateSchema({ messages: strings() }), () => new Command({ update: { messages: 'agent response' } }), { checkpointer: new MemorySaver() });
    const result = await graph.invoke({ messages: 'user input' }, { configurable: { thread_id: '1' } });
    assert.deepEqual(result.messages, ['user input', 'agent response']);
  });

  test(named(impl, 'schema.test.ts > StateGraph integration: should work with interruptBefore and resume'), async () => {
    const graph = new StateGraph(new StateSchema({ step: z.number().default(0), data: z.string().default('') }))
      .addNode('step1', () => ({ step: 1 }))
      .addNode('step2', () => ({ step: 2, data: 'step2_done' }))
      .addNode('step3', () => ({ step: 3 }))
      .addEdge(START, 'step1').addEdge('step1', 'step2').addEdge('step2', 'step3').addEdge('step3', END)
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['step2'] });
    const config = { configurable: { thread_id: '1' } };
    assert.equal((await graph.invoke({}, config)).step, 1);
    const result = await graph.invoke(null, config);
    assert.equal(result.step, 3);
    assert.equal(result.data, 'step2_done');
  });

  test(named(impl, 'schema.test.ts > StateGraph integration: should work with Send for fan-out patterns via conditional edges'), async () => {
    const State = new StateSchema({ tasks: z.array(z.string()).default(() => []), results: strings() });
    const graph = new StateGraph(State)
      .addNode('process', (state) => ({ results: `processed:${state.tasks[0]}` }))
      .addConditionalEdges(START, (state) => state.tasks.map((task) => new Send('process', { tasks: [task], results: task })), ['process'])
      .addEdge('process', END)
      .compile();
    const result = await graph.invoke({ tasks: ['task1', 'task2', 'task3'] });
    assert.deepEqual([...result.results].sort(), ['processed:task1', 'processed:task2', 'processed:task3']);
  });

  test(named(impl, 'schema.test.ts > Mixed schema types: should handle MessagesValue with other ReducedValues'), async () => {
    const graph = oneNode(new StateSchema({ messages: MessagesValue, toolCalls: strings(), currentAgent: z.string().default('assistant') }),
      () => ({ messages: { role: 'assistant', content: 'Hello!' }, toolCalls: 'search', currentAgent: 'search_agent' }));
    const result = await graph.invoke({ messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(result.messages.length, 2);
    assert.deepEqual(result.toolCalls, ['search']);
    assert.equal(result.currentAgent, 'search_agent');
  });

  test(named(impl, 'schema.test.ts > Mixed schema types: should handle UntrackedValue with ReducedValue (edgegraph: checkpointed)'), async () => {
    const State = new StateSchema({ cache: new UntrackedValue(z.record(z.string(), z.string())), results: strings() });
    const graph = oneNode(State, () => ({ cache: { key: 'value' }, results: 'result1' }), { checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: '1' } };
    const result = await graph.invoke({}, config);
    assert.deepEqual(result.results, ['result1']);
    assert.deepEqual(result.cache, { key: 'value' });
    // LangGraph keeps an UntrackedValue out of its checkpoints; edgegraph/langgraph keeps it as any last value.
    const { values } = await graph.getState(config);
    if (impl.name === 'langgraph') assert.equal(values.cache, undefined);
    else assert.deepEqual(values.cache, { key: 'value' });
  });

  test(named(impl, 'UntrackedValue: its schema\'s default, and guard: false keeps the last of a step\'s writes'), async () => {
    const State = new StateSchema({ session: new UntrackedValue(z.string().default('none'), { guard: false }), seen: strings() });
    const graph = new StateGraph(State)
      .addNode('a', (s) => ({ session: 'a', seen: s.session }))
      .addNode('b', () => ({ session: 'b' }))
      .addEdge(START, 'a').addEdge(START, 'b').addEdge('a', END).addEdge('b', END)
      .compile();
    assert.deepEqual(await graph.invoke({}), { session: 'b', seen: ['none'] });
  });

  test(named(impl, 'StateSchema as input and output schemas (the options argument, and { state, input, output })'), async () => {
    const state = new StateSchema({ question: z.string(), answer: z.string(), language: z.string() });
    const input = new StateSchema({ question: z.string() });
    const output = new StateSchema({ answer: z.string() });
    const answer = (s) => ({ answer: `Answer to: ${s.question}`, language: 'en' });
    for (const graph of [oneNode({ state, input, output }, answer), new StateGraph(state, { input, output }).addNode('n', answer).addEdge(START, 'n').compile()]) {
      assert.deepEqual(await graph.invoke({ question: 'What is LangGraph?' }), { answer: 'Answer to: What is LangGraph?' });
    }
  });

  test(named(impl, 'StateSchema: extended by spreading its fields'), async () => {
    const Base = new StateSchema({ messages: MessagesValue });
    const graph = oneNode(new StateSchema({ ...Base.fields, turns: new ReducedValue(z.number().default(0), { reducer: (a, b) => a + b }) }),
      () => ({ messages: [{ role: 'assistant', content: 'ok' }], turns: 1 }));
    const result = await graph.invoke({ messages: [{ role: 'user', content: 'go' }] });
    assert.deepEqual([result.messages.length, result.turns], [2, 1]);
  });

  test(named(impl, 'StateSchema.validateInput parses each field (a reducer\'s by its input schema)'), async () => {
    const State = new StateSchema({ name: z.string(), count: new ReducedValue(z.number().default(0), { inputSchema: z.number().min(0), reducer: (a, b) => a + b }), extra: z.string().default('x') });
    assert.deepEqual(await State.validateInput({ name: 'n', count: 2, other: 1 }), { name: 'n', count: 2, other: 1 });
    await assert.rejects(State.validateInput({ count: -1 }), /Validation failed for field "count"/);
  });
}
