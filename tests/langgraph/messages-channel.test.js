// A messages channel in a running graph: LangGraph's reducer rules (ids
// assigned, removal by id, an unknown id an error, REMOVE_ALL_MESSAGES, a
// removed and re-added id keeping its place), checked against LangGraph.js
// itself; then that edgegraph runs the channel on the core's own `messages`
// reducer, so a step writes its update, not the whole list (js/langgraph/messages-channel.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage, RemoveMessage } from '@langchain/core/messages';
import { MemoryStore } from 'edgegraph';
import { implementations, views, named } from './support/impls.js';

const thread = () => ({ configurable: { thread_id: randomUUID() } });

/** START -> a -> END over MessagesAnnotation; `a` returns `update(state)`. */
function oneNode(impl, update, options = {}) {
  return new impl.StateGraph(impl.MessagesAnnotation)
    .addNode('a', (state) => update(state))
    .addEdge(impl.START, 'a').addEdge('a', impl.END)
    .compile(options);
}

const seed = () => ({ messages: [new HumanMessage({ id: '1', content: 'one' }), new AIMessage({ id: '2', content: 'two' }), new HumanMessage({ id: '3', content: 'three' })] });

for (const impl of implementations) {
  test(named(impl, 'messages channel: the input and a single returned message get ids and are appended'), async () => {
    const graph = oneNode(impl, () => ({ messages: new AIMessage('hello') }));
    const { messages } = await graph.invoke({ messages: [new HumanMessage('hi')] });
    assert.deepEqual(views(messages).map(({ role, content }) => ({ role, content })), [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]);
    assert.ok(messages.every((m) => typeof m.id === 'string' && m.id.length > 0));
    assert.notEqual(messages[0].id, messages[1].id);
  });

  test(named(impl, 'messages channel: a message with an existing id replaces it in place; a removal deletes it'), async () => {
    const graph = oneNode(impl, () => ({ messages: [new AIMessage({ id: '2', content: 'TWO' }), new RemoveMessage({ id: '1' }), new AIMessage({ id: '4', content: 'four' })] }));
    const { messages } = await graph.invoke(seed());
    assert.deepEqual(views(messages), [{ role: 'assistant', content: 'TWO', id: '2' }, { role: 'user', content: 'three', id: '3' }, { role: 'assistant', content: 'four', id: '4' }]);
  });

  test(named(impl, 'messages channel: an id removed and re-added in one update keeps its place'), async () => {
    const graph = oneNode(impl, () => ({ messages: [new RemoveMessage({ id: '1' }), new HumanMessage({ id: '1', content: 'ONE' }), new AIMessage({ id: '4', content: 'four' }), new RemoveMessage({ id: '4' })] }));
    const { messages } = await graph.invoke(seed());
    assert.deepEqual(views(messages), [{ role: 'user', content: 'ONE', id: '1' }, { role: 'assistant', content: 'two', id: '2' }, { role: 'user', content: 'three', id: '3' }]);
  });

  test(named(impl, 'messages channel: REMOVE_ALL_MESSAGES drops everything before it, in the update too'), async () => {
    const graph = oneNode(impl, () => ({ messages: [new AIMessage({ id: '9', content: 'dropped' }), new RemoveMessage({ id: impl.REMOVE_ALL_MESSAGES }), new HumanMessage({ id: '3', content: 'again' }), new AIMessage({ id: '5', content: 'five' })] }));
    const { messages } = await graph.invoke(seed());
    assert.deepEqual(views(messages), [{ role: 'user', content: 'again', id: '3' }, { role: 'assistant', content: 'five', id: '5' }]);
  });

  test(named(impl, 'messages channel: removing an id that is not there fails the run'), async () => {
    const graph = oneNode(impl, () => ({ messages: [new RemoveMessage({ id: 'nope' })] }));
    // LangGraph throws a plain Error; edgegraph's is REDUCER_FAILED naming the channel and the node, as a JS reducer's throw.
    await assert.rejects(graph.invoke(seed()), (e) => /nope/.test(e.message) && (impl.name === 'langgraph' || (e.code === 'REDUCER_FAILED' && /'messages'.*node 'a'/.test(e.message))));
  });

  test(named(impl, 'messages channel: updateState removes by id and with REMOVE_ALL_MESSAGES; an unknown id is an error'), async () => {
    const graph = oneNode(impl, () => ({ messages: [new AIMessage({ id: '4', content: 'four' })] }), { checkpointer: new impl.MemorySaver() });
    const config = thread();
    await graph.invoke(seed(), config);
    await graph.updateState(config, { messages: [new RemoveMessage({ id: '2' })] });
    assert.deepEqual(views((await graph.getState(config)).values.messages).map((m) => m.id), ['1', '3', '4']);
    await assert.rejects(graph.updateState(config, { messages: [new RemoveMessage({ id: '2' })] }), /'2'|2/);
    await graph.updateState(config, { messages: [new RemoveMessage({ id: impl.REMOVE_ALL_MESSAGES }), new HumanMessage({ id: '7', content: 'fresh' })] });
    assert.deepEqual(views((await graph.getState(config)).values.messages), [{ role: 'user', content: 'fresh', id: '7' }]);
  });

  test(named(impl, 'messages channel: a resume\'s Command update with REMOVE_ALL_MESSAGES applies to the paused thread\'s messages'), async () => {
    const graph = new impl.StateGraph(impl.MessagesAnnotation)
      .addNode('a', () => ({ messages: [new HumanMessage({ id: '9', content: String(impl.interrupt('ok?')) })] }))
      .addEdge(impl.START, 'a').addEdge('a', impl.END)
      .compile({ checkpointer: new impl.MemorySaver() });
    const config = thread();
    await graph.invoke(seed(), config);
    const update = { messages: [new RemoveMessage({ id: impl.REMOVE_ALL_MESSAGES }), new HumanMessage({ id: '3', content: 'three' })] };
    const { messages } = await graph.invoke(new impl.Command({ resume: 'yes', update }), config);
    assert.deepEqual(views(messages), [{ role: 'user', content: 'three', id: '3' }, { role: 'user', content: 'yes', id: '9' }]);
  });

  test(named(impl, 'messages channel: a Command writing the channel twice removes what the first write added'), async () => {
    const graph = oneNode(impl, () => new impl.Command({ update: [['messages', [new AIMessage({ id: '4', content: 'four' })]], ['messages', [new RemoveMessage({ id: '4' }), new RemoveMessage({ id: '1' })]]] }));
    const { messages } = await graph.invoke(seed());
    assert.deepEqual(views(messages).map((m) => m.id), ['2', '3']);
  });

  test(named(impl, 'messages channel: a Command that removes an id in one write and re-adds it in a later one moves it to the end'), async () => {
    const graph = oneNode(impl, () => new impl.Command({ update: [['messages', [new RemoveMessage({ id: '1' })]], ['messages', [new HumanMessage({ id: '1', content: 'again' })]]] }));
    const { messages } = await graph.invoke(seed());
    assert.deepEqual(views(messages).map((m) => `${m.id}:${m.content}`), ['2:two', '3:three', '1:again']);
  });
}

