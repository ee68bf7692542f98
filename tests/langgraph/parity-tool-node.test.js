// The ReAct how-to's ToolNode and toolsCondition (@langchain/langgraph/prebuilt) given to a
// graph unchanged, on both libraries; on edgegraph also this entry's own ToolNode and
// toolsCondition (for a program whose prebuilt import changed too). edgegraph runs
// LangGraph's ToolNode over its tools (tool-node.js): what a tool answers, its errors,
// the calls already answered, a Command, an interrupt() in a tool.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { tool } from '@langchain/core/tools';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import * as prebuilt from '@langchain/langgraph/prebuilt';
import { implementations, named, collect } from './support/impls.js';

const weather = tool(async ({ city }) => `sunny in ${city}`, { name: 'get_weather', description: 'weather', schema: z.object({ city: z.string() }) });
const failing = tool(async () => { throw new Error('service down'); }, { name: 'flaky', description: 'fails', schema: z.object({}) });

/** A message as { role, content, and a tool message's tool_call_id, name, status }, from either library. */
function shown(m) {
  const type = typeof m.getType === 'function' ? m.getType() : m.role;
  const out = { role: { human: 'user', ai: 'assistant' }[type] ?? type, content: m.content };
  if (type === 'tool') Object.assign(out, { tool_call_id: m.tool_call_id, name: m.name, status: m.status });
  return out;
}

/** An agent node answering, call by call, `turns` (an AIMessage's fields each), then 'done'. */
function agent(turns) {
  let turn = 0;
  return () => ({ messages: [new AIMessage(turns[turn++] ?? 'done')] });
}

/** The ToolNode and toolsCondition a test builds with: the prebuilt ones, and on edgegraph this entry's too. */
const sources = (impl) => [['prebuilt', prebuilt], ...(impl.name === 'edgegraph' ? [['edgegraph/langgraph', impl]] : [])];

