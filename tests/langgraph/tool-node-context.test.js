// A ToolNode's tools are called within the node's call: interrupt() and getConfig() in a tool find
// the node in a runtime without AsyncLocalStorage (a browser), as in one with it. (tool-node.js loads
// the code that runs them when the ToolNode is made, so that no turn passes before a tool is called.)

import { test } from 'node:test';
import assert from 'node:assert/strict';

// This process as a browser: no AsyncLocalStorage (before edgegraph loads).
const builtin = process.getBuiltinModule;
process.getBuiltinModule = (name) => (name.includes('async_hooks') ? undefined : builtin(name));
const { StateGraph, MessagesAnnotation, MemorySaver, START, END, ToolNode, interrupt, getConfig, Command } = await import('edgegraph/langgraph');

test('edgegraph: without AsyncLocalStorage, a ToolNode\'s tool calls interrupt() and getConfig() and pauses the run; the resume answers it', async () => {
  const seen = [];
  const ask = {
    name: 'ask',
    invoke(call) {
      seen.push(getConfig()?.metadata.langgraph_node);
      return { role: 'tool', content: String(interrupt('approve?')), tool_call_id: call.id, name: 'ask' };
    },
  };
  const graph = new StateGraph(MessagesAnnotation).addNode('tools', new ToolNode([ask])).addEdge(START, 'tools').addEdge('tools', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'no-als' } };
  const paused = await graph.invoke({ messages: [{ role: 'assistant', content: '', id: 'm1', tool_calls: [{ id: 'c1', name: 'ask', args: {} }] }] }, config);
  assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['approve?']);
  const done = await graph.invoke(new Command({ resume: 'yes' }), config);
  assert.deepEqual([done.messages.at(-1).content, seen], ['yes', ['tools', 'tools']]);
});
