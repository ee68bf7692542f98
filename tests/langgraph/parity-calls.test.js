// What a call of a compiled graph takes and gives, where an exploratory comparison found
// edgegraph/langgraph different: a call's own breakpoints, a config merged with withConfig's,
// StateGraph's { input, output } schemas, stream() as a web ReadableStream, batch(),
// getSubgraphs(), getGraph(), a node's config, a stream left early, a saver's deleteThread,
// defaults and Overwrite.
// Each program runs on @langchain/langgraph first: its behaviour is what both implementations
// are held to.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AIMessage } from '@langchain/core/messages';
import { implementations, collect, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver } = impl;
  const Draft = Annotation.Root({ draft: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });

  /** write -> send -> done, `sent` recording each send (the side effect a breakpoint guards). */
  const mailer = (sent) => new StateGraph(Draft)
    .addNode('write', () => ({ draft: 'hello', log: ['write'] }))
    .addNode('send', (s) => { sent.push(s.draft); return { log: ['send'] }; })
    .addNode('done', () => ({ log: ['done'] }))
    .addEdge(START, 'write').addEdge('write', 'send').addEdge('send', 'done')
    .compile({ checkpointer: new MemorySaver() });

  test(named(impl, 'a call\'s own interruptBefore pauses before the node, which runs only on the resume (the same config does not pause there again)'), async () => {
    const sent = [];
    const graph = mailer(sent);
    const config = { configurable: { thread_id: 'before' }, interruptBefore: ['send'] };
    assert.deepEqual(await graph.invoke({}, config), { draft: 'hello', log: ['write'], __interrupt__: [] });
    assert.deepEqual([(await graph.getState(config)).next, sent], [['send'], []]);
    assert.deepEqual(await graph.invoke(null, config), { draft: 'hello', log: ['write', 'send', 'done'] });
    assert.deepEqual(sent, ['hello']);
  });

  test(named(impl, 'a call\'s own interruptAfter pauses after each node it names'), async () => {
    const graph = mailer([]);
    const config = { configurable: { thread_id: 'after' }, interruptAfter: ['write', 'send'] };
    await graph.invoke({}, config);
    assert.deepEqual((await graph.getState(config)).next, ['send']);
    await graph.invoke(null, config);
    assert.deepEqual((await graph.getState(config)).next, ['done']);
    assert.deepEqual(await graph.invoke(null, config), { draft: 'hello', log: ['write', 'send', 'done'] });
  });

  test(named(impl, 'a call\'s interruptBefore: \'*\' pauses before every node'), async () => {
    const graph = mailer([]);
    const config = { configurable: { thread_id: 'all' }, interruptBefore: '*' };
    await graph.invoke({}, config);
    assert.deepEqual((await graph.getState(config)).next, ['write']);
    await graph.invoke(null, config);
    assert.deepEqual((await graph.getState(config)).next, ['send']);
  });

  test(named(impl, 'withConfig\'s configurable, metadata and tags merge with the call\'s, key by key'), async () => {
    const graph = new StateGraph(Annotation.Root({ out: Annotation() }))
      .addNode('a', (s, config) => ({ out: [config.configurable.model, config.configurable.user_id, config.metadata.team, config.metadata.request, [...config.tags].sort().join(',')].join(' ') }))
      .addEdge(START, 'a').addEdge('a', END).compile()
      .withConfig({ configurable: { model: 'gpt-4o' }, metadata: { team: 'ops' }, tags: ['base'] });
    const { out } = await graph.invoke({}, { configurable: { user_id: 'u1' }, metadata: { request: 'r7' }, tags: ['call'] });
    assert.equal(out, 'gpt-4o u1 ops r7 base,call');
  });

  test(named(impl, 'new StateGraph(state, { input, output }): invoke() takes the input schema\'s keys and returns the output schema\'s'), async () => {
    const Overall = Annotation.Root({ question: Annotation(), answer: Annotation(), notes: Annotation() });
    const graph = new StateGraph(Overall, { input: Annotation.Root({ question: Annotation() }), output: Annotation.Root({ answer: Annotation() }) })
      .addNode('answerer', (s) => ({ answer: `re: ${s.question} (notes: ${s.notes})`, notes: 'internal scratch' }))
      .addEdge(START, 'answerer').addEdge('answerer', END).compile();
    assert.deepEqual(await graph.invoke({ question: 'hi', notes: 'injected by caller' }), { answer: 're: hi (notes: undefined)' });
  });

  const counter = () => new StateGraph(Annotation.Root({ n: Annotation() }))
    .addNode('a', (s) => ({ n: s.n + 1 })).addNode('b', (s) => ({ n: s.n + 1 }))
    .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END).compile();

  test(named(impl, 'stream() is a web ReadableStream too: piped through a TransformStream into a Response as server-sent events'), async () => {
    const stream = await counter().stream({ n: 0 });
    const sse = stream.pipeThrough(new TransformStream({ transform: (chunk, c) => c.enqueue(`data: ${JSON.stringify(chunk)}\n\n`) })).pipeThrough(new TextEncoderStream());
    assert.equal(await new Response(sse).text(), 'data: {"a":{"n":1}}\n\ndata: {"b":{"n":2}}\n\n');
  });

  test(named(impl, 'stream()\'s getReader reads the chunks; cancel() stops the run'), async () => {
    const reader = (await counter().stream({ n: 0 })).getReader();
    assert.deepEqual(await reader.read(), { value: { a: { n: 1 } }, done: false });
    await reader.cancel();
    assert.deepEqual(await reader.read(), { value: undefined, done: true });
    // Iterated, it is the chunks as before.
    assert.deepEqual(await collect(counter().stream({ n: 0 }, { streamMode: 'values' })), [{ n: 0 }, { n: 1 }, { n: 2 }]);
  });

  test(named(impl, 'batch() invokes each input'), async () => {
    assert.deepEqual(await counter().batch([{ n: 1 }, { n: 10 }]), [{ n: 3 }, { n: 12 }]);
  });

  test(named(impl, 'batch() with returnExceptions gives a failed input\'s error in its place; without, it throws'), async () => {
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('a', (s) => { if (s.n < 0) throw new Error(`negative: ${s.n}`); return { n: s.n * 2 }; }).addEdge(START, 'a').compile();
    const [ok, failed] = await graph.batch([{ n: 2 }, { n: -1 }], undefined, { returnExceptions: true });
    assert.deepEqual([ok, failed instanceof Error, failed.message], [{ n: 4 }, true, 'negative: -1']);
    await assert.rejects(graph.batch([{ n: 2 }, { n: -1 }]), /negative: -1/);
  });

  test(named(impl, 'invoke() with a streamMode other than values returns its chunks'), async () => {
    assert.deepEqual(await counter().invoke({ n: 0 }, { streamMode: 'updates' }), [{ a: { n: 1 } }, { b: { n: 2 } }]);
    assert.deepEqual(await counter().invoke({ n: 0 }, { streamMode: ['updates', 'values'] }), [['values', { n: 0 }], ['updates', { a: { n: 1 } }], ['values', { n: 1 }], ['updates', { b: { n: 2 } }], ['values', { n: 2 }]]);
    assert.deepEqual(await counter().invoke({ n: 0 }, { streamMode: 'values' }), { n: 2 });
  });

  test(named(impl, 'getSubgraphs() lists the compiled graphs used as nodes, with recurse theirs too'), async () => {
    const leaf = counter();
    const middle = new StateGraph(Annotation.Root({ n: Annotation() })).addNode('leaf', leaf).addEdge(START, 'leaf').compile();
    const top = new StateGraph(Annotation.Root({ n: Annotation() })).addNode('middle', middle).addNode('plain', () => ({})).addEdge(START, 'middle').addEdge('middle', 'plain').compile();
    assert.deepEqual([...top.getSubgraphs()].map(([name, g]) => [name, g === middle]), [['middle', true]]);
    assert.deepEqual([...top.getSubgraphs(undefined, true)].map(([name, g]) => [name, g === middle || g === leaf]), [['middle', true], ['middle|leaf', true]]);
    assert.deepEqual([...top.getSubgraphs('middle|leaf', true)].map(([name]) => name), ['middle|leaf']);
  });

  test(named(impl, 'a consumer that leaves the stream on a node\'s update keeps that update: the resume does not run the node (its side effect) again'), async () => {
    let charged = 0;
    const graph = new StateGraph(Draft)
      .addNode('charge', async () => { charged++; return { log: ['charged'] }; })
      .addNode('ship', async () => ({ log: ['shipped'] }))
      .addEdge(START, 'charge').addEdge('charge', 'ship').addEdge('ship', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'leave' } };
    for await (const chunk of await graph.stream({ log: [] }, config)) {
      assert.deepEqual(chunk, { charge: { log: ['charged'] } });
      break;
    }
    const state = await graph.getState(config);
    assert.deepEqual([state.values, state.next], [{ log: ['charged'] }, ['ship']]);
    assert.deepEqual(await graph.invoke(null, config), { log: ['charged', 'shipped'] });
    assert.equal(charged, 1);
  });

  test(named(impl, 'a consumer that leaves the stream inside a subgraph node keeps the child\'s finished steps: the resume goes on inside the child'), async () => {
    const runs = { c1: 0, c2: 0, after: 0 };
    const child = new StateGraph(Draft)
      .addNode('c1', () => { runs.c1++; return { log: ['c1'] }; })
      .addNode('c2', () => { runs.c2++; return { log: ['c2'] }; })
      .addEdge(START, 'c1').addEdge('c1', 'c2').addEdge('c2', END).compile();
    const graph = new StateGraph(Draft)
      .addNode('sub', child).addNode('after', () => { runs.after++; return { log: ['after'] }; })
      .addEdge(START, 'sub').addEdge('sub', 'after').addEdge('after', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'leave-sub' } };
    for await (const [, chunk] of await graph.stream({ log: [] }, { ...config, subgraphs: true })) {
      assert.deepEqual(chunk, { c1: { log: ['c1'] } });
      break;
    }
    assert.deepEqual((await graph.getState(config)).next, ['sub']);
    assert.deepEqual(await graph.invoke(null, config), { log: ['c1', 'c2', 'after'] });
    // c1's step finished before the stop: neither runs it again. c2 ran as the stop came: LangGraph
    // runs it again (its child's step was not kept), edgegraph's child kept that step too.
    assert.deepEqual(runs, { c1: 1, c2: impl.name === 'langgraph' ? 2 : 1, after: 1 });
  });

  test(named(impl, 'a Command({ update }) as the input of a finished thread writes the update, runs no node, and streams the new values'), async () => {
    const { Command } = impl;
    const sent = [];
    const graph = mailer(sent);
    const config = { configurable: { thread_id: 'update-finished' } };
    await graph.invoke({}, config);
    const chunks = await collect(graph.stream(new Command({ update: { draft: 'edited' } }), { ...config, streamMode: ['updates', 'values'] }));
    assert.deepEqual(chunks, [['values', { draft: 'edited', log: ['write', 'send', 'done'] }]]);
    const state = await graph.getState(config);
    assert.deepEqual([state.values, state.next, sent], [{ draft: 'edited', log: ['write', 'send', 'done'] }, [], ['hello']]);
    // LangGraph's list of writes, and getState()'s config (which names the latest checkpoint) as the call's
    assert.deepEqual(await graph.invoke(new Command({ update: [['draft', 'again'], ['log', ['noted']]] }), state.config), { draft: 'again', log: ['write', 'send', 'done', 'noted'] });
    assert.deepEqual(sent, ['hello']);
  });

  test(named(impl, 'a node that pushes onto state.messages and returns the list writes each message once'), async () => {
    const { MessagesAnnotation } = impl;
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', (s) => { s.messages.push(new AIMessage('hello')); return { messages: s.messages }; })
      .addNode('count', (s) => ({ messages: [{ role: 'assistant', content: `I see ${s.messages.length} messages` }] }))
      .addEdge(START, 'agent').addEdge('agent', 'count').addEdge('count', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'push' } };
    const contents = (list) => list.map((m) => m.content);
    const out = await graph.invoke({ messages: [{ role: 'user', content: 'hi' }] }, config);
    assert.deepEqual(contents(out.messages), ['hi', 'hello', 'I see 2 messages']);
    assert.deepEqual(contents((await graph.getState(config)).values.messages), ['hi', 'hello', 'I see 2 messages']);
  });

  test(named(impl, 'a node that edits the state it was given in place: LangGraph keeps the edit; edgegraph\'s run and checkpoint keep neither (the node had a copy)'), async () => {
    const graph = new StateGraph(Annotation.Root({ profile: Annotation(), done: Annotation() }))
      .addNode('enrich', (s) => { s.profile.plan = 'pro'; return { done: true }; })
      .addEdge(START, 'enrich').addEdge('enrich', END).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'mutate' } };
    const profile = impl.name === 'langgraph' ? { name: 'Ann', plan: 'pro' } : { name: 'Ann' };
    assert.deepEqual(await graph.invoke({ profile: { name: 'Ann' } }, config), { profile, done: true });
    assert.deepEqual((await graph.getState(config)).values, { profile, done: true });
  });

  test(named(impl, 'updateState with an Overwrite of the messages replaces them (a chat\'s "clear")'), async () => {
    const { MessagesAnnotation, Overwrite } = impl;
    const graph = new StateGraph(MessagesAnnotation).addNode('reply', () => ({ messages: [{ role: 'assistant', content: 'hello' }] }))
      .addEdge(START, 'reply').addEdge('reply', END).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'clear-chat' } };
    await graph.invoke({ messages: [{ role: 'user', content: 'hi' }] }, config);
    await graph.updateState(config, { messages: new Overwrite([{ role: 'system', content: 'new chat' }]) });
    assert.deepEqual((await graph.getState(config)).values.messages.map((m) => m.content), ['new chat']);
  });

  test(named(impl, 'a node that failed inside a subgraph: the resume goes on in the child from that node (the nodes before it do not run again)'), async () => {
    let down = true, charges = 0;
    const S = Annotation.Root({ order: Annotation(), receipt: Annotation() });
    const child = new StateGraph(S)
      .addNode('charge', () => { charges++; return { order: 'paid' }; })
      .addNode('email', () => { if (down) throw new Error('SMTP down'); return { receipt: 'sent' }; })
      .addEdge(START, 'charge').addEdge('charge', 'email').addEdge('email', END).compile();
    const graph = new StateGraph(S).addNode('checkout', child).addEdge(START, 'checkout').addEdge('checkout', END).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'child-failed' } };
    await assert.rejects(graph.invoke({ order: 'new' }, config), /SMTP down/);
    // (getState shows the child's node's error, as it threw it)
    const { error } = (await graph.getState(config)).tasks[0];
    assert.deepEqual([error.name, error.message], ['Error', 'SMTP down']);
    down = false;
    assert.deepEqual(await graph.invoke(null, config), { order: 'paid', receipt: 'sent' });
    assert.equal(charges, 1);
  });

  test(named(impl, 'a saver\'s deleteThread forgets the thread: its state and history are empty, and a new run starts it afresh'), async () => {
    const saver = new MemorySaver();
    const graph = new StateGraph(Annotation.Root({ n: Annotation({ reducer: (a, b) => a + b, default: () => 0 }) }))
      .addNode('a', () => ({ n: 1 })).addEdge(START, 'a').addEdge('a', END).compile({ checkpointer: saver });
    const config = { configurable: { thread_id: 'clear-me' } };
    await graph.invoke({ n: 0 }, config);
    await graph.invoke({ n: 5 }, config);
    assert.deepEqual((await graph.getState(config)).values, { n: 7 });
    await saver.deleteThread('clear-me');
    assert.deepEqual((await graph.getState(config)).values, {});
    assert.equal((await collect(graph.getStateHistory(config))).length, 0);
    assert.deepEqual(await graph.invoke({ n: 2 }, config), { n: 3 });
  });

  test(named(impl, 'getGraphAsync() gives what getGraph() does: its mermaid text names the nodes'), async () => {
    const graph = counter();
    const text = (await graph.getGraphAsync()).drawMermaid();
    assert.ok(text.includes('a') && text.includes('b') && text === graph.getGraph().drawMermaid());
  });

  test(named(impl, 'getGraph() gives the nodes by id and the edges: static, joined, conditional with their path map\'s keys, and a node\'s ends'), async () => {
    const { Command } = impl;
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('a', () => ({})).addNode('b', () => ({})).addNode('c', () => ({}))
      .addNode('d', () => new Command({ goto: 'c' }), { ends: ['c'] })
      .addEdge(START, 'a').addConditionalEdges('a', () => 'b', { go: 'b', stop: END }).addConditionalEdges('b', () => 'd', ['d', 'c'])
      .addEdge(['b', 'a'], 'c').addEdge('c', END).compile();
    const drawn = await graph.getGraph();
    assert.deepEqual(Object.keys(drawn.nodes), [START, 'a', 'b', 'c', 'd', END]);
    assert.deepEqual([drawn.nodes.a.id, drawn.nodes.a.name], ['a', 'a']);
    const edges = drawn.edges.map((e) => [e.source, e.target, e.conditional, e.data ?? null].join(' ')).sort();
    assert.deepEqual(edges, [
      `${START} a false `, `a ${END} true stop`, 'a b true go', 'a c false ', 'b c false ', 'b c true ', 'b d true ', `c ${END} false `, 'd c true ',
    ]);
  });

  test(named(impl, 'a node\'s config is named after the node (runName) and carries the call\'s recursionLimit, 25 by default'), async () => {
    const seen = [];
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('a', (s, config) => { seen.push([config.runName, config.recursionLimit]); return {}; })
      .addEdge(START, 'a').compile();
    await graph.invoke({ n: 1 }, { runName: 'mine', recursionLimit: 7 });
    await graph.invoke({ n: 1 });
    assert.deepEqual(seen, [['a', 7], ['a', 25]]);
  });

  test(named(impl, 'a channel without a reducer has no default: its key stays unset until a node writes it'), async () => {
    const graph = new StateGraph(Annotation.Root({ n: Annotation(), label: Annotation({ default: () => 'unused' }), total: Annotation({ reducer: (a, b) => a + b, default: () => 10 }) }))
      .addNode('a', (s) => ({ total: s.label === undefined ? 1 : 100 })).addEdge(START, 'a').compile();
    assert.deepEqual(await graph.invoke({ n: 1 }), { n: 1, total: 11 });
  });

  test(named(impl, 'an Overwrite replaces a reducer channel\'s value (a list, the messages) instead of going through the reducer; later writes reduce onto it'), async () => {
    const { MessagesAnnotation, Overwrite } = impl;
    const State = Annotation.Root({ ...MessagesAnnotation.spec, items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const graph = new StateGraph(State)
      .addNode('a', () => ({ items: ['x', 'y'], messages: [{ role: 'user', content: 'one', id: '1' }, { role: 'assistant', content: 'two', id: '2' }] }))
      .addNode('b', () => ({ items: new Overwrite(['fresh']), messages: new Overwrite([{ role: 'assistant', content: 'summary', id: 's' }]) }))
      .addNode('c', () => ({ items: ['z'] }))
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', 'c').compile({ checkpointer: new MemorySaver() });
    const result = await graph.invoke({ items: ['start'] }, { configurable: { thread_id: 'overwrite' } });
    assert.deepEqual(result.items, ['fresh', 'z']);
    assert.deepEqual(result.messages.map((m) => m.content), ['summary']);
  });

  test(named(impl, 'an Overwrite in a Command\'s list of writes wins its step: the writes before it are replaced, those after it dropped'), async () => {
    const { Overwrite, Command, MessagesAnnotation } = impl;
    const State = Annotation.Root({ ...MessagesAnnotation.spec, items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const writing = (update) => new StateGraph(State).addNode('a', () => new Command({ update })).addEdge(START, 'a').compile();
    assert.deepEqual((await writing([['items', new Overwrite(['z'])], ['items', ['y']]]).invoke({ items: ['in'] })).items, ['z']);
    assert.deepEqual((await writing([['items', ['y']], ['items', new Overwrite(['z'])]]).invoke({ items: ['in'] })).items, ['z']);
    const messages = (await writing([['messages', [{ role: 'user', content: 'x', id: 'x' }]], ['messages', new Overwrite([{ role: 'assistant', content: 'o', id: 'o' }])]])
      .invoke({ messages: [{ role: 'user', content: 'in', id: 'in' }] })).messages;
    assert.deepEqual(messages.map((m) => m.content), ['o']);
  });

  test(named(impl, 'in a parallel step a fast branch\'s update streams before the slow branch finishes'), { timeout: 10_000 }, async () => {
    // (The slow branch waits for the fast one's chunk: held back until the step ends, the test would hang and time out.)
    let release;
    const fastSeen = new Promise((resolve) => { release = resolve; });
    const graph = new StateGraph(Draft)
      .addNode('fast', async () => ({ log: ['fast'] }))
      .addNode('slow', async () => { await fastSeen; return { log: ['slow'] }; })
      .addEdge(START, 'fast').addEdge(START, 'slow').compile();
    const order = [];
    for await (const chunk of await graph.stream({ log: [] })) {
      order.push(...Object.keys(chunk));
      if (chunk.fast) release();
    }
    assert.deepEqual(order, ['fast', 'slow']);
  });

  test(named(impl, 'getGraph() draws a conditional edge without a path map to every other node and END'), async () => {
    const graph = new StateGraph(Annotation.Root({ x: Annotation() }))
      .addNode('a', () => ({})).addNode('b', () => ({}))
      .addEdge(START, 'a').addConditionalEdges('a', (s) => (s.x ? 'b' : END)).addEdge('b', END).compile();
    const edges = (await graph.getGraph()).edges.map((e) => `${e.source}->${e.target}${e.conditional ? '?' : ''}`).sort();
    assert.deepEqual(edges, [`${START}->a`, `a->${END}?`, 'a->b?', `b->${END}`]);
  });

  test(named(impl, 'langgraph_step goes on counting across a thread\'s runs: a new input, a resume, a goto on a finished thread, a replay, a Command on a new thread'), async () => {
    const { Command, interrupt } = impl;
    const steps = [];
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('a', (s, c) => { steps.push(`a${c.metadata.langgraph_step}`); return {}; })
      .addNode('b', (s, c) => { steps.push(`b${c.metadata.langgraph_step}`); if (s.n === 2) interrupt('q'); return {}; })
      .addEdge(START, 'a').addEdge('a', 'b').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'counting' } };
    await graph.invoke({ n: 1 }, config);
    await graph.invoke({ n: 2 }, config);
    await graph.invoke(new Command({ resume: 'x' }), config);
    for await (const chunk of await graph.stream({ n: 3 }, { ...config, streamMode: 'debug' })) if (chunk.type === 'task') steps.push(`debug${chunk.step}`);
    await graph.invoke(new Command({ goto: 'b', update: { n: 5 } }), config);
    assert.deepEqual(steps.splice(0), ['a1', 'b2', 'a5', 'b6', 'b6', 'a9', 'debug9', 'b10', 'debug10', 'b12']);
    const other = { configurable: { thread_id: 'counting-2' } };
    await graph.invoke({ n: 1 }, other);
    const history = await collect(graph.getStateHistory(other));
    await graph.invoke(null, history.at(-2).config);   // a replay from the checkpoint before a (step 0)
    await graph.invoke(new Command({ goto: 'b', update: { n: 1 } }), { configurable: { thread_id: 'counting-3' } });
    assert.deepEqual(steps, ['a1', 'b2', 'a2', 'b3', 'b0']);
  });

  test(named(impl, 'a run that continues an updateState of a past checkpoint (a fork) writes no extra checkpoint: the history counts on from the update'), async () => {
    const graph = new StateGraph(Annotation.Root({ topic: Annotation(), joke: Annotation() }))
      .addNode('make_topic', () => ({ topic: 'cats' })).addNode('make_joke', (s) => ({ joke: `about ${s.topic}` }))
      .addEdge(START, 'make_topic').addEdge('make_topic', 'make_joke').addEdge('make_joke', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'fork' } };
    await graph.invoke({}, config);
    const past = (await collect(graph.getStateHistory(config))).find((s) => s.next.includes('make_joke'));
    assert.deepEqual(await graph.invoke(null, await graph.updateState(past.config, { topic: 'dogs' })), { topic: 'dogs', joke: 'about dogs' });
    const history = (await collect(graph.getStateHistory(config))).map((s) => `${s.metadata.step}:${s.metadata.source}:${s.next}`);
    assert.deepEqual(history, ['3:loop:', '2:update:make_joke', '2:loop:', '1:loop:make_joke', '0:loop:make_topic', '-1:input:__start__']);
    assert.equal((await graph.getState(config)).metadata.thread_id, 'fork');   // (a snapshot's metadata names its thread)
  });

  test(named(impl, 'getState of a step where one task failed shows what the one that finished wrote (its task\'s result)'), async () => {
    const { MessagesAnnotation } = impl;
    const graph = new StateGraph(Annotation.Root({ ...MessagesAnnotation.spec, n: Annotation() }))
      .addNode('ok', () => ({ messages: [{ role: 'assistant', content: 'fine', id: 'm1' }], n: 1 }))
      .addNode('bad', () => { throw new Error('bad failed'); })
      .addEdge(START, 'ok').addEdge(START, 'bad').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'half' } };
    await assert.rejects(graph.invoke({ messages: [{ role: 'user', content: 'hi', id: 'u' }] }, config), /bad failed/);
    const { tasks } = await graph.getState(config);
    const ok = tasks.find((t) => t.name === 'ok');
    assert.deepEqual([ok.result.n, ok.result.messages.map((m) => m.content)], [1, ['fine']]);
    assert.equal(tasks.find((t) => t.name === 'bad').result, undefined);
  });

  test(named(impl, 'a node that returns no object is an InvalidUpdateError with LangGraph\'s INVALID_GRAPH_NODE_RETURN_VALUE; an unreachable node an UnreachableNodeError'), async () => {
    const { InvalidUpdateError, UnreachableNodeError } = impl;
    const returning = new StateGraph(Annotation.Root({ x: Annotation() })).addNode('a', () => 'a string').addEdge(START, 'a').compile();
    await assert.rejects(returning.invoke({ x: 1 }), (e) => e instanceof InvalidUpdateError && e.lc_error_code === 'INVALID_GRAPH_NODE_RETURN_VALUE');
    const dangling = new StateGraph(Annotation.Root({ x: Annotation() })).addNode('a', () => ({})).addNode('b', () => ({})).addEdge(START, 'a');
    assert.throws(() => dangling.compile(), (e) => e instanceof UnreachableNodeError && e.name === 'UnreachableNodeError' && e.lc_error_code === 'UNREACHABLE_NODE' && /`b`/.test(e.message));
  });
}
