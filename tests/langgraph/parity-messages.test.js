// Messages as data: what a LangChain message (or a dict in LangChain's names) carries into the
// state and gives back, and what the messages stream mode sends of a model's, on both libraries. LangGraph keeps the message objects; edgegraph keeps
// plain OpenAI-shaped messages with the same data (docs/migrating-from-langgraph.md).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { implementations, named, views, collect } from './support/impls.js';

/** A message's tool calls as [id, name, args], read from either shape (a call with `function` by its arguments). */
const callsOf = (m) => m.tool_calls?.map((c) => (c.function ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : [c.id, c.name, c.args]));

for (const impl of implementations) {
  const { StateGraph, MessagesAnnotation, MemorySaver, START, END } = impl;

  test(named(impl, 'a message\'s data fields (usage, response metadata, additional kwargs, invalid tool calls, a tool message\'s status and artifact) are kept and given back'), async () => {
    const usage = { input_tokens: 10, output_tokens: 2, total_tokens: 12 };
    const invalid = [{ id: 'bad', name: 'search', args: '{oops', error: 'not JSON', type: 'invalid_tool_call' }];
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('n', () => ({ messages: [
        new AIMessage({ content: 'hi', usage_metadata: usage, response_metadata: { finish_reason: 'stop' }, additional_kwargs: { reasoning_content: 'because' }, invalid_tool_calls: invalid }),
        new ToolMessage({ content: 'boom', tool_call_id: 't1', status: 'error', artifact: { rows: 3 } }),
      ] }))
      .addEdge(START, 'n').addEdge('n', END).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'fields' } };
    await graph.invoke({ messages: [] }, config);
    // (From the thread's checkpoint: the fields are in the saved state, not only in the run's result.)
    const [ai, tool] = (await graph.getState(config)).values.messages;
    assert.deepEqual(
      { usage: ai.usage_metadata, finish: ai.response_metadata.finish_reason, kwargs: ai.additional_kwargs, invalid: ai.invalid_tool_calls, status: tool.status, artifact: tool.artifact },
      { usage, finish: 'stop', kwargs: { reasoning_content: 'because' }, invalid, status: 'error', artifact: { rows: 3 } },
    );
  });

  test(named(impl, 'a dict in LangChain\'s role names ({ role: \'ai\' | \'human\' }) is that message: its role, and its LangChain-shaped tool calls as an AIMessage\'s'), async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('a', () => ({ messages: [{ role: 'ai', content: '', id: 'a1', tool_calls: [{ id: 'c1', name: 'search', args: { q: 'x' } }] }] }))
      .addEdge(START, 'a').addEdge('a', END).compile();
    const out = await graph.invoke({ messages: [{ role: 'human', content: 'hi', id: 'h1' }] });
    assert.deepEqual(views(out.messages), [{ role: 'user', content: 'hi', id: 'h1' }, { role: 'assistant', content: '', id: 'a1' }]);
    assert.deepEqual(callsOf(out.messages[1]), [['c1', 'search', { q: 'x' }]]);
  });

  test(named(impl, 'the docs\' "edit the tool call": a call read from the state, its args set and written back as the agent, is the edited call'), async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', () => ({ messages: [new AIMessage({ content: '', id: 'ai1', tool_calls: [{ id: 'c1', name: 'search', args: { query: 'sf' } }] })] }))
      .addNode('tools', () => ({}))
      .addEdge(START, 'agent').addEdge('agent', 'tools').addEdge('tools', END)
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['tools'] });
    const config = { configurable: { thread_id: 'edit' } };
    await graph.invoke({ messages: [new HumanMessage('weather?')] }, config);
    const last = (await graph.getState(config)).values.messages.at(-1);
    last.tool_calls[0].args = { query: 'San Francisco' };
    await graph.updateState(config, { messages: [last] }, 'agent');
    assert.deepEqual(callsOf((await graph.getState(config)).values.messages.at(-1)), [['c1', 'search', { query: 'San Francisco' }]]);
  });

  test(named(impl, 'the messages stream mode sends no tokens of a model call tagged \'nostream\' or \'langsmith:nostream\'; a message the node returns from one is sent whole'), async () => {
    const router = new FakeListChatModel({ responses: ['ROUTE:billing'] }).withConfig({ tags: ['langsmith:nostream'] });
    const summary = new FakeListChatModel({ responses: ['short'] }).withConfig({ tags: ['nostream'] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('classify', async (s, config) => { await router.invoke(s.messages, config); return { messages: [await summary.invoke(s.messages, config)] }; })
      .addEdge(START, 'classify').addEdge('classify', END).compile();
    const chunks = await collect(graph.stream({ messages: [new HumanMessage('hi')] }, { streamMode: 'messages' }));
    assert.deepEqual(chunks.map(([m]) => m.content), ['short']);
  });

  test(named(impl, 'the messages stream mode: a streamed tool call comes in its token\'s chunk, and no chunk after'), async () => {
    const model = new FakeStreamingChatModel({ chunks: [new AIMessageChunk({ content: 'Let me look' }), new AIMessageChunk({ content: '', tool_call_chunks: [{ id: 'tc1', name: 'search', args: '{"q":"x"}', index: 0 }] })] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('llm', async (s, config) => ({ messages: [await model.invoke(s.messages, config)] }))
      .addEdge(START, 'llm').addEdge('llm', END).compile();
    const chunks = await collect(graph.stream({ messages: [new HumanMessage('hi')] }, { streamMode: 'messages' }));
    assert.deepEqual(chunks.map(([m]) => [m.content, callsOf(m) ?? []]), [['Let me look', []], ['', [['tc1', 'search', { q: 'x' }]]]]);
  });
}