/** A ReAct-shaped loop of `turns` agent/tool turns over `annotation`, checkpointed to `store`. */
function loop(edgegraph, annotation, turns, store) {
  let n = 0;
  return new edgegraph.StateGraph(annotation)
    .addNode('agent', () => ({ messages: [{ role: 'assistant', content: '', tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'search', arguments: '{}' } }] }] }))
    .addNode('tools', (state) => ({ messages: [{ role: 'tool', tool_call_id: state.messages.at(-1).tool_calls[0].id, content: `result ${n++} `.repeat(20) }] }))
    .addEdge(edgegraph.START, 'agent')
    .addConditionalEdges('agent', () => (n < turns ? 'tools' : edgegraph.END), ['tools', edgegraph.END])
    .addEdge('tools', 'agent')
    .compile({ checkpointer: store });
}

/** A MemoryStore that keeps the size of every checkpoint record written to it (createNow, which a run uses, and create; put writes the head pointers). */
function measuredStore() {
  const store = new MemoryStore();
  const sizes = [];
  const createNow = store.createNow.bind(store);
  store.createNow = (key, value) => { sizes.push(String(value).length); return createNow(key, value); };
  store.create = async (key, value) => store.createNow(key, value);
  return { store, sizes };
}

test('edgegraph: MessagesAnnotation runs on the core messages reducer: a 200-turn loop writes each step small, a JS reducer writes the whole list', async () => {
  const edgegraph = implementations.find((i) => i.name === 'edgegraph');
  const turns = 200;
  const core = measuredStore();
  const { messages } = await loop(edgegraph, edgegraph.MessagesAnnotation, turns, core.store).invoke({ messages: [{ role: 'user', content: 'hi' }] }, { ...thread(), recursionLimit: 1000 });
  assert.equal(messages.length, 2 * turns + 2);
  const whole = JSON.stringify(messages).length;
  // The same reducer behind another function is a JS reducer: its whole folded list goes to the core (and the checkpoint) each step.
  const js = measuredStore();
  const viaJs = edgegraph.Annotation.Root({ messages: edgegraph.Annotation({ reducer: (a, b) => edgegraph.messagesStateReducer(a, b), default: () => [] }) });
  await loop(edgegraph, viaJs, turns, js.store).invoke({ messages: [{ role: 'user', content: 'hi' }] }, { ...thread(), recursionLimit: 1000 });
  // The median of the last 21 records: a chain also writes a whole snapshot now and then, by design.
  const typical = (sizes) => sizes.slice(-21).sort((x, y) => x - y)[10];
  assert.ok(typical(js.sizes) > whole / 2, `a JS reducer's late step writes about the whole list (${typical(js.sizes)} of ${whole} bytes)`);
  assert.ok(typical(core.sizes) < whole / 50, `a late step writes its update, not the list (${typical(core.sizes)} of ${whole} bytes)`);
});
