// One lifetime for every object that owns WebAssembly memory: dispose() in
// the middle of a run lets the run finish (its memory is freed when it ends),
// and every call after dispose() is a DISPOSED error naming the object, for
// GraphEngine, ChatHistoryManager and StateManager alike. The instance stays usable.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, ChatHistoryManager, StateManager, MemoryStore } from '../../dist/node.js';
import { collect, withLeakWarnings } from './support/leaks.js';

const disposedError = (kind) => (e) => e.code === 'DISPOSED' && e.message.includes(kind);

test('dispose() during a run: the run finishes normally, the instance stays usable', async () => {
  let engine;
  const engineDisposed = new Promise((resolve) => {
    engine = new GraphEngine({
      nodes: {
        a: async () => { engine.dispose(); resolve(); return { data: { a: 1 } }; },
        b: (s, e) => ({ data: { b: s.data.a + 1, seen: e.getMessagesForLLM(s).length } }),
      },
      edges: { a: 'b', b: '__end__' },
      entryPoint: 'a',
    });
  });
  const run = engine.execute({ messages: [{ role: 'user', content: 'hi' }] });
  await engineDisposed;
  const r = await run;
  assert.equal(r.status, 'FINISHED', r.error?.message);
  assert.deepEqual(r.state.data, { a: 1, b: 2, seen: 1 });
  await assert.rejects(engine.execute({}), disposedError('GraphEngine'));
  // The core is intact: a new engine runs, many times.
  const again = new GraphEngine({ nodes: { x: () => ({ data: { ok: true } }) }, edges: { x: '__end__' }, entryPoint: 'x' });
  for (let i = 0; i < 50; i++) assert.equal((await again.execute({})).status, 'FINISHED');
  again.dispose();
});

test('dispose() while resume() loads its thread: DISPOSED, never a run on the freed graph', async () => {
  const def = { nodes: { ask: () => ({ pendingAskUser: { question: '?' } }), b: () => ({ data: { b: 1 } }) }, edges: { ask: 'b', b: '__end__' }, entryPoint: 'ask' };
  const engine = new GraphEngine(def, { checkpointer: new MemoryStore() });
  assert.equal((await engine.execute({}, { threadId: 't' })).status, 'PAUSED');
  const resumed = engine.resume({ threadId: 't' }, { role: 'user', content: 'go' });
  engine.dispose();   // the store answers on a later microtask
  // Engines built now may take the freed graph's memory.
  const others = Array.from({ length: 20 }, () => new GraphEngine(def));
  await assert.rejects(resumed, disposedError('GraphEngine'));
  assert.equal((await others[0].execute({})).status, 'PAUSED');
  for (const e of others) e.dispose();
});

test('every GraphEngine method after dispose() is DISPOSED', async () => {
  const engine = new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' }, { checkpointer: new MemoryStore() });
  engine.dispose();
  engine.dispose(); // idempotent
  const is = disposedError('GraphEngine');
  await assert.rejects(engine.execute({}), is);
  await assert.rejects(engine.resume('{}'), is);
  await assert.rejects(engine.getState('t'), is);
  await assert.rejects(engine.getStateHistory('t'), is);
  assert.throws(() => engine.stream({}), is);
  assert.throws(() => engine.streamResume('{}'), is);
  assert.throws(() => engine.graphHash, is);
  assert.throws(() => engine.addMessage({ role: 'user', content: 'x' }), is);
  assert.throws(() => engine.getMessagesForLLM(), is);
  assert.throws(() => engine.toMermaid(), is);
  assert.throws(() => engine.definition, is);
  assert.throws(() => engine.llmConfig, is);
});

test('every ChatHistoryManager method after dispose() is DISPOSED', () => {
  const h = new ChatHistoryManager({ maxContextTokens: 100 });
  h.addMessage({ role: 'user', content: 'hi' });
  h.dispose();
  h.dispose();
  const is = disposedError('ChatHistoryManager');
  assert.throws(() => h.addSystemPrompt('x'), is);
  assert.throws(() => h.addMessage({ role: 'user', content: 'x' }), is);
  assert.throws(() => h.getTrimmedHistory(), is);
  assert.throws(() => h.getRemainingBudget(), is);
  assert.throws(() => h.clearHistory(), is);
  assert.throws(() => h.editMessage('m', 'x'), is);
  assert.throws(() => h.deleteMessageRange('a', 'b'), is);
  assert.throws(() => h.getMessageById('m'), is);
  assert.throws(() => h.exportHistory(), is);
  assert.throws(() => h.importHistory([]), is);
});

