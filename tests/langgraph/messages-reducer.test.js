// Ported from LangGraph.js libs/langgraph-core/src/graph/messages_reducer.test.ts
// (describe "messagesStateReducer"): each test names the one it comes from.
// LangChain message classes go in; LangGraph returns them as classes, edgegraph
// as plain { role, content, id } messages: `views` compares both by shape.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AIMessage, HumanMessage, SystemMessage, RemoveMessage } from '@langchain/core/messages';
import { implementations, views, named } from './support/impls.js';

const H = (id, content) => new HumanMessage(id === undefined ? content : { id, content });
const A = (id, content) => new AIMessage(id === undefined ? content : { id, content });

for (const impl of implementations) {
  const reduce = impl.messagesStateReducer;

  test(named(impl, 'messages_reducer.test.ts: should add a single message'), () => {
    assert.deepEqual(views(reduce([H('1', 'Hello')], A('2', 'Hi there!'))), [
      { role: 'user', content: 'Hello', id: '1' }, { role: 'assistant', content: 'Hi there!', id: '2' }]);
  });

  test(named(impl, 'messages_reducer.test.ts: should add multiple messages'), () => {
    const out = reduce([H('1', 'Hello')], [A('2', 'Hi there!'), new SystemMessage({ id: '3', content: 'System message' })]);
    assert.deepEqual(views(out), [
      { role: 'user', content: 'Hello', id: '1' }, { role: 'assistant', content: 'Hi there!', id: '2' }, { role: 'system', content: 'System message', id: '3' }]);
  });

  test(named(impl, 'messages_reducer.test.ts: should update existing message'), () => {
    assert.deepEqual(views(reduce([H('1', 'Hello')], H('1', 'Hello again'))), [{ role: 'user', content: 'Hello again', id: '1' }]);
  });

  test(named(impl, 'messages_reducer.test.ts: should assign missing IDs'), () => {
    const out = reduce([H(undefined, 'Hello')], [A(undefined, 'Hi there!')]);
    assert.equal(out.length, 2);
    assert.ok(out.every((m) => typeof m.id === 'string' && m.id.length > 0));
    assert.notEqual(out[0].id, out[1].id);
  });

  test(named(impl, 'messages_reducer.test.ts: should handle duplicates in input'), () => {
    const out = reduce([], [A('1', 'Hi there!'), A('1', 'Hi there again!')]);
    assert.equal(out.length, 1);
    assert.equal(out[0].id, '1');
    assert.equal(out[0].content, 'Hi there again!');
  });

  test(named(impl, 'messages_reducer.test.ts: should handle duplicates with remove'), () => {
    const out = reduce([A('1', 'Hello!')], [new RemoveMessage({ id: '1' }), A('1', 'Hi there!'), A('1', 'Hi there again!')]);
    assert.equal(out.length, 1);
    assert.equal(out[0].id, '1');
    assert.equal(out[0].content, 'Hi there again!');
  });

  test(named(impl, 'messages_reducer.test.ts: should remove message'), () => {
    assert.deepEqual(views(reduce([H('1', 'Hello'), A('2', 'Hi there!')], new RemoveMessage({ id: '2' }))), [{ role: 'user', content: 'Hello', id: '1' }]);
  });

  test(named(impl, 'messages_reducer.test.ts: should handle duplicate remove messages'), () => {
    const out = reduce([H('1', 'Hello'), A('2', 'Hi there!')], [new RemoveMessage({ id: '2' }), new RemoveMessage({ id: '2' })]);
    assert.deepEqual(views(out), [{ role: 'user', content: 'Hello', id: '1' }]);
  });

  test(named(impl, 'messages_reducer.test.ts: should throw on removing nonexistent message'), () => {
    assert.throws(() => reduce([H('1', 'Hello')], new RemoveMessage({ id: '2' })), /Attempting to delete a message with an ID that doesn't exist/);
  });

  test(named(impl, 'messages_reducer.test.ts: should handle mixed operations'), () => {
    const out = reduce([H('1', 'Hello'), A('2', 'Hi there!')], [H('1', 'Updated hello'), new RemoveMessage({ id: '2' }), new SystemMessage({ id: '3', content: 'New message' })]);
    assert.deepEqual(views(out), [{ role: 'user', content: 'Updated hello', id: '1' }, { role: 'system', content: 'New message', id: '3' }]);
  });

  test(named(impl, 'messages_reducer.test.ts: should handle empty inputs'), () => {
    assert.deepEqual(reduce([], []), []);
    assert.deepEqual(views(reduce([], [H('1', 'Hello')])), [{ role: 'user', content: 'Hello', id: '1' }]);
    assert.deepEqual(views(reduce([H('1', 'Hello')], [])), [{ role: 'user', content: 'Hello', id: '1' }]);
  });

  test(named(impl, 'messages_reducer.test.ts: should handle non-array inputs'), () => {
    assert.deepEqual(views(reduce(H('1', 'Hello'), A('2', 'Hi there!'))), [
      { role: 'user', content: 'Hello', id: '1' }, { role: 'assistant', content: 'Hi there!', id: '2' }]);
  });

  test(named(impl, 'messages_reducer.test.ts: should remove all messages'), () => {
    const all = impl.REMOVE_ALL_MESSAGES;
    assert.deepEqual(reduce([H(undefined, 'Hello'), A(undefined, 'Hi there!')], [new RemoveMessage({ id: all })]), []);
    assert.deepEqual(views(reduce([H(undefined, 'Hello'), A(undefined, 'Hi there!')], [new RemoveMessage({ id: all }), H('1', 'Updated hello')])),
      [{ role: 'user', content: 'Updated hello', id: '1' }]);
    assert.deepEqual(views(reduce([H(undefined, 'Hello'), A(undefined, 'Hi there!')], [H(undefined, 'Updated hello'), new RemoveMessage({ id: all }), H('1', 'Updated hi there')])),
      [{ role: 'user', content: 'Updated hi there', id: '1' }]);
  });

  // Not in LangGraph's file: the last word on an id decides, whatever the order of the writes.
  test(named(impl, 'the last word on an id decides: removed then re-added keeps its place, re-added after REMOVE_ALL_MESSAGES in the new order, a removal takes every message with its id'), () => {
    const remove = (id) => new RemoveMessage({ id });
    assert.deepEqual(views(reduce([H('1', 'a'), A('2', 'b')], [remove('1'), H('1', 'a again')])),
      [{ role: 'user', content: 'a again', id: '1' }, { role: 'assistant', content: 'b', id: '2' }]);
    assert.deepEqual(views(reduce([H('1', 'a'), A('2', 'b')], [H('1', 'a again'), remove('1')])), [{ role: 'assistant', content: 'b', id: '2' }]);
    assert.deepEqual(views(reduce([H('1', 'a'), A('2', 'b')], [remove(impl.REMOVE_ALL_MESSAGES), A('2', 'b again'), H('1', 'a again')])),
      [{ role: 'assistant', content: 'b again', id: '2' }, { role: 'user', content: 'a again', id: '1' }]);
    assert.deepEqual(views(reduce([H('1', 'a'), A('2', 'b'), H('1', 'a twice')], [remove('1')])), [{ role: 'assistant', content: 'b', id: '2' }]);
    assert.deepEqual(views(reduce([H('1', 'a'), H('1', 'a twice')], [H('1', 'a new')])), [{ role: 'user', content: 'a', id: '1' }, { role: 'user', content: 'a new', id: '1' }]);
  });

  // Not in LangGraph's file: edgegraph's own RemoveMessage and plain messages, in a graph.
  test(named(impl, 'MessagesAnnotation in a graph: plain and LangChain messages, ids assigned, removal by id'), async () => {
    const { StateGraph, MessagesAnnotation, START, END } = impl;
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('reply', (s) => ({ messages: [new AIMessage({ id: 'a1', content: `echo ${s.messages.at(-1).content}` })] }))
      .addNode('prune', (s) => ({ messages: [new RemoveMessage({ id: s.messages[0].id })] }))
      .addEdge(START, 'reply').addEdge('reply', 'prune').addEdge('prune', END)
      .compile();
    const out = await graph.invoke({ messages: [new HumanMessage('hi'), new HumanMessage('there')] });
    assert.deepEqual(views(out.messages).map(({ role, content }) => ({ role, content })), [{ role: 'user', content: 'there' }, { role: 'assistant', content: 'echo there' }]);
    assert.ok(out.messages.every((m) => typeof m.id === 'string'));
  });
}

test('edgegraph: toPlainMessage leaves an object whose type is an Object.prototype name as it is (no role from the prototype)', async () => {
  const { toPlainMessage, messagesStateReducer } = implementations.find((i) => i.name === 'edgegraph');
  for (const type of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
    const value = { type, content: 'x' };
    assert.deepEqual(toPlainMessage(value), { type, content: 'x' });
  }
  // Beside real messages in one list, such an object keeps its shape (a message's role is a string).
  const merged = messagesStateReducer([], [{ role: 'user', content: 'hi', id: '1' }, { type: 'constructor', content: 'x', id: '2' }]);
  assert.ok(merged.every((m) => typeof m.role === 'string' || m.role === undefined), JSON.stringify(merged));
});
