// A node's config found from code the node calls (getConfig, getWriter), a paused result told
// apart (isInterrupted, INTERRUPT), and the step a node's config and the debug stream show: each
// program run on @langchain/langgraph first, its behaviour what both implementations are held to.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EdgegraphError } from 'edgegraph';
import { implementations, collect, named } from './support/impls.js';

const threadOf = (id) => ({ configurable: { thread_id: id } });

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt, getConfig, getWriter, isInterrupted, INTERRUPT } = impl;
  const Log = () => Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });

  test(named(impl, 'getConfig() in a helper a node calls is the node\'s config: its thread, its metadata, its call\'s configurable values'), async () => {
    const describe = () => { const c = getConfig(); return `${c.metadata.langgraph_node}@${c.metadata.langgraph_step}:${c.configurable.thread_id}:${c.configurable.user}`; };
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: [describe()] }))
      .addNode('b', async () => { await Promise.resolve(); return { log: [describe()] }; })   // after an await (AsyncLocalStorage: Node)
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END)
      .compile({ checkpointer: new MemorySaver() });
    const result = await graph.invoke({ log: [] }, { configurable: { thread_id: 'cfg', user: 'ana' } });
    assert.deepEqual(result.log, ['a@1:cfg:ana', 'b@2:cfg:ana']);
    let metadata;
    await new StateGraph(Log()).addNode('m', (s, config) => { metadata = config.metadata; return {}; }).addEdge(START, 'm').addEdge('m', END).compile({ checkpointer: new MemorySaver() }).invoke({ log: [] }, { configurable: { thread_id: 'meta' }, metadata: { mine: 1 } });
    assert.deepEqual([metadata.thread_id, metadata.mine, metadata.langgraph_node], ['meta', 1, 'm']);   // the thread in the metadata too (LangSmith reads it there)
    assert.equal(getConfig(), undefined);   // outside a node
  });

  test(named(impl, 'getWriter() in a helper writes to the custom stream mode; outside a node without a config it throws'), async () => {
    const report = (text) => getWriter()({ progress: text });
    const graph = new StateGraph(Log())
      .addNode('work', () => { report('half'); report('done'); return { log: ['w'] }; })
      .addEdge(START, 'work').addEdge('work', END)
      .compile();
    assert.deepEqual(await collect(graph.stream({ log: [] }, { streamMode: 'custom' })), [{ progress: 'half' }, { progress: 'done' }]);
    assert.throws(() => getWriter(), (e) => (impl.name === 'edgegraph' ? e instanceof EdgegraphError && e.code === 'CONFIG_OUTSIDE_NODE' && /getWriter\(config\)/.test(e.message) : e instanceof Error));
    const written = [];
    getWriter({ writer: (chunk) => written.push(chunk) })('given');
    assert.deepEqual(written, ['given']);
  });

  test(named(impl, 'isInterrupted() tells a paused invoke() result, whose INTERRUPT key lists the pending interrupts'), async () => {
    const graph = new StateGraph(Log())
      .addNode('ask', () => ({ log: [`ask:${interrupt('q?')}`] }))
      .addEdge(START, 'ask').addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const paused = await graph.invoke({ log: [] }, threadOf('asked'));
    assert.equal(INTERRUPT, '__interrupt__');
    assert.equal(isInterrupted(paused), true);
    assert.deepEqual(paused[INTERRUPT].map((i) => i.value), ['q?']);
    const done = await graph.invoke(new Command({ resume: 'y' }), threadOf('asked'));
    assert.deepEqual([isInterrupted(done), done.log], [false, ['ask:y']]);
    assert.deepEqual([isInterrupted(null), isInterrupted('x'), isInterrupted({ __interrupt__: 'no' })], [false, false, false]);
  });

  test(named(impl, 'a node\'s langgraph_step counts the input step as 0, as the debug stream\'s task steps, on a run and its resume'), async () => {
    const seen = [];
    const graph = new StateGraph(Log())
      .addNode('a', (s, config) => { seen.push(['a', config.metadata.langgraph_step]); return { log: ['a'] }; })
      .addNode('ask', (s, config) => { seen.push(['ask', config.metadata.langgraph_step]); return { log: [interrupt('q?')] }; })
      .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const debug = await collect(graph.stream({ log: [] }, { ...threadOf('steps'), streamMode: 'debug' }));
    await graph.invoke(new Command({ resume: 'v' }), threadOf('steps'));
    assert.deepEqual(seen, [['a', 1], ['ask', 2], ['ask', 2]]);
    assert.deepEqual(debug.filter((c) => c.type !== 'checkpoint').map((c) => `${c.type}:${c.step}:${c.payload.name}`), ['task:1:a', 'task_result:1:a', 'task:2:ask', 'task_result:2:ask']);
  });

  test(named(impl, 'getConfig() after an await of a node that returns a promise (not an async function), inside a subgraph and inside a graph an async node invokes, is that node\'s; a subgraph router\'s is not its parent node\'s'), async () => {
    const later = (f) => new Promise((r) => setImmediate(r)).then(f);
    const pick = (c) => (c ? `${c.metadata.langgraph_node}@${c.metadata.langgraph_step}` : String(c));
    const routed = [];
    const child = new StateGraph(Log())
      .addNode('c1', () => later(() => { getWriter()('from c1'); return { log: [pick(getConfig())] }; }))
      .addNode('c2', () => ({}))
      .addEdge(START, 'c1').addConditionalEdges('c1', () => { routed.push(pick(getConfig())); return 'c2'; }).addEdge('c2', END)
      .compile();
    const parent = new StateGraph(Log()).addNode('sub', child).addEdge(START, 'sub').addEdge('sub', END).compile();
    const chunks = await collect(parent.stream({ log: [] }, { streamMode: ['custom', 'updates'], subgraphs: true }));
    const seen = chunks.map(([ns, mode, chunk]) => `${ns.map((n) => n.split(':')[0]).join('|')}/${mode}/${JSON.stringify(chunk)}`);
    // The custom chunk in c1's subgraph's namespace, its config c1's (not the parent node's, 'sub').
    for (const chunk of ['sub/custom/"from c1"', 'sub/updates/{"c1":{"log":["c1@1"]}}', '/updates/{"sub":{"log":["c1@1"]}}']) assert.ok(seen.includes(chunk), `${chunk} in ${seen}`);
    // LangGraph gives a router its node's config; edgegraph's routers run without one (the migrating table).
    assert.deepEqual(routed, [impl.name === 'edgegraph' ? 'undefined' : 'c1@1']);
    const inner = new StateGraph(Log()).addNode('inner', () => later(() => ({ log: [pick(getConfig())] }))).addEdge(START, 'inner').addEdge('inner', END).compile();
    const outer = new StateGraph(Log()).addNode('outerNode', async () => ({ log: (await inner.invoke({ log: [] })).log })).addEdge(START, 'outerNode').addEdge('outerNode', END).compile();
    assert.deepEqual((await outer.invoke({ log: [] })).log, ['inner@1']);
  });

  test(named(impl, 'a paused or failed step of several Sends to one node: getState and getStateHistory show each task\'s own interrupt or error'), async () => {
    const { Send } = impl;
    const fanned = (kind) => new StateGraph(Log())
      .addNode('fan', () => ({}))
      .addNode('w', async ({ i }) => {
        if (i === 1) return { log: ['w1'] };
        if (kind === 'interrupt') return { log: [interrupt(`Q${i}`)] };
        for (let turn = 0; turn < i; turn++) await new Promise((r) => setImmediate(r));   // w1 has finished when w2 fails
        if (i === 2) throw new Error('w2 failed');
        return { log: [`w${i}`] };
      })
      .addEdge(START, 'fan').addConditionalEdges('fan', () => [1, 2, 3].map((i) => new Send('w', { i }))).addEdge('w', END)
      .compile({ checkpointer: new MemorySaver() });
    const shown = (snapshot) => snapshot.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value), t.error?.message ?? null]);
    const asked = fanned('interrupt');
    await asked.invoke({ log: [] }, threadOf('sends-asked'));
    const [latest] = await collect(asked.getStateHistory(threadOf('sends-asked')));
    for (const snapshot of [await asked.getState(threadOf('sends-asked')), latest]) {
      assert.deepEqual(shown(snapshot), [['w', [], null], ['w', ['Q2'], null], ['w', ['Q3'], null]]);
    }
    const failing = fanned('fail');
    await assert.rejects(failing.invoke({ log: [] }, threadOf('sends-failed')), /w2 failed/);
    const [failed] = await collect(failing.getStateHistory(threadOf('sends-failed')));
    for (const snapshot of [await failing.getState(threadOf('sends-failed')), failed]) {
      // (The third: LangGraph cancels it when w2 fails, edgegraph lets it finish: only the first two compare.)
      assert.deepEqual(shown(snapshot).slice(0, 2), [['w', [], null], ['w', [], 'w2 failed']]);
    }
  });

  test(named(impl, 'getCurrentTaskInput() in a tool a node calls is what the node was given: the state, or a Send\'s argument; outside a node it throws'), async () => {
    const { getCurrentTaskInput, Send } = impl;
    const lookup = () => `${getCurrentTaskInput().log.length} entries`;   // a tool reading the graph's state
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] }))
      .addNode('tool', () => ({ log: [lookup()] }))
      .addNode('each', (arg, config) => ({ log: [`each ${getCurrentTaskInput(config).item}`] }))
      .addEdge(START, 'a').addEdge('a', 'tool')
      .addConditionalEdges('tool', () => [new Send('each', { item: 1 }), new Send('each', { item: 2 })])
      .addEdge('each', END)
      .compile();
    assert.deepEqual((await graph.invoke({ log: [] })).log, ['a', '1 entries', 'each 1', 'each 2']);
    assert.throws(() => getCurrentTaskInput());
  });
}