test('every StateManager method after dispose() is DISPOSED', () => {
  const m = new StateManager({ 'scratch.notes': 'concat' });
  const state = m.initialize({ goal: 'x' });
  m.dispose();
  m.dispose();
  const is = disposedError('StateManager');
  assert.throws(() => m.initialize({}), is);
  assert.throws(() => m.updateScratch(state, { notes: ['a'] }), is);
  assert.throws(() => m.updateArtifacts(state, {}), is);
  assert.throws(() => m.updateMemory(state, {}), is);
  assert.throws(() => m.recordNodeVisit(state, 'a'), is);
  assert.throws(() => m.mergeParallelBranches(state, []), is);
});

test('unknown engine and run options are INVALID_OPTIONS listing the known ones', async () => {
  const def = { nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' };
  for (const [options, name] of [[{ maxStep: 3 }, 'maxStep'], [{ checkpointr: new MemoryStore() }, 'checkpointr'], [{ limits: { maxStatBytes: 1 } }, 'maxStatBytes']]) {
    assert.throws(() => new GraphEngine(def, options), (e) => e.code === 'INVALID_OPTIONS' && e.message.includes(`'${name}'`) && /maxSteps|maxStateBytes/.test(e.message));
  }
  const engine = new GraphEngine(def);
  await assert.rejects(engine.execute({}, { maxStep: 1 }), (e) => e.code === 'INVALID_OPTIONS' && e.message.includes("'maxStep'") && e.message.includes('signal'));
  await assert.rejects(engine.resume('{}', undefined, { threadID: 'x' }), (e) => e.code === 'INVALID_OPTIONS' && e.message.includes("'threadID'"));
  assert.throws(() => engine.stream({}, { onevent: () => {} }), (e) => e.code === 'INVALID_OPTIONS');
  engine.dispose();
});

test('a subgraph engine built from a definition is the parent\'s: disposed with it, and with a parent whose constructor failed', () => withLeakWarnings(async (warnings) => {
  const child = { nodes: { x: () => ({ data: { x: 1 } }) }, edges: { x: '__end__' }, entryPoint: 'x' };
  await (async () => {
    const parent = new GraphEngine({ nodes: { s: { kind: 'subgraph', graph: child, output: (c) => ({ data: c.data }) } }, edges: { s: '__end__' }, entryPoint: 's' });
    assert.deepEqual((await parent.execute({})).state.data, { x: 1 });
    parent.dispose();
    const broken = { ...child, edges: { x: 'nowhere' } };
    assert.throws(() => new GraphEngine({ nodes: { s: { kind: 'subgraph', graph: broken } }, edges: { s: '__end__' }, entryPoint: 's' }), (e) => e.code === 'UNKNOWN_NODE');
  })();
  // Collected engines that were disposed do not warn; one that leaked would.
  await collect();
  assert.deepEqual(warnings, []);
}));

test('a GraphEngine constructor that throws frees the core graph it made (a bad options.tracer): no leak warning', () => withLeakWarnings(async (warnings) => {
  const def = { nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' };
  (() => {
    for (let i = 0; i < 3; i++) assert.throws(() => new GraphEngine(def, { tracer: {} }), (e) => e.code === 'INVALID_OPTIONS' && /options\.tracer/.test(e.message));
    new GraphEngine(def);   // dropped on purpose: its warning shows the garbage was collected
  })();
  await collect({ rounds: 10, enough: () => warnings.length >= 1 });
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /a GraphEngine was garbage-collected without dispose/);
}));

test('a subgraph engine the caller passed stays the caller\'s: the parent\'s dispose() leaves it usable', async () => {
  const child = new GraphEngine({ nodes: { x: () => ({ data: { x: 1 } }) }, edges: { x: '__end__' }, entryPoint: 'x' });
  const parent = new GraphEngine({ nodes: { s: { kind: 'subgraph', graph: child } }, edges: { s: '__end__' }, entryPoint: 's' });
  assert.equal((await parent.execute({})).status, 'FINISHED');
  parent.dispose();
  assert.equal((await child.execute({})).status, 'FINISHED');
  child.dispose();
});

test('a LangGraph compiled graph (its API has no dispose()) dropped after a run is collected, its engine freed without a leak warning', () => withLeakWarnings(async (warnings) => {
  const { StateGraph, MessagesAnnotation, START, END } = await import('../../dist/langgraph.js');
  const graphs = [];
  await (async () => {
    for (let i = 0; i < 3; i++) {
      const graph = new StateGraph(MessagesAnnotation).addNode('a', () => ({ messages: [{ role: 'ai', content: `m${i}` }] })).addEdge(START, 'a').addEdge('a', END).compile();
      assert.equal((await graph.invoke({ messages: [] })).messages.length, 1);
      graphs.push(new WeakRef(graph));
    }
  })();
  await collect();   // (no deref() meanwhile: it keeps its target alive until the job ends)
  assert.ok(graphs.every((r) => r.deref() === undefined), 'the graphs were collected');
  assert.deepEqual(warnings, []);
}));