for (const impl of implementations) {
  const { StateGraph, MessagesAnnotation, Annotation, MemorySaver, Command, START, END } = impl;
  for (const [from, { ToolNode, toolsCondition }] of sources(impl)) {
    test(named(impl, `${from} ToolNode given a Send's { ...state, lg_tool_call } runs that call alone (one task per call: each side effect once)`), async () => {
      const charges = [];
      const charge = tool(async ({ card }) => { charges.push(card); return `charged ${card}`; }, { name: 'charge', description: 'charges a card', schema: z.object({ card: z.string() }) });
      const graph = new StateGraph(MessagesAnnotation)
        .addNode('agent', () => ({ messages: [new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'charge', args: { card: 'visa' } }, { id: 'c2', name: 'charge', args: { card: 'amex' } }] })] }))
        .addNode('tools', new ToolNode([charge]))
        .addEdge(START, 'agent')
        .addConditionalEdges('agent', (s) => s.messages.at(-1).tool_calls.map((call) => new impl.Send('tools', { ...s, lg_tool_call: call })))
        .addEdge('tools', END).compile();
      const out = await graph.invoke({ messages: [new HumanMessage('pay')] });
      assert.deepEqual([charges.sort(), out.messages.map(shown).filter((m) => m.role === 'tool').map((m) => m.tool_call_id).sort()], [['amex', 'visa'], ['c1', 'c2']]);
    });

    test(named(impl, `${from} ToolNode merges the Sends of several tools' Command.PARENT into one: each delegation runs`), async () => {
      const S = Annotation.Root({ ...MessagesAnnotation.spec, results: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
      const delegate = tool(async ({ task }) => new Command({ graph: Command.PARENT, goto: [new impl.Send('worker', { task })] }), { name: 'delegate', description: 'delegates', schema: z.object({ task: z.string() }) });
      const supervisor = new StateGraph(S)
        .addNode('plan', () => ({ messages: [new AIMessage({ content: '', tool_calls: [{ id: 'd1', name: 'delegate', args: { task: 'A' } }, { id: 'd2', name: 'delegate', args: { task: 'B' } }] })] }))
        .addNode('tools', new ToolNode([delegate])).addEdge(START, 'plan').addEdge('plan', 'tools').compile();
      const graph = new StateGraph(S).addNode('supervisor', supervisor, { ends: ['worker'] }).addNode('worker', (a) => ({ results: [`did ${a.task}`] }))
        .addEdge(START, 'supervisor').addEdge('worker', END).compile();
      assert.deepEqual((await graph.invoke({ messages: [new HumanMessage('go')] })).results.sort(), ['did A', 'did B']);
    });

    /** The how-to's graph: agent -> tools while it calls one, with `toolNode`. */
    const react = (turns, toolNode, options) => new StateGraph(MessagesAnnotation)
      .addNode('agent', agent(turns)).addNode('tools', toolNode)
      .addEdge(START, 'agent').addConditionalEdges('agent', toolsCondition, ['tools', END]).addEdge('tools', 'agent')
      .compile(options);

    test(named(impl, `${from}: the ReAct how-to (ToolNode and toolsCondition) runs the agent's tool calls, in parallel, each answered by a tool message`), async () => {
      const graph = react([{ content: '', tool_calls: [{ id: 'c1', name: 'get_weather', args: { city: 'sf' } }, { id: 'c2', name: 'get_weather', args: { city: 'nyc' } }] }], new ToolNode([weather]));
      const out = await graph.invoke({ messages: [new HumanMessage('weather?')] });
      assert.deepEqual(out.messages.map(shown), [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: '' },
        { role: 'tool', content: 'sunny in sf', tool_call_id: 'c1', name: 'get_weather', status: 'success' },
        { role: 'tool', content: 'sunny in nyc', tool_call_id: 'c2', name: 'get_weather', status: 'success' },
        { role: 'assistant', content: 'done' },
      ]);
    });

    test(named(impl, `${from}: ToolNode runs the calls of a plain assistant message in OpenAI's shape, and a tool reads the graph's state from its second argument`), async () => {
      const seen = tool(async (_input, runtime) => `${runtime.toolCallId} saw ${runtime.state.messages.length} messages`, { name: 'seen', description: 'd', schema: z.object({}) });
      const graph = new StateGraph(MessagesAnnotation)
        .addNode('agent', () => ({ messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 'o1', type: 'function', function: { name: 'seen', arguments: '{}' } }] }] }))
        .addNode('tools', new ToolNode([seen]))
        .addEdge(START, 'agent').addEdge('agent', 'tools').addEdge('tools', END).compile();
      const out = await graph.invoke({ messages: [{ role: 'user', content: 'hi' }] });
      assert.deepEqual(shown(out.messages.at(-1)), { role: 'tool', content: 'o1 saw 2 messages', tool_call_id: 'o1', name: 'seen', status: 'success' });
    });

    test(named(impl, `${from}: a tool's error and an unknown tool become error tool messages in LangGraph's words (handleToolErrors); with handleToolErrors: false the run fails`), async () => {
      const calls = [{ content: '', tool_calls: [{ id: 'e1', name: 'flaky', args: {} }, { id: 'e2', name: 'nope', args: {} }] }];
      const out = await react(calls, new ToolNode([weather, failing])).invoke({ messages: [new HumanMessage('go')] });
      assert.deepEqual(out.messages.slice(2, 4).map(shown), [
        { role: 'tool', content: 'Error: service down\n Please fix your mistakes.', tool_call_id: 'e1', name: 'flaky', status: 'error' },
        { role: 'tool', content: 'Error: Tool "nope" not found.\n Please fix your mistakes.', tool_call_id: 'e2', name: 'nope', status: 'error' },
      ]);
      await assert.rejects(react([{ content: '', tool_calls: [calls[0].tool_calls[0]] }], new ToolNode([weather, failing], { handleToolErrors: false })).invoke({ messages: [new HumanMessage('go')] }), /service down/);
    });

    test(named(impl, `${from}: ToolNode skips the calls a tool message answers already`), async () => {
      let runs = 0;
      const counted = tool(async ({ city }) => { runs++; return `counted ${city}`; }, { name: 'get_weather', description: 'w', schema: z.object({ city: z.string() }) });
      const graph = new StateGraph(MessagesAnnotation).addNode('tools', new ToolNode([counted])).addEdge(START, 'tools').addEdge('tools', END).compile();
      const out = await graph.invoke({ messages: [
        new AIMessage({ content: '', tool_calls: [{ id: 'a1', name: 'get_weather', args: { city: 'sf' } }, { id: 'a2', name: 'get_weather', args: { city: 'la' } }] }),
        new ToolMessage({ content: 'earlier answer', tool_call_id: 'a1' }),
      ] });
      assert.equal(runs, 1);
      assert.deepEqual(out.messages.slice(1).map((m) => [m.tool_call_id, m.content]), [['a1', 'earlier answer'], ['a2', 'counted la']]);
    });

    test(named(impl, `${from}: a tool returning a Command updates the state and routes, beside the other calls' tool messages`), async () => {
      const State = Annotation.Root({ ...MessagesAnnotation.spec, city: Annotation() });
      const pick = tool(async ({ city }, runtime) => new Command({ update: { city, messages: [new ToolMessage({ content: `picked ${city}`, tool_call_id: runtime.toolCallId })] }, goto: 'after' }), { name: 'pick', description: 'p', schema: z.object({ city: z.string() }) });
      const graph = new StateGraph(State)
        .addNode('agent', agent([{ content: '', tool_calls: [{ id: 'p1', name: 'pick', args: { city: 'Oslo' } }, { id: 'w1', name: 'get_weather', args: { city: 'Oslo' } }] }]))
        .addNode('tools', new ToolNode([pick, weather]), { ends: ['after'] })
        .addNode('after', (s) => ({ messages: [new AIMessage(`after, in ${s.city}`)] }))
        .addEdge(START, 'agent').addEdge('agent', 'tools').addEdge('after', END).compile();
      const out = await graph.invoke({ messages: [new HumanMessage('go')] });
      assert.equal(out.city, 'Oslo');
      assert.deepEqual(out.messages.slice(2).map((m) => m.content), ['picked Oslo', 'sunny in Oslo', 'after, in Oslo']);
    });

    test(named(impl, `${from}: interrupt() in a tool run by ToolNode pauses the run; the resume answers it`), async () => {
      const { interrupt } = impl;
      const approve = tool(async ({ amount }) => { await Promise.resolve(); return interrupt({ approve: amount }) === 'yes' ? `paid ${amount}` : 'refused'; }, { name: 'pay', description: 'p', schema: z.object({ amount: z.number() }) });
      const graph = react([{ content: '', tool_calls: [{ id: 'y1', name: 'pay', args: { amount: 5 } }] }], new ToolNode([approve]), { checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: `pay-${from.replace('/', '-')}` } };
      const paused = await graph.invoke({ messages: [new HumanMessage('pay')] }, config);
      assert.deepEqual(paused.__interrupt__.map((i) => i.value), [{ approve: 5 }]);
      const done = await graph.invoke(new Command({ resume: 'yes' }), config);
      assert.deepEqual(done.messages.slice(2).map(shown), [{ role: 'tool', content: 'paid 5', tool_call_id: 'y1', name: 'pay', status: 'success' }, { role: 'assistant', content: 'done' }]);
    });

    test(named(impl, `${from}: the messages stream mode sends the tool messages ToolNode wrote, from its node`), async () => {
      const graph = react([{ content: '', tool_calls: [{ id: 's1', name: 'get_weather', args: { city: 'sf' } }] }], new ToolNode([weather]));
      const chunks = await collect(graph.stream({ messages: [new HumanMessage('hi')] }, { streamMode: 'messages' }));
      assert.deepEqual(chunks.map(([m, meta]) => `${meta.langgraph_node}: ${m.content}`), ['agent: ', 'tools: sunny in sf', 'agent: done']);
    });
  }

  test(named(impl, 'a node function of its own calls toolNode.invoke(state, config) (edgegraph: this entry\'s ToolNode, LangGraph\'s refuses the plain messages the function gets)'), async () => {
    const { ToolNode, toolsCondition } = impl.name === 'edgegraph' ? impl : prebuilt;
    const toolNode = new ToolNode([weather]);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', agent([{ content: '', tool_calls: [{ id: 'f1', name: 'get_weather', args: { city: 'Rome' } }] }]))
      .addNode('tools', async (s, config) => toolNode.invoke(s, config))
      .addEdge(START, 'agent').addConditionalEdges('agent', toolsCondition, ['tools', END]).addEdge('tools', 'agent').compile();
    const out = await graph.invoke({ messages: [new HumanMessage('weather?')] });
    assert.deepEqual(out.messages.slice(2).map(shown), [{ role: 'tool', content: 'sunny in Rome', tool_call_id: 'f1', name: 'get_weather', status: 'success' }, { role: 'assistant', content: 'done' }]);
  });

  test(named(impl, 'toolNode.invoke(messages), a list of messages: the tool messages as a list'), async () => {
    const { ToolNode } = impl.name === 'edgegraph' ? impl : prebuilt;
    const call = new AIMessage({ content: '', tool_calls: [{ id: 'l1', name: 'get_weather', args: { city: 'Oslo' } }] });
    const out = await new ToolNode([weather]).invoke([new HumanMessage('weather?'), call]);
    assert.ok(Array.isArray(out));
    assert.deepEqual(out.map(shown), [{ role: 'tool', content: 'sunny in Oslo', tool_call_id: 'l1', name: 'get_weather', status: 'success' }]);
  });

  test(named(impl, 'toolsCondition reads a plain message list and a state\'s last message (plain or LangChain)'), () => {
    const { toolsCondition } = impl.name === 'edgegraph' ? impl : prebuilt;
    const call = { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] };
    assert.equal(toolsCondition({ messages: [{ role: 'user', content: 'hi' }, call] }), 'tools');
    assert.equal(toolsCondition([call]), 'tools');
    assert.equal(toolsCondition({ messages: [new AIMessage({ content: '', tool_calls: [{ id: 'c', name: 'f', args: {} }] })] }), 'tools');
    assert.equal(toolsCondition({ messages: [{ role: 'assistant', content: 'no calls' }] }), END);
  });
}
