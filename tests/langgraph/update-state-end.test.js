// updateState(config, values, END) ends a paused thread, ported from LangGraph.js:
// libs/langgraph-core/src/tests/pregel.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, interrupt, Send } = impl;

  const toolGraph = () => {
    const calls = { tool_two: 0 };
    const builder = new StateGraph(Annotation.Root({ my_key: Annotation({ reducer: (a, b) => a + b }), market: Annotation() }))
      .addNode({
        tool_one: () => ({ my_key: ' one' }),
        tool_two: ({ market }) => { calls.tool_two++; return { my_key: market === 'DE' ? interrupt('Just because...') : ' all good' }; },
      });
    return { builder, calls };
  };

  test(named(impl, 'pregel.test.ts: should handle dynamic interrupt (updateState with END clears the interrupt and next tasks)'), async () => {
    const { builder, calls } = toolGraph();
    const graph = builder.addEdge(START, 'tool_two').addEdge('tool_two', 'tool_one').compile({ checkpointer: new MemorySaver() });
    const thread1 = { configurable: { thread_id: '1' } };
    const paused = await graph.invoke({ my_key: 'value ⛰️', market: 'DE' }, thread1);
    assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['Just because...']);
    const before = await graph.getState(thread1);
    assert.deepEqual(before.next, ['tool_two']);
    assert.deepEqual(before.tasks[0].interrupts.map((i) => i.value), ['Just because...']);
    await graph.updateState(thread1, null, END);
    const after = await graph.getState(thread1);
    assert.deepEqual(after.values, { my_key: 'value ⛰️', market: 'DE' });
    assert.deepEqual(after.next, []);
    assert.deepEqual(after.tasks, []);
    assert.equal(after.metadata.step, before.metadata.step + 1);
    assert.deepEqual(after.parentConfig.configurable.checkpoint_id, before.config.configurable.checkpoint_id);
    assert.equal(calls.tool_two, 1);
  });

  test(named(impl, 'pregel.test.ts: should handle dynamic interrupt with a Send (updateState with END keeps the finished task\'s writes)'), async () => {
    const { builder } = toolGraph();
    const graph = builder.addConditionalEdges(START, (state) => ['tool_two', new Send('tool_one', state)], ['tool_one', 'tool_two'])
      .compile({ checkpointer: new MemorySaver() });
    const thread2 = { configurable: { thread_id: '2' } };
    const paused = await graph.invoke({ my_key: 'value ⛰️', market: 'DE' }, thread2);
    assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['Just because...']);
    await graph.updateState(thread2, null, END);
    const after = await graph.getState(thread2);
    assert.deepEqual(after.values, { my_key: 'value ⛰️ one', market: 'DE' });
    assert.deepEqual(after.next, []);
    assert.deepEqual(after.tasks, []);
  });

  test(named(impl, 'updateState with values and END: edgegraph applies the update and ends the thread (LangGraph takes only null)'), async () => {
    const { builder, calls } = toolGraph();
    const graph = builder.addEdge(START, 'tool_two').addEdge('tool_two', 'tool_one').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'end-values' } };
    await graph.invoke({ my_key: 'a', market: 'DE' }, config);
    if (impl.name === 'langgraph') {
      // LangGraph clears a thread with updateState(config, null, END) only; values with END name no node.
      await assert.rejects(graph.updateState(config, { my_key: ' edited' }, END), /__end__/);
      return;
    }
    await graph.updateState(config, { my_key: ' edited', market: 'US' }, END);
    const ended = await graph.getState(config);
    assert.deepEqual(ended.values, { my_key: 'a edited', market: 'US' });
    assert.deepEqual(ended.next, []);
    // Nothing left to answer: the paused node never ran again, and tool_one never ran.
    assert.equal(calls.tool_two, 1);
    assert.deepEqual(await graph.invoke({ my_key: ' more' }, config), { my_key: 'a edited more all good one', market: 'US' });
  });

  test(named(impl, 'updateState with END on a thread stopped at a breakpoint: what would run next is dropped'), async () => {
    const graph = new StateGraph(Annotation.Root({ foo: Annotation() }))
      .addNode('a', () => ({ foo: 'a' })).addNode('b', () => ({ foo: 'b' }))
      .addEdge(START, 'a').addEdge('a', 'b')
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['b'] });
    const config = { configurable: { thread_id: 'end-breakpoint' } };
    await graph.invoke({ foo: 'x' }, config);
    assert.deepEqual((await graph.getState(config)).next, ['b']);
    await graph.updateState(config, null, END);
    const state = await graph.getState(config);
    assert.deepEqual(state.values, { foo: 'a' });
    assert.deepEqual(state.next, []);
    // Continuing an ended thread runs nothing more.
    assert.deepEqual(await graph.invoke(null, config), { foo: 'a' });
  });
}
