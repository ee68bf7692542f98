// Threads stay small: retention (keepLast) bounds a long thread's storage
// without ever deleting a record a kept one is built from (snapshot bases,
// fork points); getStateHistory pages cost what the page costs; deleteThread.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Checkpointer } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

/** A loop of `steps` steps over a 1 KB state. */
const looping = (steps) => ({
  nodes: { inc: (s) => ({ data: { n: s.data.n + 1 } }) },
  edges: { inc: { path: 'data.n', cases: { [steps]: '__end__' }, default: 'inc' } },
  entryPoint: 'inc',
});
const blob = 'x'.repeat(1000);

/** A MemoryStore that counts its calls. */
function counting() {
  const store = new MemoryStore();
  const calls = { get: 0, list: 0 };
  return {
    calls, store,
    get: (k) => { calls.get++; return store.get(k); }, put: (k, v) => store.put(k, v), create: (k, v) => store.create(k, v),
    delete: (k) => store.delete(k), list: (p) => { calls.list++; return store.list(p); },
  };
}

/** Every checkpoint the history lists can be read back whole. */
async function everyCheckpointReads(engine, threadId) {
  const history = await engine.getStateHistory(threadId, { values: true });
  for (const h of history) assert.deepEqual((await engine.getState(threadId, h.checkpointId)).state, h.values, `checkpoint ${h.checkpointId}`);
  return history;
}

test('a 10,000-step thread with keepLast keeps bounded storage, and its latest checkpoint and every kept one read', async (t) => {
  const kept = [];
  for (const keepLast of [undefined, 20]) {
    const store = new MemoryStore();
    const engine = disposeAfter(t, new GraphEngine(looping(10_000), { checkpointer: new Checkpointer(store, { keepLast, snapshotEvery: 50 }), maxSteps: 10_001 }));
    const r = await engine.execute({ data: { n: 0, blob } }, { threadId: 'long' });
    assert.equal(r.status, 'FINISHED', r.error?.message);
    assert.deepEqual((await engine.getState('long')).state, r.state);
    kept.push({ keys: (await store.list('')).length, bytes: store.size, engine });
  }
  const [all, bounded] = kept;
  assert.ok(all.keys > 10_000, `without retention: ${all.keys} keys`);
  // The newest 20, the records back to their snapshot (up to 50), a pruning interval (20), the head.
  assert.ok(bounded.keys <= 20 + 50 + 20 + 1, `with keepLast 20: ${bounded.keys} keys`);
  assert.ok(bounded.bytes < all.bytes / 50, `${bounded.bytes} bytes against ${all.bytes}`);
  const history = await everyCheckpointReads(bounded.engine, 'long');
  assert.ok(history.length >= 20);
});

test('retention never deletes a fork point: a fork from an early checkpoint stays readable, the abandoned branch goes', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(looping(40), { checkpointer: new Checkpointer(store, { keepLast: 4, snapshotEvery: 1000 }), maxSteps: 100 }));
  await engine.execute({ data: { n: 0 } }, { threadId: 'f' });
  const first = await engine.getStateHistory('f');
  const early = first.find((h) => h.superstep === 20);
  const forked = await engine.resume({ threadId: 'f', checkpointId: early.checkpointId });
  assert.equal(forked.status, 'FINISHED');
  const ids = (await store.list('f/r/')).map((k) => Number(k.slice(-10)));
  // Kept: the fork's newest records, the fork's chain back to the fork point, and on to the snapshot (record 1).
  for (let id = 1; id <= early.checkpointId; id++) assert.ok(ids.includes(id), `record ${id}, which the fork is built from`);
  // Gone: the first run's records after the fork point, which no kept record needs.
  const abandoned = first.filter((h) => h.checkpointId > early.checkpointId).map((h) => h.checkpointId);
  assert.ok(abandoned.length > 10);
  for (const id of abandoned) assert.ok(!ids.includes(id), `record ${id} of the abandoned branch`);
  const history = await everyCheckpointReads(engine, 'f');
  assert.equal(history[0].values.data.n, 40);
});

