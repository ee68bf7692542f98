// Stream modes, ported from LangGraph.js: libs/langgraph-core/src/tests/pregel.test.ts
// and libs/langgraph-core/src/tests/pregel.stream.test.ts. The v3 streamEvents tests
// assert what graph.stream() carries in the same stream mode; each test names its source.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, ToolMessage } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';

/** A chat model whose stream chunks carry the provider's message id, as ChatOpenAI's (chatcmpl-...) and ChatAnthropic's (msg_...) do. */
class IdChunkModel extends BaseChatModel {
  _llmType() { return 'id-chunks'; }
  async *_streamResponseChunks(_messages, _options, run) {
    for (const text of ['Hello ', 'world']) {
      const chunk = new ChatGenerationChunk({ message: new AIMessageChunk({ content: text, id: 'chatcmpl-1' }), text });
      yield chunk;
      await run?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}
import { implementations, collect, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, MessagesAnnotation } = impl;
  const Counter = () => Annotation.Root({ count: Annotation({ reducer: (a, b) => a + b, default: () => 0 }) });
  const twoStep = () => new StateGraph(Counter())
    .addNode('step1', () => ({ count: 1 })).addNode('step2', () => ({ count: 10 }))
    .addEdge(START, 'step1').addEdge('step1', 'step2').addEdge('step2', END).compile();

  test(named(impl, 'pregel.test.ts > StateGraph: multiple stream mode'), async () => {
    const graph = new StateGraph({ value: Annotation({ reducer: (a, b) => a + b }) })
      .addNode('add_one', () => ({ value: 1 }))
      .addEdge(START, 'add_one')
      .addConditionalEdges('add_one', (state) => (state.value < 6 ? 'add_one' : END))
      .compile();
    const five = (chunk) => Array.from({ length: 5 }, () => chunk);
    assert.deepEqual(await collect(graph.stream({ value: 1 })), five({ add_one: { value: 1 } }));
    assert.deepEqual(await collect(graph.stream({ value: 1 }, { streamMode: 'values' })), [1, 2, 3, 4, 5, 6].map((value) => ({ value })));
    assert.deepEqual(await collect(graph.stream({ value: 1 }, { streamMode: ['values'] })), [1, 2, 3, 4, 5, 6].map((value) => ['values', { value }]));
    assert.deepEqual(await collect(graph.stream({ value: 1 }, { streamMode: ['updates'] })), five(['updates', { add_one: { value: 1 } }]));
    const both = await collect(graph.stream({ value: 1 }, { streamMode: ['values', 'updates'] }));
    const expected = [['values', { value: 1 }]];
    for (let v = 2; v <= 6; v++) expected.push(['updates', { add_one: { value: 1 } }], ['values', { value: v }]);
    assert.deepEqual(both, expected);
  });

  test(named(impl, 'the values mode has no chunk for a step whose nodes wrote nothing, and none after an interruptAfter pause\'s __interrupt__'), async () => {
    const { Command } = impl;
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('a', () => ({ n: 1 })).addNode('route', () => ({})).addNode('hop', () => new Command({ goto: 'b' }), { ends: ['b'] }).addNode('b', () => ({ n: 2 }))
      .addEdge(START, 'a').addEdge('a', 'route').addEdge('route', 'hop').addEdge('b', END)
      .compile({ checkpointer: new MemorySaver(), interruptAfter: ['b'] });
    const config = { configurable: { thread_id: 'values-writes' }, streamMode: 'values' };
    assert.deepEqual(await collect(graph.stream({ n: 0 }, config)), [{ n: 0 }, { n: 1 }, { n: 2 }, { __interrupt__: [] }]);
    assert.deepEqual(await collect(graph.stream(null, config)), [{ n: 2 }]);
  });

  test(named(impl, 'a subgraph\'s custom chunks reach a caller that did not ask for subgraphs, also from a graph invoked inside a node with its config'), async () => {
    const S = Annotation.Root({ x: Annotation() });
    const child = new StateGraph(S).addNode('work', (s, config) => { config.writer({ progress: 50 }); return { x: 'done' }; }).addEdge(START, 'work').compile();
    const asNode = new StateGraph(S).addNode('child', child).addEdge(START, 'child').compile();
    const invoked = new StateGraph(S).addNode('call', async (s, config) => child.invoke(s, config)).addEdge(START, 'call').compile();
    for (const graph of [asNode, invoked]) {
      assert.deepEqual(await collect(graph.stream({ x: '' }, { streamMode: 'custom' })), [{ progress: 50 }]);
      assert.deepEqual(await collect(graph.stream({ x: '' }, { streamMode: ['custom', 'values'] })), [['values', { x: '' }], ['custom', { progress: 50 }], ['values', { x: 'done' }]]);
    }
    // (with subgraphs: true, under the child's namespace)
    const [[ns, chunk]] = await collect(asNode.stream({ x: '' }, { streamMode: 'custom', subgraphs: true }));
    assert.deepEqual([ns.length, ns[0].split(':')[0], chunk], [1, 'child', { progress: 50 }]);
  });

  test(named(impl, 'a node\'s config has no streamMode: a graph it invokes with it returns its values'), async () => {
    const S = Annotation.Root({ x: Annotation() });
    const seen = [];
    const child = new StateGraph(S).addNode('w', () => ({ x: 'child' })).addEdge(START, 'w').compile();
    const graph = new StateGraph(S).addNode('call', async (s, config) => { seen.push(config.streamMode); return child.invoke(s, config); }).addEdge(START, 'call').compile();
    assert.deepEqual(await collect(graph.stream({ x: '' }, { streamMode: 'updates' })), [{ call: { x: 'child' } }]);
    assert.deepEqual(seen, [undefined]);
  });

  test(named(impl, 'the tasks mode: an interrupted task\'s result chunk has result {} and its interrupts'), async () => {
    const { interrupt } = impl;
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('ask', () => ({ n: interrupt('sure?') })).addEdge(START, 'ask').addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const chunks = await collect(graph.stream({ n: 0 }, { configurable: { thread_id: 'task-interrupted' }, streamMode: 'tasks' }));
    const ended = chunks.filter((c) => 'result' in c || 'error' in c);
    assert.deepEqual(ended.map((c) => [c.name, c.result, c.interrupts.map((i) => i.value)]), [['ask', {}, ['sure?']]]);
  });

  test(named(impl, 'the messages mode streams a model\'s tokens under the id its chunks carry (a provider\'s), and not the message it returns again'), async () => {
    const model = new IdChunkModel({});
    const graph = new StateGraph(MessagesAnnotation).addNode('agent', async (s, config) => ({ messages: [await model.invoke(s.messages, config)] })).addEdge(START, 'agent').compile();
    const chunks = await collect(graph.stream({ messages: [{ role: 'user', content: 'hi' }] }, { streamMode: 'messages' }));
    assert.deepEqual(chunks.map(([m]) => [m.id, m.content]), [['chatcmpl-1', 'Hello '], ['chatcmpl-1', 'world']]);
  });

  test(named(impl, 'the messages mode: a graph invoked inside a node (given its config) streams its model\'s tokens once, under its namespace, with subgraphs; without, none'), async () => {
    const model = new FakeListChatModel({ responses: ['hey'] });
    const child = new StateGraph(MessagesAnnotation).addNode('llm', async (s, c) => ({ messages: [await model.invoke(s.messages, c)] })).addEdge(START, 'llm').compile();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('delegate', async (s, config) => { await child.invoke({ messages: s.messages }, config); return {}; })
      .addEdge(START, 'delegate').compile();
    const input = { messages: [{ role: 'user', content: 'hi' }] };
    assert.deepEqual(await collect(graph.stream(input, { streamMode: 'messages' })), []);
    const nested = await collect(graph.stream(input, { streamMode: 'messages', subgraphs: true }));
    assert.deepEqual(nested.map(([ns, [m, meta]]) => [ns.map((n) => n.split(':')[0]), meta.langgraph_node, m.content]), ['h', 'e', 'y'].map((t) => [['delegate'], 'llm', t]));
  });

  test(named(impl, 'stream(input, { encoding: \'text/event-stream\' }) is a Response body of server-sent events: event <mode>, or <mode>|<namespace> for a subgraph\'s'), async () => {
    const S = Annotation.Root({ x: Annotation() });
    const child = new StateGraph(S).addNode('c', () => ({ x: 2 })).addEdge(START, 'c').compile();
    const graph = new StateGraph(S).addNode('a', () => ({ x: 1 })).addNode('sub', child).addEdge(START, 'a').addEdge('a', 'sub').addEdge('sub', END).compile();
    const body = async (config) => new Response(await graph.stream({ x: 0 }, { ...config, encoding: 'text/event-stream' })).text();
    assert.equal(await body({ streamMode: 'updates' }), 'event: updates\ndata: {"a":{"x":1}}\n\nevent: updates\ndata: {"sub":{"x":2}}\n\n');
    const events = (await body({ streamMode: ['updates', 'values'], subgraphs: true })).replace(/sub:[^|\n]+/g, 'sub:<task>').trim().split('\n\n');
    assert.deepEqual(events, [
      'event: values\ndata: {"x":0}', 'event: updates\ndata: {"a":{"x":1}}', 'event: values\ndata: {"x":1}',
      'event: values|sub:<task>\ndata: {"x":1}', 'event: updates|sub:<task>\ndata: {"c":{"x":2}}', 'event: values|sub:<task>\ndata: {"x":2}',
      'event: updates\ndata: {"sub":{"x":2}}', 'event: values\ndata: {"x":2}',
    ]);
    // A failed run's last event is its error (LangGraph's also throws it out of the run, unhandled).
    if (impl.name === 'edgegraph') {
      const failing = new StateGraph(S).addNode('a', () => { throw new TypeError('boom'); }).addEdge(START, 'a').compile();
      assert.equal(await new Response(await failing.stream({ x: 0 }, { encoding: 'text/event-stream' })).text(), 'event: error\ndata: {"error":"TypeError","message":"boom"}\n\n');
    }
  });

  test(named(impl, 'the messages mode streams the messages nodes return under the ids they have in the state (a UI merges them by id)'), async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('tool', () => ({ messages: [new ToolMessage({ content: 'tool out', tool_call_id: 'c1' })] }))
      .addNode('closing', () => ({ messages: [new AIMessage('bye')] }))
      .addEdge(START, 'tool').addEdge('tool', 'closing').addEdge('closing', END).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'stream-ids' } };
    const streamed = await collect(graph.stream({ messages: [{ role: 'user', content: 'go', id: 'u1' }] }, { ...config, streamMode: 'messages' }));
    const ids = streamed.map(([m]) => m.id);
    assert.equal(ids.length, 2);
    assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0));
    assert.deepEqual((await graph.getState(config)).values.messages.map((m) => m.id), ['u1', ...ids]);
  });

  test(named(impl, 'with [\'updates\', \'messages\'], a node\'s returned message comes before its update'), async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('tools', () => ({ messages: [new ToolMessage({ content: 'sunny', tool_call_id: 'c1' })] }))
      .addNode('reply', () => ({ messages: [new AIMessage('It is sunny')] }))
      .addEdge(START, 'tools').addEdge('tools', 'reply').addEdge('reply', END).compile();
    const chunks = await collect(graph.stream({ messages: [{ role: 'user', content: 'weather?' }] }, { streamMode: ['updates', 'messages'] }));
    assert.deepEqual(chunks.map(([mode, c]) => (mode === 'messages' ? `messages ${c[1].langgraph_node}` : `updates ${Object.keys(c)}`)), ['messages tools', 'updates tools', 'messages reply', 'updates reply']);
  });

  test(named(impl, 'the messages mode sends none of the messages a child\'s Command.PARENT carries up (a handoff\'s tool message)'), async () => {
    const { Command } = impl;
    const child = new StateGraph(MessagesAnnotation)
      .addNode('work', () => ({ messages: [new AIMessage({ content: 'handing back', id: 'a1' })] }))
      .addNode('back', () => new Command({ graph: Command.PARENT, goto: 'boss', update: { messages: [new ToolMessage({ content: 'transferred back', tool_call_id: 't1', id: 't1m' })] } }))
      .addEdge(START, 'work').addEdge('work', 'back').compile();
    const graph = new StateGraph(MessagesAnnotation).addNode('worker', child, { ends: ['boss'] }).addNode('boss', () => ({})).addEdge(START, 'worker').addEdge('boss', END).compile();
    const chunks = await collect(graph.stream({ messages: [{ role: 'user', content: 'go' }] }, { streamMode: ['messages', 'updates'], subgraphs: true }));
    assert.deepEqual(chunks.map(([ns, mode, c]) => `${ns.map((n) => n.split(':')[0])} ${mode} ${mode === 'messages' ? c[0].content : Object.keys(c)}`), ['worker messages handing back', 'worker updates work', ' updates worker', ' updates boss']);
  });

  test(named(impl, 'pregel.stream.test.ts > updates mode: emits updates events for each node execution'), async () => {
    assert.deepEqual(await collect(twoStep().stream({ count: 0 }, { streamMode: 'updates' })), [{ step1: { count: 1 } }, { step2: { count: 10 } }]);
  });

  test(named(impl, 'pregel.stream.test.ts > values mode: emits values events matching state snapshots'), async () => {
    assert.deepEqual(await collect(twoStep().stream({ count: 0 }, { streamMode: 'values' })), [{ count: 0 }, { count: 1 }, { count: 11 }]);
  });

  test(named(impl, 'pregel.stream.test.ts > custom mode: emits custom events written via config.writer'), async () => {
    const graph = new StateGraph(Annotation.Root({ value: Annotation({ reducer: (_, b) => b, default: () => '' }) }))
      .addNode('writer_node', (_state, config) => { config.writer?.({ custom_key: 'custom_value' }); return { value: 'done' }; })
      .addEdge(START, 'writer_node').addEdge('writer_node', END).compile();
    assert.deepEqual(await collect(graph.stream({ value: '' }, { streamMode: 'custom' })), [{ custom_key: 'custom_value' }]);
    // The writer's chunks interleave with the other modes in order.
    const mixed = await collect(graph.stream({ value: '' }, { streamMode: ['custom', 'updates'] }));
    assert.deepEqual(mixed, [['custom', { custom_key: 'custom_value' }], ['updates', { writer_node: { value: 'done' } }]]);
  });

  test(named(impl, 'pregel.stream.test.ts > tasks mode: emits tasks events during execution'), async () => {
    const graph = new StateGraph(Counter()).addNode('add_one', () => ({ count: 1 })).addEdge(START, 'add_one').addEdge('add_one', END).compile();
    const tasks = await collect(graph.stream({ count: 0 }, { streamMode: 'tasks' }));
    assert.equal(tasks.length, 2);
    const [start, result] = tasks;
    assert.equal(start.name, 'add_one');
    assert.deepEqual(start.input, { count: 0 });
    assert.deepEqual(start.triggers, ['branch:to:add_one']);
    assert.deepEqual(start.interrupts, []);
    assert.equal(typeof start.id, 'string');
    assert.equal(result.name, 'add_one');
    assert.deepEqual(result.result, { count: 1 });
    assert.deepEqual(result.interrupts, []);
    assert.equal(result.id, start.id);
  });

  test(named(impl, 'pregel.stream.test.ts > all modes together: emits events for multiple stream modes in a single run'), async () => {
    const chunks = await collect(twoStep().stream({ count: 0 }, { streamMode: ['values', 'updates', 'tasks', 'custom'] }));
    const modes = new Set(chunks.map(([mode]) => mode));
    assert.deepEqual([...modes].sort(), ['tasks', 'updates', 'values']);
    assert.deepEqual(chunks.filter(([m]) => m === 'updates').map(([, c]) => c), [{ step1: { count: 1 } }, { step2: { count: 10 } }]);
    assert.deepEqual(chunks.at(-1), ['values', { count: 11 }]);
  });

  test(named(impl, 'pregel.stream.test.ts > stream() chunk shape: yields 3-tuples for subgraphs + multi-mode runs with a checkpointer'), async () => {
    const graph = new StateGraph(Counter()).addNode('add_one', () => ({ count: 1 })).addEdge(START, 'add_one').addEdge('add_one', END)
      .compile({ checkpointer: new MemorySaver() });
    const chunks = await collect(graph.stream({ count: 0 }, { subgraphs: true, streamMode: ['values', 'updates'], configurable: { thread_id: 'stream-chunk-shape' } }));
    assert.ok(chunks.length > 0);
    assert.ok(chunks.some((c) => Array.isArray(c) && c[1] === 'values'));
    assert.ok(!chunks.some((c) => c[1] === 'checkpoints'));
    for (const chunk of chunks) { assert.ok(Array.isArray(chunk)); assert.equal(chunk.length, 3); assert.deepEqual(chunk[0], []); }
  });

  test(named(impl, 'pregel.stream.test.ts > subgraphs: emits events with nested namespaces for subgraph nodes'), async () => {
    const inner = new StateGraph(Counter()).addNode('inner_step', () => ({ count: 100 })).addEdge(START, 'inner_step').addEdge('inner_step', END).compile();
    const outer = new StateGraph(Counter()).addNode('outer_step', () => ({ count: 1 })).addNode('subgraph', inner)
      .addEdge(START, 'outer_step').addEdge('outer_step', 'subgraph').addEdge('subgraph', END).compile();
    const chunks = await collect(outer.stream({ count: 0 }, { subgraphs: true, streamMode: 'updates' }));
    const nested = chunks.filter(([ns]) => ns.length > 0);
    assert.ok(nested.length > 0);
    assert.match(nested[0][0][0], /^subgraph:/);
    assert.deepEqual(nested[0][1], { inner_step: { count: 100 } });
    // Without subgraphs: true, only the parent's own updates.
    assert.deepEqual(Object.keys(Object.assign({}, ...(await collect(outer.stream({ count: 0 }))))).sort(), ['outer_step', 'subgraph']);
    assert.ok((await outer.invoke({ count: 0 })).count >= 100);
  });

  test(named(impl, 'pregel.test.ts > StateGraph: streams updates as soon as they are available (chunk count and order, no timers)'), async () => {
    const State = Annotation.Root({ foo: Annotation({ reducer: (a, b) => a + b, default: () => '' }) });
    const subgraph = new StateGraph(State).addNode('fast', async () => ({ foo: 'b' })).addNode('slow', async () => ({ foo: 'a' }))
      .addEdge('__start__', 'fast').addEdge('fast', 'slow').compile();
    const graph = new StateGraph(State).addNode('subgraph', subgraph).addNode('after', async () => ({ foo: 'r' }))
      .addEdge('__start__', 'subgraph').addEdge('subgraph', 'after').compile();
    const chunks = await collect(graph.stream({}, { subgraphs: true }));
    assert.equal(chunks.length, 4);
    assert.deepEqual(chunks.map(([ns, c]) => [ns.length, Object.keys(c)[0]]), [[1, 'fast'], [1, 'slow'], [0, 'subgraph'], [0, 'after']]);
  });

  test(named(impl, 'pregel.test.ts > StateGraph: streamMode should be respected'), async () => {
    const subgraph = new StateGraph(MessagesAnnotation).addNode('c_one', () => ({ messages: ['c_one'] })).addEdge(START, 'c_one').compile({ checkpointer: new MemorySaver() });
    const graph = new StateGraph(Annotation.Root({ ...MessagesAnnotation.spec, updates: Annotation() }))
      .addNode('p_one', async (state) => ({ updates: await collect(subgraph.stream({ messages: state.messages }, { streamMode: 'updates', configurable: { thread_id: 'inner' } })) }), { subgraphs: [subgraph] })
      .addEdge(START, 'p_one').compile({ checkpointer: new MemorySaver() });
    const out = await graph.invoke({ messages: ['input'] }, { configurable: { thread_id: '1' } });
    assert.equal(out.messages.length, 1);
    assert.equal(out.messages[0].content, 'input');
    // The subgraph's own stream, not the parent's mode, decided what it yielded: its node's update as written.
    assert.deepEqual(out.updates, [{ c_one: { messages: ['c_one'] } }]);
  });

  test(named(impl, 'pregel.test.ts > StateGraph: Supports automatic streaming with streamMode messages (the node passes its config)'), async () => {
    // LangGraph finds the config through AsyncLocalStorage when a node does not pass it;
    // edgegraph has no async_hooks (browsers, workers): a node passes `config` on (see the migration guide).
    const llm = new FakeListChatModel({ responses: ['foobar'] });
    const graph = new StateGraph(Annotation.Root({ question: Annotation(), answer: Annotation() }))
      .addNode('generate', async (state, config) => ({ answer: (await llm.invoke(state.question, config)).content }))
      .addEdge('__start__', 'generate').compile();
    const chunks = await collect(graph.stream({ question: 'How are you?' }, { streamMode: 'messages' }));
    assert.ok(chunks.length > 1);
    assert.equal(chunks.map(([message]) => message.content).join(''), 'foobar');
    assert.ok(chunks.every(([, meta]) => meta.langgraph_node === 'generate'));
  });

  test(named(impl, 'pregel.test.ts: should not assign message ID for tool messages (messages a node returns are streamed)'), async () => {
    const { ToolMessage } = await import('@langchain/core/messages');
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('one', async () => ({ messages: [new ToolMessage({ content: 'Tool 1', tool_call_id: '1' }), new ToolMessage({ content: 'Tool 2', tool_call_id: '2' })] }))
      .addEdge(START, 'one').compile({ checkpointer: new MemorySaver() });
    const chunks = await collect(graph.stream({ messages: [] }, { configurable: { thread_id: '1' }, streamMode: 'messages' }));
    assert.equal(chunks.length, 2);
    assert.deepEqual(chunks.map(([m, meta]) => [m.content, meta.langgraph_node]), [['Tool 1', 'one'], ['Tool 2', 'one']]);
    const { values } = await graph.getState({ configurable: { thread_id: '1' } });
    assert.deepEqual(values.messages.map((m) => [m.content, m.tool_call_id]), [['Tool 1', '1'], ['Tool 2', '2']]);
  });

  test(named(impl, 'checkpoints mode: one snapshot per checkpoint, values and next as getStateHistory has them'), async () => {
    const graph = twoStep();
    const saved = new StateGraph(Counter()).addNode('step1', () => ({ count: 1 })).addNode('step2', () => ({ count: 10 }))
      .addEdge(START, 'step1').addEdge('step1', 'step2').addEdge('step2', END).compile({ checkpointer: new MemorySaver() });
    assert.ok(graph);
    const config = { configurable: { thread_id: 'cp' } };
    const chunks = await collect(saved.stream({ count: 0 }, { ...config, streamMode: 'checkpoints' }));
    const history = await collect(saved.getStateHistory(config));
    assert.deepEqual(chunks.map((c) => c.values), history.map((s) => s.values).reverse());
    assert.deepEqual(chunks.at(-1).values, { count: 11 });
    assert.deepEqual(chunks.at(-1).next, []);
    assert.deepEqual(chunks.find((c) => c.values.count === 1).next, ['step2']);
    assert.equal(chunks.at(-1).config.configurable.thread_id, 'cp');
  });
  test(named(impl, 'chunks and the state share no objects: a consumer editing a chunk, or a node what it returned, changes neither the run\'s state nor a chunk (LangGraph yields its own objects)'), async () => {
    const returned = { tags: ['a'] };
    let edited;
    const consumerEdited = new Promise((resolve) => { edited = resolve; });
    const graph = new StateGraph(Annotation.Root({ doc: Annotation(), seen: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('write', () => ({ doc: returned }))
      .addNode('pass', (state) => ({ doc: state.doc }))   // hands back the state's own object
      .addNode('read', async (state) => { await consumerEdited; return { seen: [state.doc.tags.length] }; })
      .addEdge(START, 'write').addEdge('write', 'pass').addEdge('pass', 'read').addEdge('read', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'shared' } };
    const chunks = [];
    for await (const [mode, chunk] of await graph.stream({ doc: { tags: [] } }, { ...config, streamMode: ['updates', 'values'] })) {
      chunks.push([mode, chunk]);
      // The consumer edits what it was given (as an app annotating what it renders), while `read` waits.
      if (mode === 'updates' && chunk.pass) chunk.pass.doc.tags.push('consumer');
      if (mode === 'values' && chunks.at(-2)?.[1].pass) { chunk.doc.tags.push('consumer'); edited(); }
    }
    returned.tags.push('node, later');
    const { values } = await graph.getState(config);
    if (impl.name === 'langgraph') {
      assert.ok(values.seen[0] > 1);   // the edits reached the state `read` saw
      return;
    }
    assert.deepEqual(values, { doc: { tags: ['a'] }, seen: [1] });
    assert.deepEqual(chunks, [
      ['values', { doc: { tags: [] }, seen: [] }],
      ['updates', { write: { doc: { tags: ['a'] } } }], ['values', { doc: { tags: ['a'] }, seen: [] }],
      ['updates', { pass: { doc: { tags: ['a', 'consumer'] } } }], ['values', { doc: { tags: ['a', 'consumer'] }, seen: [] }],
      ['updates', { read: { seen: [1] } }], ['values', { doc: { tags: ['a'] }, seen: [1] }],
    ]);
  });
  test(named(impl, 'a node\'s config.signal, also in a copy of the config (as LangChain\'s ensureConfig makes), aborts when the consumer leaves the stream'), async () => {
    let started, sawAbort;
    const running = new Promise((resolve) => { started = resolve; });
    const aborted = new Promise((resolve) => { sawAbort = resolve; });
    let copied, own;
    const graph = new StateGraph(Annotation.Root({ value: Annotation() }))
      .addNode('first', () => ({ value: 1 }))
      .addNode('wait', async (_state, config) => {
        started();
        try {
          copied = { ...config };
          own = config.signal;
          await new Promise((resolve) => copied.signal.addEventListener('abort', resolve, { once: true }));
        } finally {
          sawAbort();   // also if there was no signal to wait on: the test fails below, it does not hang
        }
        return { value: 2 };
      })
      .addEdge(START, 'first').addEdge('first', 'wait').addEdge('wait', END).compile();
    const chunks = [];
    for await (const chunk of await graph.stream({ value: 0 })) {
      chunks.push(chunk);
      if (chunk.first) { await running; break; }
    }
    await aborted;
    assert.deepEqual(chunks, [{ first: { value: 1 } }]);
    assert.ok(copied.signal instanceof AbortSignal && copied.signal.aborted);
    assert.equal(copied.signal, own);
  });
  test(named(impl, "a pause's { __interrupt__ } chunks (updates and values, a subgraph's in its namespace too) share no objects: a consumer editing one leaves the others as they came"), async () => {
    const { interrupt } = impl;
    const child = new StateGraph(Counter()).addNode('ask', () => { interrupt({ question: 'go?' }); return { count: 1 }; })
      .addEdge(START, 'ask').addEdge('ask', END).compile();
    const graph = new StateGraph(Counter()).addNode('sub', child).addEdge(START, 'sub').addEdge('sub', END)
      .compile({ checkpointer: new MemorySaver() });
    const questions = [];
    for await (const chunk of await graph.stream({ count: 0 }, { configurable: { thread_id: 'paused' }, streamMode: ['updates', 'values'], subgraphs: true })) {
      // The consumer marks each interrupt it is given (as an app annotating what it renders).
      for (const item of chunk[2].__interrupt__ ?? []) { item.value.question += '!'; questions.push(item.value); }
    }
    assert.equal(questions.length, 4);   // updates and values, in the subgraph's namespace and in the graph's
    if (impl.name === 'langgraph') {
      assert.ok(new Set(questions).size < questions.length);   // LangGraph hands several chunks the same objects
      return;
    }
    assert.deepEqual(questions.map((q) => q.question), ['go?!', 'go?!', 'go?!', 'go?!']);
  });
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END } = impl;
  test(named(impl, 'a graph a node invokes with its config streams into the caller\'s stream, under the node\'s namespace'), async () => {
    const S = Annotation.Root({ count: Annotation() });
    const inner = new StateGraph(S).addNode('inner_step', (s) => ({ count: s.count + 100 })).addEdge(START, 'inner_step').addEdge('inner_step', END).compile();
    const outer = new StateGraph(S).addNode('call_inner', async (s, config) => ({ count: (await inner.invoke({ count: s.count }, { ...config })).count }))
      .addEdge(START, 'call_inner').addEdge('call_inner', END).compile();
    const chunks = await collect(outer.stream({ count: 1 }, { subgraphs: true, streamMode: 'updates' }));
    assert.equal(chunks.length, 2);
    assert.equal(chunks[0][0].length, 1);
    assert.match(chunks[0][0][0], /^call_inner:/);
    assert.deepEqual(chunks[0][1], { inner_step: { count: 101 } });
    assert.deepEqual(chunks[1], [[], { call_inner: { count: 101 } }]);
  });
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END } = impl;
  test(named(impl, 'two streams of one compiled graph at once: each gets its own run\'s chunks (custom writes and updates), interleaved nodes notwithstanding'), async () => {
    const S = Annotation.Root({ who: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    const graph = new StateGraph(S)
      .addNode('first', async (s, config) => { config.writer({ from: s.who, at: 'first' }); if (s.who === 'a') await gate; return { log: [`first ${s.who}`] }; })
      .addNode('second', (s, config) => { config.writer({ from: s.who, at: 'second' }); if (s.who === 'b') release(); return { log: [`second ${s.who}`] }; })
      .addEdge(START, 'first').addEdge('first', 'second').addEdge('second', END).compile();
    // 'a' waits in its first node until 'b' has run its second: the two runs' nodes interleave.
    const [a, b] = await Promise.all(['a', 'b'].map((who) => collect(graph.stream({ who }, { streamMode: ['custom', 'updates'] }))));
    for (const [who, chunks] of [['a', a], ['b', b]]) {
      assert.deepEqual(chunks.filter(([mode]) => mode === 'custom').map(([, c]) => c), [{ from: who, at: 'first' }, { from: who, at: 'second' }]);
      assert.deepEqual(chunks.filter(([mode]) => mode === 'updates').map(([, c]) => c), [{ first: { log: [`first ${who}`] } }, { second: { log: [`second ${who}`] } }]);
    }
  });
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = impl;
  test(named(impl, 'values mode: a resumed run starts with the values it resumes from'), async () => {
    const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('ask', () => ({ log: [`ask:${interrupt('?')}`] })).addNode('after', () => ({ log: ['after'] }))
      .addEdge(START, 'ask').addEdge('ask', 'after').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'values-resume' } };
    await graph.invoke({ log: ['in'] }, config);
    const chunks = [];
    for await (const chunk of await graph.stream(new Command({ resume: 'yes' }), { ...config, streamMode: 'values' })) chunks.push(chunk.log);
    assert.deepEqual(chunks, [['in'], ['in', 'ask:yes'], ['in', 'ask:yes', 'after']]);
  });
  test(named(impl, 'values mode: a resume with Command({ resume, update }) starts with the values the update made, which the resumed node gets'), async () => {
    const S = Annotation.Root({ draft: Annotation(), verdict: Annotation() });
    const graph = new StateGraph(S)
      .addNode('write', () => ({ draft: 'v1' }))
      .addNode('review', (s) => ({ verdict: `${interrupt(s.draft)} for ${s.draft}` }))
      .addEdge(START, 'write').addEdge('write', 'review').addEdge('review', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'edit-and-answer' } };
    await graph.invoke({}, config);
    const chunks = [];
    for await (const chunk of await graph.stream(new Command({ resume: 'ok', update: { draft: 'v2' } }), { ...config, streamMode: 'values' })) chunks.push(chunk);
    assert.deepEqual(chunks, [{ draft: 'v2' }, { draft: 'v2', verdict: 'ok for v2' }]);
  });

  test(named(impl, 'values mode: a Command({ update }) on a thread paused after its last node (interruptAfter) streams the values with the update, though no node runs'), async () => {
    const S = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }), v: Annotation() });
    const graph = new StateGraph(S).addNode('a', () => ({ log: ['a'] })).addEdge(START, 'a').addEdge('a', END)
      .compile({ checkpointer: new MemorySaver(), interruptAfter: ['a'] });
    const config = { configurable: { thread_id: 'after-last' }, streamMode: 'values' };
    for await (const _ of await graph.stream({ v: 1 }, config));
    const chunks = [];
    for await (const chunk of await graph.stream(new Command({ update: { v: 5 } }), config)) chunks.push(chunk);
    assert.deepEqual(chunks, [{ log: ['a'], v: 5 }]);
  });

}
