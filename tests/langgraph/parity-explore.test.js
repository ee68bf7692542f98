// LangGraph programs an exploratory comparison found running differently on edgegraph/langgraph:
// each run on @langchain/langgraph first, its behaviour what both implementations are held to.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { z } from 'zod';
import { RunnableLambda } from '@langchain/core/runnables';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { implementations, collect, named, views } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, MessagesAnnotation, START, END } = impl;

  test(named(impl, 'LangChain\'s message-like pairs ([\'user\', \'hi\']) in the input and a node\'s update become messages with their role and content'), async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('reply', () => ({ messages: [['assistant', 'hello back']] }))
      .addEdge(START, 'reply').addEdge('reply', END).compile();
    const result = await graph.invoke({ messages: [['user', 'hi'], ['system', 'be brief']] });
    assert.deepEqual(views(result.messages).map(({ role, content }) => ({ role, content })), [
      { role: 'user', content: 'hi' }, { role: 'system', content: 'be brief' }, { role: 'assistant', content: 'hello back' },
    ]);
  });

  test(named(impl, 'the call\'s own callbacks still see a chat model\'s run in the messages stream mode (beside the token handler)'), async () => {
    const model = new FakeListChatModel({ responses: ['abc'] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (s, config) => ({ messages: [await model.invoke(s.messages, config)] }))
      .addEdge(START, 'agent').addEdge('agent', END).compile();
    const seen = [];
    const handler = { handleLLMStart: () => { seen.push('start'); }, handleLLMEnd: () => { seen.push('end'); } };
    const chunks = await collect(graph.stream({ messages: [{ role: 'user', content: 'hi' }] }, { streamMode: 'messages', callbacks: [handler] }));
    assert.deepEqual(seen, ['start', 'end']);
    assert.equal(chunks.map(([m]) => m.content).join(''), 'abc');
  });

  test(named(impl, 'a run aborted by the call\'s signal throws the signal\'s reason'), async () => {
    const controller = new AbortController();
    const graph = new StateGraph(Annotation.Root({ x: Annotation() }))
      .addNode('stop', async () => { controller.abort(new DOMException('stopped by the user', 'AbortError')); await new Promise((r) => setImmediate(r)); return { x: 1 }; })
      .addNode('after', () => ({ x: 2 }))
      .addEdge(START, 'stop').addEdge('stop', 'after').addEdge('after', END).compile();
    await assert.rejects(graph.invoke({ x: 0 }, { signal: controller.signal }), (e) => e.name === 'AbortError' && e.message === 'stopped by the user');
  });

  test(named(impl, 'the messages stream mode sends a message once: not the messages a node was given, which a subgraph node\'s update has again'), async () => {
    const child = new StateGraph(MessagesAnnotation)
      .addNode('reply', (s) => ({ messages: [{ role: 'assistant', content: `reply ${s.messages.length}`, id: `r${s.messages.length}` }] }))
      .addEdge(START, 'reply').compile();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('first', child).addNode('second', child)
      .addEdge(START, 'first').addEdge('first', 'second').addEdge('second', END).compile();
    const chunks = await collect(graph.stream({ messages: [{ role: 'user', content: 'hello', id: 'u1' }] }, { streamMode: 'messages' }));
    assert.deepEqual(chunks.map(([m, meta]) => `${meta.langgraph_node}: ${m.content}`), ['first: reply 1', 'second: reply 2']);
  });

  test(named(impl, 'a messages chunk\'s metadata has the model call\'s tags (LangGraph\'s "filter by LLM invocation") and the node\'s checkpoint namespace, a subgraph\'s under its node\'s'), async () => {
    const joke = new FakeListChatModel({ responses: ['ha'] }).withConfig({ tags: ['joke'] });
    const poem = new FakeListChatModel({ responses: ['ode'] }).withConfig({ tags: ['poem'] });
    const child = new StateGraph(MessagesAnnotation)
      .addNode('inner', async (s, config) => ({ messages: [await poem.invoke(s.messages, config)] }))
      .addEdge(START, 'inner').compile();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('write', async (s, config) => ({ messages: [await joke.invoke(s.messages, config)] }))
      .addNode('sub', child)
      .addEdge(START, 'write').addEdge('write', 'sub').addEdge('sub', END).compile();
    const tokens = [];
    for await (const [, mode, [message, meta]] of await graph.stream({ messages: [{ role: 'user', content: 'go' }] }, { streamMode: ['messages'], subgraphs: true })) {
      if (mode === 'messages' && meta.tags.length) tokens.push([message.content, meta.tags.join(), meta.langgraph_checkpoint_ns.split('|').map((part) => part.split(':')[0]).join('|')]);
    }
    assert.deepEqual(tokens, [['h', 'joke', 'write'], ['a', 'joke', 'write'], ['o', 'poem', 'sub|inner'], ['d', 'poem', 'sub|inner'], ['e', 'poem', 'sub|inner']]);
  });

  test(named(impl, 'a channel\'s default is made per thread (and per run without one): default: () => a fresh id gives each its own, kept across a thread\'s calls'), async () => {
    let made = 0;
    const State = Annotation.Root({ n: Annotation(), session: Annotation({ reducer: (a, b) => b, default: () => `session-${++made}` }) });
    const build = (options) => new StateGraph(State).addNode('a', () => ({ n: 1 })).addEdge(START, 'a').addEdge('a', END).compile(options);
    const threaded = build({ checkpointer: new impl.MemorySaver() });
    const one = (await threaded.invoke({ n: 0 }, { configurable: { thread_id: '1' } })).session;
    const two = (await threaded.invoke({ n: 0 }, { configurable: { thread_id: '2' } })).session;
    const oneAgain = (await threaded.invoke({ n: 0 }, { configurable: { thread_id: '1' } })).session;
    assert.notEqual(one, two);
    assert.equal(oneAgain, one);
    const plain = build();
    assert.notEqual((await plain.invoke({ n: 0 })).session, (await plain.invoke({ n: 0 })).session);
  });

  test(named(impl, 'a graph\'s input schema is what invoke() takes: a key of the state outside it (an approval flag) is not set by the caller'), async () => {
    const Input = Annotation.Root({ question: Annotation() });
    const Output = Annotation.Root({ answer: Annotation() });
    const Overall = Annotation.Root({ question: Annotation(), answer: Annotation(), approved: Annotation() });
    const graph = new StateGraph({ input: Input, output: Output, state: Overall })
      .addNode('a', (s) => ({ answer: `${s.question}: approved=${s.approved}` }))
      .addEdge(START, 'a').addEdge('a', END).compile();
    assert.deepEqual(await graph.invoke({ question: 'q', approved: true }), { answer: 'q: approved=undefined' });
  });

  test(named(impl, 'a channel only a node\'s input schema declares is private state: written by one node, read by the node (which gets those channels), not returned'), async () => {
    const State = Annotation.Root({ question: Annotation(), answer: Annotation() });
    const Private = Annotation.Root({ secret: Annotation() });
    const seen = [];
    const graph = new StateGraph(State)
      .addNode('a', () => ({ secret: 's1' }))
      .addNode('b', (s) => { seen.push(Object.keys(s)); return { answer: `secret=${s.secret}` }; }, { input: Private })
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END).compile();
    assert.deepEqual(await graph.invoke({ question: 'q' }), { question: 'q', answer: 'secret=s1' });
    assert.deepEqual(seen, [['secret']]);
  });

  test(named(impl, 'a Zod object as the state: its fields\' .default() values are the channels\' defaults, made anew each run'), async () => {
    const State = z.object({ count: z.number().default(0), name: z.string(), items: z.array(z.string()).default([]) });
    const graph = new StateGraph(State)
      .addNode('inc', (s) => ({ count: s.count + 1, items: [...s.items, 'i'] }))
      .addEdge(START, 'inc').addEdge('inc', END).compile();
    assert.deepEqual(await graph.invoke({ name: 'n' }), { count: 1, name: 'n', items: ['i'] });
    assert.deepEqual(await graph.invoke({ name: 'm' }), { count: 1, name: 'm', items: ['i'] });
  });

  test(named(impl, 'review fixes: a runnable given the node\'s config finds what the node was given; id-less messages are streamed though the node was given one; a private channel is neither the caller\'s nor other nodes\''), async () => {
    const { getCurrentTaskInput } = impl;
    const read = RunnableLambda.from((_input, config) => getCurrentTaskInput(config).question);
    const tooled = new StateGraph(Annotation.Root({ question: Annotation(), answer: Annotation() }))
      .addNode('a', async (s, config) => ({ answer: `tool saw ${await read.invoke({}, config)}` }))
      .addEdge(START, 'a').addEdge('a', END).compile();
    assert.equal((await tooled.invoke({ question: 'Q' })).answer, 'tool saw Q');

    const Drafted = Annotation.Root({ ...MessagesAnnotation.spec, draft: Annotation() });
    const replying = new StateGraph(Drafted)
      .addNode('reply', () => ({ messages: [new AIMessage('x')] }))   // (LangGraph streams LangChain messages: a class here)
      .addEdge(START, 'reply').addEdge('reply', END).compile();
    const chunks = await collect(replying.stream({ messages: [], draft: new HumanMessage('reply to draft') }, { streamMode: 'messages' }));
    assert.deepEqual(chunks.map(([m]) => m.content), ['x']);

    const State = Annotation.Root({ question: Annotation(), answer: Annotation() });
    const seen = [];
    const privately = new StateGraph(State)
      .addNode('reader', (s) => ({ answer: `secret=${s.secret}` }), { input: Annotation.Root({ secret: Annotation() }) })
      .addNode('other', (s) => { seen.push(Object.keys(s).sort().join()); return {}; })
      .addEdge(START, 'reader').addEdge('reader', 'other').addEdge('other', END).compile();
    assert.deepEqual(await privately.invoke({ question: 'q', secret: 'from the caller' }), { question: 'q', answer: 'secret=undefined' });
    assert.deepEqual(seen, ['answer,question']);
  });

  test(named(impl, 'a compiled graph used as a node makes its defaults anew for each of its runs'), async () => {
    let made = 0;
    const Child = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }), childId: Annotation({ reducer: (a, b) => b, default: () => `c${++made}` }) });
    const child = new StateGraph(Child).addNode('k', (s) => ({ log: [s.childId] })).addEdge(START, 'k').compile();
    const Parent = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const graph = new StateGraph(Parent).addNode('first', child).addNode('second', child).addEdge(START, 'first').addEdge('first', 'second').addEdge('second', END).compile();
    const ids = (await graph.invoke({ log: [] })).log.filter((entry) => entry.startsWith('c'));
    assert.equal(new Set(ids).size, 2, `two child runs, two ids: ${ids}`);
  });

  test(named(impl, 'a LangChain message in a Send\'s argument reaches the node as a message (edgegraph: a plain one), not its serialized form'), async () => {
    const { Send } = impl;
    const got = [];
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('w', (arg) => { got.push(views([arg.m])[0]); return { messages: [arg.m] }; })
      .addConditionalEdges(START, () => [new Send('w', { m: new AIMessage({ content: 'sent', id: 'sid' }) })])
      .compile();
    const result = await graph.invoke({ messages: [new HumanMessage({ content: 'hi', id: 'u' })] });
    assert.deepEqual(got, [{ role: 'assistant', content: 'sent', id: 'sid' }]);
    assert.deepEqual(views(result.messages), [{ role: 'user', content: 'hi', id: 'u' }, { role: 'assistant', content: 'sent', id: 'sid' }]);
  });

  test(named(impl, 'with subgraphs: true a subgraph\'s message and tokens come once, from its own namespace, not again from each enclosing subgraph node'), async () => {
    const model = new FakeListChatModel({ responses: ['tok'] });
    const inner = new StateGraph(MessagesAnnotation)
      .addNode('reply', () => ({ messages: [new AIMessage({ content: 'inner reply', id: 'r1' })] }))
      .addNode('llm', async (s, config) => ({ messages: [await model.invoke(s.messages, config)] }))
      .addEdge(START, 'reply').addEdge('reply', 'llm').compile();
    const middle = new StateGraph(MessagesAnnotation).addNode('inner', inner).addEdge(START, 'inner').compile();
    const outer = new StateGraph(MessagesAnnotation).addNode('middle', middle).addEdge(START, 'middle').compile();
    const input = { messages: [{ role: 'user', content: 'hi', id: 'u' }] };
    const shown = (chunks) => chunks.map(([ns, [m, meta]]) => `${ns.map((n) => n.split(':')[0]).join('|')} ${meta.langgraph_node}: ${m.content}`);
    assert.deepEqual(shown(await collect(outer.stream(input, { streamMode: 'messages', subgraphs: true }))), [
      'middle|inner reply: inner reply', 'middle|inner llm: t', 'middle|inner llm: o', 'middle|inner llm: k',
    ]);
    // Without subgraphs the top-level node sends them, once.
    assert.deepEqual((await collect(outer.stream(input, { streamMode: 'messages' }))).map(([m, meta]) => `${meta.langgraph_node}: ${m.content}`), ['middle: inner reply', 'middle: tok']);
  });

  test(named(impl, 'with subgraphs: true a child node\'s Command.PARENT streams no update of its own: the parent\'s node streams it'), async () => {
    const { Command } = impl;
    const State = Annotation.Root({ who: Annotation() });
    const child = new StateGraph(State).addNode('handoff', () => new Command({ graph: Command.PARENT, goto: 'other', update: { who: 'other' } })).addEdge(START, 'handoff').compile();
    const graph = new StateGraph(State).addNode('agent', child, { ends: ['other'] }).addNode('other', () => ({})).addEdge(START, 'agent').addEdge('other', END).compile();
    const chunks = await collect(graph.stream({ who: 'agent' }, { subgraphs: true }));
    assert.deepEqual(chunks.map(([ns, chunk]) => [ns.length, chunk]), [[0, { agent: { who: 'other' } }], [0, { other: {} }]]);
  });
}
