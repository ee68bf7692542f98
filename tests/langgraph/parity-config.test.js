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
}
