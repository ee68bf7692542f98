// Zod states whose fields declare reducers and defaults through the zod entry:
// LangGraph's from @langchain/langgraph/zod (MessagesZodState from
// @langchain/langgraph), edgegraph's from edgegraph/langgraph/zod, the one
// import a program changes. The same program on both: reducers combine a
// node's update and parallel writes, defaults start each run, messages merge
// by id and RemoveMessage removes. A field made by LangGraph's withLangGraph is
// refused by edgegraph's StateGraph (its reducer is in LangGraph's registry,
// out of edgegraph's reach), where it would otherwise overwrite.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { AIMessage, HumanMessage, RemoveMessage } from '@langchain/core/messages';
import * as langgraphZod from '@langchain/langgraph/zod';
import * as edgegraphZod from 'edgegraph/langgraph/zod';
import { implementations, named, views } from './support/impls.js';

// What each library's program imports: the zod entry, and MessagesZodState (LangGraph's main entry has it).
const zodEntry = {
  langgraph: (impl) => ({ ...langgraphZod, MessagesZodState: impl.MessagesZodState }),
  edgegraph: () => edgegraphZod,
};

const concat = (a, b) => a.concat(b);

for (const impl of implementations) {
  const { StateGraph, START, END, messagesStateReducer } = impl;
  const { withLangGraph, registry, MessagesZodState } = zodEntry[impl.name](impl);
  const oneNode = (schema, fn) => new StateGraph(schema).addNode('n', fn).addEdge(START, 'n').addEdge('n', END).compile();

  test(named(impl, 'withLangGraph: the reducer combines a node\'s update with the input (messages appended, not overwritten)'), async () => {
    const State = z.object({
      messages: withLangGraph(z.custom(), { reducer: { schema: z.custom(), fn: messagesStateReducer }, default: () => [] }),
    });
    const graph = oneNode(State, () => ({ messages: [new AIMessage('hi back')] }));
    const out = await graph.invoke({ messages: [new HumanMessage('hi')] });
    assert.deepEqual(views(out.messages).map(({ role, content }) => ({ role, content })), [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hi back' }]);
  });

  test(named(impl, 'schema.register(registry, meta): parallel writes are combined by the reducer (not a conflict)'), async () => {
    const State = z.object({
      items: z.array(z.string()).register(registry, { reducer: { fn: concat }, default: () => [] }),
      count: z.number().default(0),
    });
    const graph = new StateGraph(State)
      .addNode('a', () => ({ items: ['a'], count: 1 }))
      .addNode('b', () => ({ items: ['b'] }))
      .addEdge(START, 'a').addEdge(START, 'b').addEdge('a', END).addEdge('b', END).compile();
    assert.deepEqual(await graph.invoke({ items: ['start'] }), { items: ['start', 'a', 'b'], count: 1 });
  });

  test(named(impl, 'defaults: meta.default, else the field\'s .default(), start each run anew'), async () => {
    const State = z.object({
      items: withLangGraph(z.array(z.string()), { reducer: { fn: concat }, default: () => ['first'] }),
      total: z.number().default(10).register(registry, { reducer: { fn: (a, b) => a + b } }),
    });
    const graph = oneNode(State, () => ({ items: ['n'], total: 1 }));
    // An input without `total`: LangGraph's Zod parse of the input fills in its .default() (10), which the
    // reducer adds to the channel's start (10 again); edgegraph does not parse the input, and starts at 10 once
    // (docs/migrating-from-langgraph.md, the table's Zod row).
    assert.deepEqual(await graph.invoke({}), { items: ['first', 'n'], total: impl.name === 'langgraph' ? 21 : 11 });
    // A second run starts from the defaults again (a reducer never grew a shared array).
    assert.deepEqual(await graph.invoke({ total: 5 }), { items: ['first', 'n'], total: 16 });
  });

  test(named(impl, 'registry: has, get and remove, as a Zod v4 registry'), () => {
    const fn = concat;
    const field = z.array(z.number()).register(registry, { reducer: { fn }, default: () => [] });
    assert.equal(registry.has(field), true);
    assert.equal(registry.get(field)?.reducer?.fn, fn);
    registry.remove(field);
    assert.equal(registry.has(field), false);
  });

  test(named(impl, 'withLangGraph on a Zod v3 field'), async () => {
    const State = z3.object({ log: withLangGraph(z3.array(z3.string()), { reducer: { fn: concat }, default: () => [] }) });
    assert.deepEqual(await oneNode(State, () => ({ log: ['x'] })).invoke({ log: ['start'] }), { log: ['start', 'x'] });
  });

  test(named(impl, 'MessagesZodState: LangChain messages merged by id, RemoveMessage removes, [] by default'), async () => {
    const graph = oneNode(MessagesZodState, (s) => ({
      messages: [new AIMessage({ id: '2', content: `TWO (of ${s.messages.length})` }), new RemoveMessage({ id: '1' }), new AIMessage({ id: '3', content: 'three' })],
    }));
    const out = await graph.invoke({ messages: [new HumanMessage({ id: '1', content: 'one' }), new AIMessage({ id: '2', content: 'two' })] });
    assert.deepEqual(views(out.messages), [{ role: 'assistant', content: 'TWO (of 2)', id: '2' }, { role: 'assistant', content: 'three', id: '3' }]);
    const empty = await oneNode(MessagesZodState, (s) => ({ messages: [new AIMessage({ id: 'a', content: `had ${s.messages.length}` })] })).invoke({});
    assert.deepEqual(views(empty.messages), [{ role: 'assistant', content: 'had 0', id: 'a' }]);
  });

  // (LangGraph's MessagesZodState is a zod/v3 object: programs add zod/v3 fields to it.)
  test(named(impl, 'MessagesZodState.shape.messages in a z.object, MessagesZodState.extend({...}) and .merge(...)'), async () => {
    const Shaped = z3.object({ messages: MessagesZodState.shape.messages, turns: z3.number() });
    const shaped = await oneNode(Shaped, (s) => ({ messages: [new AIMessage('b')], turns: s.turns + 1 })).invoke({ messages: [new HumanMessage('a')], turns: 0 });
    assert.deepEqual(views(shaped.messages).map((m) => m.content), ['a', 'b']);
    assert.equal(shaped.turns, 1);
    for (const Extended of [MessagesZodState.extend({ summary: z3.string().optional() }), MessagesZodState.merge(z3.object({ summary: z3.string().optional() }))]) {
      const extended = await oneNode(Extended, () => ({ messages: [new AIMessage('b')], summary: 's' })).invoke({ messages: [new HumanMessage('a')] });
      assert.deepEqual(views(extended.messages).map((m) => m.content), ['a', 'b']);
      assert.equal(extended.summary, 's');
    }
  });

  test(named(impl, '{ state, input, output } with Zod: the state\'s reducer applies, input and output name the keys'), async () => {
    const items = z.array(z.string()).register(registry, { reducer: { fn: concat }, default: () => [] });
    const graph = new StateGraph({ state: z.object({ question: z.string(), items, scratch: z.string().optional() }), input: z.object({ question: z.string() }), output: z.object({ items }) })
      .addNode('a', (s) => ({ items: [`a:${s.question}`], scratch: 'x' }))
      .addNode('b', () => ({ items: ['b'] }))
      .addEdge(START, 'a').addEdge(START, 'b').addEdge('a', END).addEdge('b', END).compile();
    assert.deepEqual(await graph.invoke({ question: 'q' }), { items: ['a:q', 'b'] });
  });

  test(named(impl, 'a field from @langchain/langgraph/zod\'s withLangGraph: LangGraph combines; edgegraph refuses it at new StateGraph, naming the field (it would overwrite)'), async () => {
    const State = z.object({ log: langgraphZod.withLangGraph(z.array(z.string()), { reducer: { fn: concat }, default: () => [] }), other: z.string().optional() });
    if (impl.name === 'langgraph') {
      assert.deepEqual(await oneNode(State, () => ({ log: ['x'] })).invoke({ log: ['start'] }), { log: ['start', 'x'] });
      return;
    }
    const refused = { name: 'GraphValidationError', code: 'FOREIGN_ZOD_REDUCER', message: /'log'.*'edgegraph\/langgraph\/zod'/ };
    assert.throws(() => new StateGraph(State), refused);
    assert.throws(() => new StateGraph({ state: z.object({ q: z.string() }), output: State }), refused);
    // LangGraph's MessagesZodState (from @langchain/langgraph) too: its field is LangGraph's withLangGraph's.
    const langgraphMessages = implementations.find((i) => i.name === 'langgraph').MessagesZodState;
    assert.throws(() => new StateGraph(langgraphMessages), { code: 'FOREIGN_ZOD_REDUCER', message: /'messages'/ });
  });
}
