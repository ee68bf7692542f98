// A compiled graph invoked inside another graph's node (`await child.invoke(input, config)`,
// LangGraph's way to call a graph of another state schema): the child's interrupt() pauses the
// parent and a resume continues the child; a child that finished is not run again when the node
// runs again; a child node's Command.PARENT is the node's result. And a node's Command goto adds
// to its static edges, and a Command on a thread without checkpoints is its input. Each program
// runs on @langchain/langgraph first: its behaviour is what both implementations are held to.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryCache as LangGraphCache } from '@langchain/langgraph-checkpoint';
import { implementations, collect, named } from './support/impls.js';

/** A value without its interrupt ids (LangGraph's are hashes, edgegraph's readable): what both must agree on. */
const withoutIds = (value) => JSON.parse(JSON.stringify(value, (k, v) => (k === 'id' ? undefined : v)));

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, interrupt, Command } = impl;
  const State = Annotation.Root({ x: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });

  /** A child graph whose node records each run in `effects` and asks for its answer. */
  const askerOf = (effects) => new StateGraph(State)
    .addNode('ask', (s) => { effects.push(`ask ${s.x}`); return { log: [interrupt(`q ${s.x}`)] }; })
    .addEdge(START, 'ask').compile();

  test(named(impl, 'a graph invoked inside a node that failed: the resume goes on from its failed node (the ones before it do not run again)'), async () => {
    let failing = true, payments = 0;
    const child = new StateGraph(State)
      .addNode('pay', () => { payments++; return { log: ['paid'] }; })
      .addNode('receipt', () => { if (failing) throw new Error('smtp down'); return { log: ['receipt'] }; })
      .addEdge(START, 'pay').addEdge('pay', 'receipt').compile();
    const graph = new StateGraph(State).addNode('n', async (s, config) => child.invoke({}, config)).addEdge(START, 'n').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-failed' } };
    await assert.rejects(graph.invoke({}, config), /smtp down/);
    failing = false;
    assert.deepEqual((await graph.invoke(null, config)).log, ['paid', 'receipt']);
    assert.equal(payments, 1);
  });

  test(named(impl, 'a node that failed after a graph it invoked finished: the resume does not run that graph again'), async () => {
    let failing = true;
    const effects = [];
    const child = new StateGraph(State).addNode('pay', () => { effects.push('pay'); return { log: ['paid'] }; }).addEdge(START, 'pay').compile();
    const graph = new StateGraph(State)
      .addNode('n', async (s, config) => { const out = await child.invoke({}, config); if (failing) throw new Error('after the child'); return out; })
      .addEdge(START, 'n').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-after' } };
    await assert.rejects(graph.invoke({}, config), /after the child/);
    failing = false;
    assert.deepEqual((await graph.invoke(null, config)).log, ['paid']);
    assert.deepEqual(effects, ['pay']);
  });

  test(named(impl, 'an interrupt() in a graph invoked inside a node pauses the parent; each resume continues the child, its answers in call order'), async () => {
    const child = new StateGraph(State)
      .addNode('ask', (s) => ({ log: [`child got ${interrupt({ q: `approve ${s.x}` })} ${interrupt('second')}`] }))
      .addEdge(START, 'ask').compile();
    let calls = 0;
    const parent = new StateGraph(State)
      .addNode('pre', () => ({ log: ['pre'] }))
      .addNode('call', async (s, config) => { calls++; return { log: (await child.invoke({ x: s.x }, config)).log }; })
      .addEdge(START, 'pre').addEdge('pre', 'call').addEdge('call', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-1' } };
    const first = await parent.invoke({ x: 'A' }, config);
    assert.deepEqual(withoutIds(first), { x: 'A', log: ['pre'], __interrupt__: [{ value: { q: 'approve A' } }] });
    const state = await parent.getState(config);
    assert.deepEqual(state.next, ['call']);
    assert.deepEqual(state.tasks[0].interrupts, first.__interrupt__);
    assert.deepEqual(withoutIds(await parent.invoke(new Command({ resume: 'yes' }), config)), { x: 'A', log: ['pre'], __interrupt__: [{ value: 'second' }] });
    assert.deepEqual(await parent.invoke(new Command({ resume: 'yes2' }), config), { x: 'A', log: ['pre', 'child got yes yes2'] });
    assert.equal(calls, 3);
  });

  test(named(impl, 'a graph invoked inside a node without the node\'s config is nested there too'), async () => {
    const effects = [];
    const asker = askerOf(effects);
    const parent = new StateGraph(State)
      .addNode('call', async (s) => ({ log: (await asker.invoke({ x: s.x })).log }))
      .addEdge(START, 'call').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-2' } };
    assert.deepEqual(withoutIds(await parent.invoke({ x: 'B' }, config)), { x: 'B', log: [], __interrupt__: [{ value: 'q B' }] });
    assert.deepEqual(await parent.invoke(new Command({ resume: 'ok' }), config), { x: 'B', log: ['ok'] });
  });

  test(named(impl, 'two graphs invoked in one node, each pausing: the first, finished, is not run again, and the stream shows each under its own namespace'), async () => {
    const effects = [];
    const asker = askerOf(effects);
    const parent = new StateGraph(State)
      .addNode('call', async (s, c) => { const a = await asker.invoke({ x: 'one' }, c); const b = await asker.invoke({ x: 'two' }, c); return { log: [...a.log, ...b.log] }; })
      .addEdge(START, 'call').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-3' }, streamMode: ['updates', 'values'], subgraphs: true };
    // Each chunk as `<namespace depth and its call suffix> <mode> <chunk>`, without task ids and interrupt ids.
    const shown = async (input) => (await collect(parent.stream(input, config))).map(([ns, mode, chunk]) => `${ns.map((n) => (n.startsWith('call:') ? 'call' : n)).join('|')} ${mode} ${JSON.stringify(withoutIds(chunk))}`);
    assert.deepEqual(await shown({ x: 'D' }), [
      ' values {"x":"D","log":[]}',
      'call values {"x":"one","log":[]}',
      'call updates {"__interrupt__":[{"value":"q one"}]}',
      'call values {"__interrupt__":[{"value":"q one"}]}',
      ' updates {"__interrupt__":[{"value":"q one"}]}',
      ' values {"__interrupt__":[{"value":"q one"}]}',
    ]);
    assert.deepEqual(await shown(new Command({ resume: 'first' })), [
      ' values {"x":"D","log":[]}',
      'call values {"x":"one","log":[]}',
      'call updates {"ask":{"log":["first"]}}',
      'call values {"x":"one","log":["first"]}',
      'call|1 values {"x":"two","log":[]}',
      'call|1 updates {"__interrupt__":[{"value":"q two"}]}',
      'call|1 values {"__interrupt__":[{"value":"q two"}]}',
      ' updates {"__interrupt__":[{"value":"q two"}]}',
      ' values {"__interrupt__":[{"value":"q two"}]}',
    ]);
    // The finished first child only replays its values.
    assert.deepEqual(await shown(new Command({ resume: 'second' })), [
      ' values {"x":"D","log":[]}',
      'call values {"x":"one","log":["first"]}',
      'call|1 values {"x":"two","log":[]}',
      'call|1 updates {"ask":{"log":["second"]}}',
      'call|1 values {"x":"two","log":["second"]}',
      ' updates {"call":{"log":["first","second"]}}',
      ' values {"x":"D","log":["first","second"]}',
    ]);
    // The first child asked once and ran again only to take its answer; the second likewise.
    assert.deepEqual(effects, ['ask one', 'ask one', 'ask two', 'ask two']);
  });

  test(named(impl, 'a graph that finished inside a node is not run again when the node\'s own interrupt() is resumed'), async () => {
    const effects = [];
    const worker = new StateGraph(State).addNode('work', (s) => { effects.push(`work ${s.x}`); return { log: [`worked ${s.x}`] }; }).addEdge(START, 'work').compile();
    const parent = new StateGraph(State)
      .addNode('n', async (s, c) => { const r = await worker.invoke({ x: s.x }, c); return { log: [...r.log, interrupt(`approve ${r.log}`)] }; })
      .addEdge(START, 'n').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-4' } };
    assert.deepEqual(withoutIds(await parent.invoke({ x: 'a' }, config)), { x: 'a', log: [], __interrupt__: [{ value: 'approve worked a' }] });
    assert.deepEqual(await parent.invoke(new Command({ resume: 'yes' }), config), { x: 'a', log: ['worked a', 'yes'] });
    assert.deepEqual(effects, ['work a']);
  });

  test(named(impl, 'graphs invoked in parallel nodes pause together and take their answers by interrupt id'), async () => {
    const effects = [];
    const asker = askerOf(effects);
    const parent = new StateGraph(State)
      .addNode('l', async (s, c) => ({ log: (await asker.invoke({ x: 'L' }, c)).log }))
      .addNode('r', async (s, c) => ({ log: (await asker.invoke({ x: 'R' }, c)).log }))
      .addEdge(START, 'l').addEdge(START, 'r').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-5' } };
    const paused = await parent.invoke({ x: 'p' }, config);
    assert.deepEqual(withoutIds(paused.__interrupt__), [{ value: 'q L' }, { value: 'q R' }]);
    const answers = Object.fromEntries(paused.__interrupt__.map((i) => [i.id, `ans ${i.value}`]));
    assert.deepEqual(await parent.invoke(new Command({ resume: answers }), config), { x: 'p', log: ['ans q L', 'ans q R'] });
  });

  test(named(impl, 'a graph invoked inside a node of a subgraph pauses the whole graph, and the resume reaches it'), async () => {
    const effects = [];
    const asker = askerOf(effects);
    const middle = new StateGraph(State).addNode('m', async (s, c) => ({ log: (await asker.invoke({ x: 'M' }, c)).log })).addEdge(START, 'm').compile();
    const parent = new StateGraph(State).addNode('sub', middle).addNode('post', () => ({ log: ['post'] }))
      .addEdge(START, 'sub').addEdge('sub', 'post').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-6' } };
    assert.deepEqual(withoutIds(await parent.invoke({ x: 'p' }, config)), { x: 'p', log: [], __interrupt__: [{ value: 'q M' }] });
    assert.deepEqual(withoutIds((await parent.getState(config)).tasks.map((t) => t.interrupts)), [[{ value: 'q M' }]]);
    assert.deepEqual(await parent.invoke(new Command({ resume: 'deep' }), config), { x: 'p', log: ['deep', 'post'] });
  });

  test(named(impl, 'a graph invoked inside a node, paused at its breakpoint, pauses the parent with no interrupts; invoke(null) continues it'), async () => {
    const child = new StateGraph(State).addNode('a', () => ({ log: ['a'] })).addNode('b', () => ({ log: ['b'] }))
      .addEdge(START, 'a').addEdge('a', 'b').compile({ interruptBefore: ['b'] });
    const parent = new StateGraph(State).addNode('n', async (s, c) => ({ log: (await child.invoke({ x: 'B' }, c)).log }))
      .addEdge(START, 'n').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-7' } };
    assert.deepEqual(await parent.invoke({ x: 'p' }, config), { x: 'p', log: [], __interrupt__: [] });
    assert.deepEqual((await parent.getState(config)).next, ['n']);
    assert.deepEqual(await parent.invoke(null, config), { x: 'p', log: ['a', 'b'] });
  });

  test(named(impl, 'a pause in a graph invoked inside a node of a graph without a checkpointer is refused: No checkpointer set'), async () => {
    const parent = new StateGraph(State).addNode('call', async (s, c) => ({ log: (await askerOf([]).invoke({ x: 'C' }, c)).log }))
      .addEdge(START, 'call').compile();
    await assert.rejects(parent.invoke({ x: 'C' }), /No checkpointer set/);
  });

  test(named(impl, 'a child node\'s Command.PARENT in a graph invoked inside a node is that node\'s result: its update and goto, the node\'s static edge still taken'), async () => {
    const child = new StateGraph(State)
      .addNode('a', () => ({ log: ['child a'] }))
      .addNode('b', () => new Command({ graph: Command.PARENT, goto: 'after', update: { log: ['from child'] } }))
      .addEdge(START, 'a').addEdge('a', 'b').compile();
    const parent = new StateGraph(State)
      .addNode('call', async (s, config) => ({ log: [`never: ${JSON.stringify(await child.invoke({ x: s.x }, config))}`] }), { ends: ['after'] })
      .addNode('other', () => ({ log: ['other'] }))
      .addNode('after', () => ({ log: ['after'] }))
      .addEdge(START, 'call').addEdge('call', 'other')
      .compile({ checkpointer: new MemorySaver() });
    assert.deepEqual(await parent.invoke({ x: 'A' }, { configurable: { thread_id: 'nested-8' } }), { x: 'A', log: ['from child', 'after', 'other'] });
  });

  test(named(impl, 'a node with a cachePolicy that invokes a graph: its pause resumes, and its Command.PARENT is the node\'s result'), async () => {
    const newCache = () => (impl.name === 'langgraph' ? new LangGraphCache() : new impl.InMemoryCache());
    const log = [];
    const asker = new StateGraph(State).addNode('c', (s) => { const a = interrupt('q'); log.push(`c:${a}`); return { x: `${s.x}/${a}` }; }).addEdge(START, 'c').compile();
    const parent = new StateGraph(State)
      .addNode('n', async (s, config) => ({ x: (await asker.invoke({ x: s.x }, config)).x }), { cachePolicy: { ttl: 60 } })
      .addEdge(START, 'n').compile({ checkpointer: new MemorySaver(), cache: newCache() });
    const config = { configurable: { thread_id: 'nested-cached' } };
    assert.deepEqual(withoutIds((await parent.invoke({ x: 'in' }, config)).__interrupt__), [{ value: 'q' }]);
    assert.deepEqual(await parent.invoke(new Command({ resume: 'A' }), config), { x: 'in/A', log: [] });
    assert.deepEqual(log, ['c:A']);
    const handing = new StateGraph(State).addNode('c', () => new Command({ graph: Command.PARENT, update: { x: 'from-child' }, goto: 'after' })).addEdge(START, 'c').compile();
    const routed = new StateGraph(State)
      .addNode('n', async (s, config) => ({ x: (await handing.invoke({ x: s.x }, config)).x }), { cachePolicy: { ttl: 60 }, ends: ['after'] })
      .addNode('after', (s) => ({ log: [`after:${s.x}`] }))
      .addEdge(START, 'n').compile({ cache: newCache() });
    assert.deepEqual(await routed.invoke({ x: 'in' }), { x: 'from-child', log: ['after:from-child'] });
  });

  test(named(impl, 'a node\'s Command goto adds to its static edges: both run, and a join still hears from it'), async () => {
    const graph = new StateGraph(State)
      .addNode('call', () => new Command({ goto: 'after', update: { log: ['cmd'] } }), { ends: ['after'] })
      .addNode('side', () => ({ log: ['side'] }))
      .addNode('other', () => ({ log: ['other'] }))
      .addNode('after', () => ({ log: ['after'] }))
      .addNode('joined', () => ({ log: ['joined'] }))
      .addEdge(START, 'call').addEdge(START, 'side').addEdge('call', 'other')
      .addEdge(['call', 'side'], 'joined')
      .compile();
    const result = await graph.invoke({ x: 1 });
    assert.deepEqual(result.log.slice(0, 2).sort(), ['cmd', 'side']);
    assert.deepEqual(result.log.slice(2).sort(), ['after', 'joined', 'other']);
  });

  test(named(impl, 'a node\'s Command goto adds to its conditional edge\'s answer too (a Send as well), and lasts that one step'), async () => {
    const { Send } = impl;
    const routed = new StateGraph(State)
      .addNode('call', () => new Command({ goto: 'after', update: { log: ['cmd'], x: 'r' } }), { ends: ['after'] })
      .addNode('other', () => ({ log: ['other'] }))
      .addNode('after', (s) => ({ log: [`after ${s.x}`] }))
      .addEdge(START, 'call').addConditionalEdges('call', (s) => (s.x === 'r' ? 'other' : END))
      .compile();
    const result = await routed.invoke({ x: 1 });
    assert.deepEqual([result.log[0], ...result.log.slice(1).sort()], ['cmd', 'after r', 'other']);
    const sending = new StateGraph(State)
      .addNode('call', () => new Command({ goto: [new Send('after', { x: 's' })], update: { log: ['cmd'] } }), { ends: ['after'] })
      .addNode('after', (s) => ({ log: [`after ${s.x}`] }))
      .addEdge(START, 'call').addConditionalEdges('call', () => END)
      .compile();
    assert.deepEqual((await sending.invoke({ x: 1 })).log, ['cmd', 'after s']);
    // The goto is the node's once: its next plain result routes by the router alone.
    const looping = new StateGraph(State)
      .addNode('call', (s) => (s.x === 1 ? new Command({ goto: 'other', update: { log: ['cmd'] } }) : { log: ['plain'] }), { ends: ['other'] })
      .addNode('other', () => ({ log: ['other'] }))
      .addNode('loop', (s) => ({ x: s.x + 1 }))
      .addEdge(START, 'call').addConditionalEdges('call', (s) => (s.x === 2 ? 'loop' : END))
      .addEdge('other', 'loop').addEdge('loop', 'call')
      .compile({ checkpointer: new MemorySaver() });
    assert.deepEqual(await looping.invoke({ x: 1 }, { configurable: { thread_id: 'routed' } }), { x: 3, log: ['cmd', 'other', 'plain', 'plain'] });
  });

  test(named(impl, 'an input that writes no channel has no values chunk'), async () => {
    const graph = new StateGraph(State).addNode('n', () => ({ log: ['n'] })).addEdge(START, 'n').compile();
    assert.deepEqual(await collect(graph.stream({}, { streamMode: 'values' })), [{ log: ['n'] }]);
    assert.deepEqual(await collect(graph.stream({ log: [] }, { streamMode: 'values' })), [{ log: [] }, { log: ['n'] }]);
  });
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command } = impl;
  const State = Annotation.Root({ x: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const graphOf = (options) => new StateGraph(State)
    .addNode('a', () => ({ log: ['a'] })).addNode('b', () => ({ log: ['b'] }))
    .addEdge(START, 'a').addEdge('a', 'b').compile(options);

  test(named(impl, 'a Command on a thread without checkpoints is its input: its update applied, its goto taken, else the run ends'), async () => {
    const cases = [
      [{ update: { x: 3 } }, { x: 3, log: [] }],
      [{ goto: 'b', update: { x: 2 } }, { x: 2, log: ['b'] }],
      [{ goto: END, update: { x: 4 } }, { x: 4, log: [] }],
      [{ resume: 'nothing asked' }, { log: [] }],
    ];
    for (const [fields, expected] of cases) {
      const graph = graphOf({ checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: 'new' } };
      assert.deepEqual(await graph.invoke(new Command(fields), config), expected, JSON.stringify(fields));
      const state = await graph.getState(config);
      assert.deepEqual([state.values, state.next], [expected, []], JSON.stringify(fields));
    }
  });

  test(named(impl, 'a Command given to a graph without a checkpointer: its update and goto are the input; a resume is refused'), async () => {
    const graph = graphOf();
    assert.deepEqual(await graph.invoke(new Command({ update: { x: 3 } })), { x: 3, log: [] });
    await assert.rejects(graph.invoke(new Command({ resume: 'yes' })), /resume.*without.*checkpointer/i);
  });
}
