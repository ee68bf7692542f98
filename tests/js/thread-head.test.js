// A thread's head (<thread>/head, a hint of its latest record) moves where a
// run stops and every 16 records in between, not at every record: a step is
// one store write. The latest record is still found when a run dies between
// two head moves, and the thread continues from it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore } from '../../dist/node.js';

/** inc until data.n reaches `to`; each step one record. */
const counter = (to) => ({
  nodes: { inc: (s) => ({ data: { n: (s.data.n ?? 0) + 1 } }) },
  edges: { inc: { path: 'data.n', cases: { [to]: '__end__' }, default: 'inc' } },
  entryPoint: 'inc',
});

/** A MemoryStore that logs the values put under each thread's head. */
function headLog() {
  const store = new MemoryStore();
  const put = store.put.bind(store);
  store.heads = [];
  store.put = async (k, v) => { if (k.endsWith('/head')) store.heads.push(Number(v)); return put(k, v); };
  return store;
}

test('a 40-step run moves its head at records 16 and 32 and where it stops, and writes every record', async () => {
  const store = headLog();
  const engine = new GraphEngine(counter(40), { checkpointer: store, maxSteps: 100 });
  const r = await engine.execute({}, { threadId: 't' });
  assert.equal(r.status, 'FINISHED');
  const ids = (await store.list('t/r/')).map((k) => Number(k.slice(-10)));
  assert.equal(ids.length, 41);
  assert.deepEqual(store.heads, [16, 32, 41]);
  assert.equal((await engine.getState('t')).checkpointId, 41);
  engine.dispose();
});

test('a run that dies between head moves: the latest record is found above the head, and the thread continues from it', async () => {
  const store = headLog();
  const engine = new GraphEngine(counter(40), { checkpointer: store, maxSteps: 100 });
  // The run's listener throws at its 20th record: the run ends there, mid-run, as a crash would leave it.
  const onEvent = (e) => { if (e.type === 'checkpoint' && e.checkpointId === 20) throw new Error('process killed'); };
  await assert.rejects(engine.execute({}, { threadId: 'd', onEvent }), /process killed/);
  assert.deepEqual(store.heads, [16]);
  const latest = await engine.getState('d');
  assert.equal(latest.checkpointId, 20);
  assert.equal(latest.state.data.n, 19);
  assert.deepEqual((await engine.getStateHistory('d', { limit: 5 })).map((h) => h.checkpointId), [20, 19, 18, 17, 16]);
  const again = await engine.resume({ threadId: 'd' });
  assert.equal(again.status, 'FINISHED', again.error?.message);
  assert.equal(again.state.data.n, 40);
  const done = await engine.getState('d');
  assert.deepEqual([done.checkpointId, done.parentId, done.status], [42, 41, 'FINISHED']);
  assert.ok(store.heads.at(-1) === 42, 'the resumed run moved the head where it stopped');
  engine.dispose();
});
