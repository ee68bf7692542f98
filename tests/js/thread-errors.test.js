// Threads and their stores, when something is wrong: a missing or unknown
// thread id is an error naming it (never a new empty run), and a store that
// fails a write ends the run with its state instead of losing it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore } from '../../dist/node.js';

const chain = (effects = []) => ({
  nodes: {
    a: () => { effects.push('a'); return { data: { a: 1 } }; },
    b: () => { effects.push('b'); return { data: { b: 2 } }; },
    c: () => { effects.push('c'); return { data: { c: 3 } }; },
  },
  edges: { a: 'b', b: 'c', c: '__end__' },
  entryPoint: 'a',
});

/** A MemoryStore whose put fails from the `failAt`-th call on, until healed. */
function flakyStore(failAt) {
  const store = new MemoryStore();
  const put = store.put.bind(store);
  let calls = 0;
  const flaky = {
    healed: false,
    get: (k) => store.get(k), delete: (k) => store.delete(k), list: (p) => store.list(p),
    async put(k, v) {
      if (!flaky.healed && ++calls >= failAt) throw new Error(`disk full (put #${calls})`);
      return put(k, v);
    },
  };
  return flaky;
}

test('resume({ threadId: undefined }) is INVALID_INPUT, not a new empty run', async () => {
  const engine = new GraphEngine(chain(), { checkpointer: new MemoryStore() });
  for (const threadId of [undefined, null, '', 42]) {
    await assert.rejects(engine.resume({ threadId }), (e) => e.code === 'INVALID_INPUT' && /threadId/.test(e.message), `threadId ${threadId}`);
  }
  await assert.rejects(engine.resume({ threadId: undefined, checkpointId: 3 }), { code: 'INVALID_INPUT' });
  engine.dispose();
});

test('an unknown thread is THREAD_NOT_FOUND naming the thread; getState of it is undefined', async () => {
  const engine = new GraphEngine(chain(), { checkpointer: new MemoryStore() });
  await assert.rejects(engine.resume({ threadId: 'nobody-here' }), (e) => e.code === 'THREAD_NOT_FOUND' && e.message.includes("'nobody-here'"));
  assert.equal(await engine.getState('nobody-here'), undefined);
  await engine.execute({}, { threadId: 'known' });
  await assert.rejects(engine.resume({ threadId: 'known', checkpointId: 999 }), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes("'known'") && e.message.includes('999'));
  engine.dispose();
});

for (const failAt of [1, 3, 5]) {
  test(`a store failing its put #${failAt}: execute resolves ERROR / CHECKPOINT_WRITE_FAILED with the state, and the thread resumes once healed`, async () => {
    const effects = [];
    const store = flakyStore(failAt);
    const engine = new GraphEngine(chain(effects), { checkpointer: store });
    const events = [];
    const r = await engine.execute({ data: { start: true } }, { threadId: 'flaky', onEvent: (e) => events.push(e.type) });
    assert.equal(r.status, 'ERROR');
    assert.equal(r.error.code, 'CHECKPOINT_WRITE_FAILED');
    assert.match(r.error.message, /'flaky'/);
    assert.match(r.error.message, /disk full/);
    assert.equal(r.state.data.start, true, 'the partial state is returned');
    assert.equal(typeof r.checkpoint, 'string');
    assert.equal(events.at(-1), 'run_end');
    const ran = effects.length;
    assert.ok(ran < 3, 'the run stopped at the failed write');
    store.healed = true;
    if (await engine.getState('flaky')) {
      const again = await engine.resume({ threadId: 'flaky' });
      assert.equal(again.status, 'FINISHED', again.error?.message);
      assert.deepEqual(again.state.data, { start: true, a: 1, b: 2, c: 3 });
    } else {
      // Nothing was written: the caller still holds the run's own checkpoint.
      const again = await engine.resume(r.checkpoint);
      assert.equal(again.status, 'FINISHED', again.error?.message);
    }
    engine.dispose();
  });
}

test('a store failing during a resume and during a parallel step resolves with the state', async () => {
  const store = flakyStore(1_000_000);
  const engine = new GraphEngine({
    nodes: { ask: () => ({ pendingAskUser: { question: 'go?' } }), fan: () => ({}), l: () => ({ data: { l: 1 } }), r: () => ({ data: { r: 1 } }), done: () => ({}) },
    edges: { ask: 'fan', fan: ['l', 'r'], l: 'done', r: 'done', done: '__end__' },
    entryPoint: 'ask',
  }, { checkpointer: store });
  const paused = await engine.execute({}, { threadId: 'p' });
  assert.equal(paused.status, 'PAUSED');
  const before = (await engine.getStateHistory('p')).length;
  // Fail the write after the first task of the parallel step finished.
  let calls = 0;
  const put = store.put.bind(store);
  store.put = async (k, v) => { if (++calls > 4) throw new Error('quota exceeded'); return put(k, v); };
  const r = await engine.resume({ threadId: 'p' }, { role: 'user', content: 'yes' });
  assert.equal(r.status, 'ERROR');
  assert.equal(r.error.code, 'CHECKPOINT_WRITE_FAILED');
  assert.ok(r.state.messages.some((m) => m.content === 'yes'));
  assert.ok((await engine.getStateHistory('p')).length > before, 'the writes before the failure are readable');
  store.put = put;
  const again = await engine.resume({ threadId: 'p' });
  assert.equal(again.status, 'FINISHED', again.error?.message);
  assert.deepEqual({ l: again.state.data.l, r: again.state.data.r }, { l: 1, r: 1 });
  engine.dispose();
});