test('getStateHistory pages newest first with limit and before; a page reads its own records, not the thread', async (t) => {
  const c = counting();
  const engine = disposeAfter(t, new GraphEngine(looping(300), { checkpointer: new Checkpointer(c, { snapshotEvery: 25 }), maxSteps: 400 }));
  await engine.execute({ data: { n: 0 } }, { threadId: 'h' });
  const all = await engine.getStateHistory('h');
  const pages = [];
  for (let before; ;) {
    const page = await engine.getStateHistory('h', { limit: 40, before });
    if (!page.length) break;
    pages.push(...page);
    before = page.at(-1).checkpointId;
  }
  assert.deepEqual(pages, all);
  c.calls.get = c.calls.list = 0;
  const page = await engine.getStateHistory('h', { limit: 10, before: 150 });
  assert.deepEqual(page.map((h) => h.checkpointId), [149, 148, 147, 146, 145, 144, 143, 142, 141, 140]);
  assert.ok(c.calls.get <= 10 + 3 && c.calls.list === 0, `${c.calls.get} gets, ${c.calls.list} lists for a page of 10`);
  c.calls.get = 0;
  const withValues = await engine.getStateHistory('h', { limit: 10, values: true });
  assert.ok(c.calls.get <= 10 + 3 + 25, `${c.calls.get} gets for a page of 10 with values`);
  for (const h of withValues) assert.deepEqual((await engine.getState('h', h.checkpointId)).state, h.values);
});

test('deleteThread removes a thread and nothing else; the id starts afresh', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(looping(5), { checkpointer: store }));
  await engine.execute({ data: { n: 0 } }, { threadId: 'gone' });
  await engine.execute({ data: { n: 0 } }, { threadId: 'kept' });
  const keptKeys = await store.list('kept/');
  await engine.deleteThread('gone');
  assert.deepEqual(await store.list('gone/'), []);
  assert.deepEqual(await store.list('kept/'), keptKeys);
  assert.equal(await engine.getState('gone'), undefined);
  await assert.rejects(engine.resume({ threadId: 'gone' }), { code: 'THREAD_NOT_FOUND' });
  const again = await engine.execute({ data: { n: 2 } }, { threadId: 'gone' });
  assert.equal(again.state.data.n, 5);
  await assert.rejects(engine.deleteThread('a/b'), { code: 'INVALID_INPUT' });
});

test('keepFor keeps the checkpoints younger than a duration (a clock the test moves a minute per step), and what they are built from', async (t) => {
  let clock = Date.now();
  t.mock.method(Date, 'now', () => clock);
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { inc: (s) => { clock += 60_000; return { data: { n: s.data.n + 1 } }; } },
    edges: { inc: { path: 'data.n', cases: { 200: '__end__' }, default: 'inc' } },
    entryPoint: 'inc',
  }, { checkpointer: new Checkpointer(store, { keepFor: 10 * 60_000, snapshotEvery: 20 }), maxSteps: 300 }));
  await engine.execute({ data: { n: 0 } }, { threadId: 'timed' });
  const history = await everyCheckpointReads(engine, 'timed');
  // The last ten minutes: every checkpoint of them is there.
  const young = history.filter((h) => h.createdAt >= clock - 10 * 60_000);
  assert.ok(young.length >= 10, `${young.length} checkpoints of the last 10 minutes`);
  const ids = history.map((h) => h.checkpointId);
  for (let id = young.at(-1).checkpointId; id <= young[0].checkpointId; id++) assert.ok(ids.includes(id), `checkpoint ${id}`);
  // And not much else: the young ones, the records back to their snapshot, a pruning interval, the head.
  assert.ok((await store.list('timed/')).length <= young.length + 20 + 16 + 1, `${(await store.list('timed/')).length} keys`);
  assert.equal(history[0].values.data.n, 200);
});
