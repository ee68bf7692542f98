// One lifetime for every object that owns WebAssembly memory: dispose() in
// the middle of a run lets the run finish (its memory is freed when it ends),
// and every call after dispose() is a DISPOSED error naming the object, for
// GraphEngine, ChatHistoryManager and StateManager alike. The instance stays usable.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, ChatHistoryManager, StateManager, MemoryStore } from '../../dist/node.js';

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
