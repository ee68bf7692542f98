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

/** A MemoryStore whose put of a key `which` takes fails from the `failAt`-th such call on, until healed. */
function flakyStore(failAt, which = () => true) {
  const store = new MemoryStore();
  const put = store.put.bind(store);
  let calls = 0;
  const flaky = {
    healed: false,
    get: (k) => store.get(k), delete: (k) => store.delete(k), list: (p) => store.list(p),
    async put(k, v) {
      if (!flaky.healed && which(k) && ++calls >= failAt) throw new Error(`disk full (put #${calls})`);
      return put(k, v);
    },
  };
  return flaky;
}

test('resume({ threadId: undefined }) is INVALID_INPUT, not a new empty run', async () => {
  const engine = new GraphEngine(chain(), { checkpointer: new MemoryStore() });
  for (const threadId of [undefined, null, '', 42, 'a/b']) {
    await assert.rejects(engine.resume({ threadId }), (e) => e.code === 'INVALID_INPUT' && /resume\(\{ threadId \}\)/.test(e.message), `threadId ${threadId}`);
  }
  await assert.rejects(engine.resume({ threadId: undefined, checkpointId: 3 }), { code: 'INVALID_INPUT' });
  // A checkpoint id without its thread is the same mistake, not a saved state.
  await assert.rejects(engine.resume({ checkpointId: 3 }), (e) => e.code === 'INVALID_INPUT' && /threadId/.test(e.message));
  await assert.rejects(engine.getState(undefined), (e) => e.code === 'INVALID_INPUT' && /getState\(threadId\)/.test(e.message));
  await assert.rejects(engine.getStateHistory(''), (e) => e.code === 'INVALID_INPUT' && /getStateHistory\(threadId\)/.test(e.message));
  // As an option, a bad threadId stays INVALID_OPTIONS.
  await assert.rejects(engine.execute({}, { threadId: 7 }), (e) => e.code === 'INVALID_OPTIONS' && /threadId/.test(e.message));
  engine.dispose();
});

test('an unknown thread is THREAD_NOT_FOUND naming the thread; getState of it is undefined', async () => {
  const engine = new GraphEngine(chain(), { checkpointer: new MemoryStore() });
  await assert.rejects(engine.resume({ threadId: 'nobody-here' }), (e) => e.code === 'THREAD_NOT_FOUND' && e.message.includes("'nobody-here'"));
  assert.equal(await engine.getState('nobody-here'), undefined);
  assert.deepEqual(await engine.getStateHistory('nobody-here'), []);
  await engine.execute({}, { threadId: 'known' });
  await assert.rejects(engine.resume({ threadId: 'known', checkpointId: 999 }), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes("'known'") && e.message.includes('999'));
  engine.dispose();
});

// A record is one put (the head moves where a run stops: its put follows the 4th record, below):
// failing put #k fails record k, the last one (the FINISHED record, after every node ran) included.
for (const failAt of [1, 2, 3, 4]) {
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
    assert.equal(ran, failAt - 1, 'the run stopped at the failed write');
    store.healed = true;
    if (await engine.getState('flaky')) {
      const again = await engine.resume({ threadId: 'flaky' });
      assert.equal(again.status, 'FINISHED', again.error?.message);
      assert.deepEqual(again.state.data, { start: true, a: 1, b: 2, c: 3 });
    } else {
      // Nothing was committed: the thread has no checkpoint; the caller still holds the run's own.
      await assert.rejects(engine.resume({ threadId: 'flaky' }), { code: 'THREAD_NOT_FOUND' });
      assert.deepEqual(await engine.getStateHistory('flaky'), []);
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

test('a record is the commit: one whose head did not move is the latest checkpoint, and the thread continues from it', async () => {
  // Head puts fail: the run's records are written, and its head (moved where it stops, before c) is not.
  const effects = [];
  const store = flakyStore(1, (k) => k.endsWith('/head'));
  const engine = new GraphEngine(chain(effects), { checkpointer: store });
  const r = await engine.execute({}, { threadId: 'torn', interruptBefore: ['c'] });
  assert.equal(r.error?.code, 'CHECKPOINT_WRITE_FAILED');
  store.healed = true;
  assert.equal(await store.get('torn/head'), undefined, 'the head put failed');
  assert.deepEqual((await engine.getStateHistory('torn')).map((h) => h.checkpointId), [3, 2, 1]);
  assert.equal((await engine.getState('torn')).checkpointId, 3);
  const again = await engine.resume({ threadId: 'torn' });
  assert.equal(again.status, 'FINISHED', again.error?.message);
  assert.deepEqual(effects, ['a', 'b', 'c'], 'c ran once, after the resume');
  const history = await engine.getStateHistory('torn');
  assert.equal(history[0].status, 'FINISHED');
  assert.equal(history.at(-2).parentId, 1);
  for (const { checkpointId, parentId } of history) assert.ok(parentId === null || parentId < checkpointId, `checkpoint ${checkpointId} follows ${parentId}`);
  engine.dispose();
});

test('a record whose parent is not an earlier record is a broken chain, not an endless read', async () => {
  const store = new MemoryStore();
  const engine = new GraphEngine(chain(), { checkpointer: store });
  await engine.execute({}, { threadId: 'loop' });
  // Forge record 3 (a delta) to name itself as its parent, with a valid record checksum (over thread/id and text),
  // sealed the way record format 1 is (8 hex digits of FNV-1a), which every later edgegraph still reads.
  const text = await store.get('loop/r/0000000003');
  const record = JSON.parse(text.slice(text.indexOf('{')));
  assert.equal(record.s, undefined, 'record 3 is a delta');
  record.p = 3;
  const body = JSON.stringify(record);
  const signed = `loop/3\n${body}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < signed.length; i++) { h ^= signed.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  await store.put('loop/r/0000000003', `${(h >>> 0).toString(16).padStart(8, '0')}${body}`);
  const named = (e) => e.code === 'INVALID_CHECKPOINT' && /record 3 of thread 'loop'/.test(e.message);
  await assert.rejects(engine.getState('loop', 3), named);
  await assert.rejects(engine.resume({ threadId: 'loop', checkpointId: 3 }), named);
  engine.dispose();
});

test('a listener that throws on a checkpoint event is the caller\'s error, not a failed write', async () => {
  const engine = new GraphEngine(chain(), { checkpointer: new MemoryStore() });
  const bug = new Error('listener bug');
  await assert.rejects(engine.execute({}, { threadId: 'l', onEvent: (e) => { if (e.type === 'checkpoint') throw bug; } }), (e) => e === bug);
  // The record the event announced was written.
  assert.equal((await engine.getState('l'))?.checkpointId, 1);
  engine.dispose();
});
