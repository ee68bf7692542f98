// A store with createNow (synchronous: the write is done when it returns, as
// MemoryStore's) gets a run's records through it, each before the next step's
// nodes run, with the same guarantees as create: a taken id is THREAD_BUSY, a
// throw is CHECKPOINT_WRITE_FAILED with the thread's last record readable.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, Checkpointer, MemoryStore, EdgegraphError } from '../../dist/node.js';
import { disposeAfter } from './support/dispose.js';

/** A store over a Map whose createNow can be made to fail; `calls` counts create and createNow. */
function syncStore({ failAt = Infinity, takenAt = Infinity } = {}) {
  const map = new Map();
  const calls = { create: 0, createNow: 0 };
  return {
    map, calls,
    async get(k) { return map.get(k); },
    async put(k, v) { map.set(k, v); },
    async delete(k) { map.delete(k); },
    async list(prefix = '') { return [...map.keys()].filter((k) => k.startsWith(prefix)).sort(); },
    async create(k, v) { calls.create++; if (map.has(k)) return false; map.set(k, v); return true; },
    createNow(k, v) {
      calls.createNow++;
      if (calls.createNow === failAt) throw new Error('disk full');
      if (calls.createNow === takenAt) map.set(k, 'another run');
      if (map.has(k)) return false;
      map.set(k, v);
      return true;
    },
  };
}

/** a -> b -> c, each node noting how many records the store held when it ran. */
function chain(t, store, seen) {
  const node = (name) => () => { seen.push([name, [...store.map.keys()].filter((k) => k.includes('/r/')).length]); return { data: { [name]: true } }; };
  return disposeAfter(t, new GraphEngine({ nodes: { a: node('a'), b: node('b'), c: node('c') }, edges: { a: 'b', b: 'c', c: '__end__' }, entryPoint: 'a' }, { checkpointer: new Checkpointer(store) }));
}

test('a store with createNow: every record goes through it, each in the store before the next step runs, and the thread reads back', async (t) => {
  const store = syncStore(), seen = [];
  const engine = chain(t, store, seen);
  const result = await engine.execute({ data: {} }, { threadId: 't' });
  assert.equal(result.status, 'FINISHED');
  // Records 1..3 were written before a, b and c ran; the 4th is where the run finished.
  assert.deepEqual(seen, [['a', 1], ['b', 2], ['c', 3]]);
  assert.deepEqual(store.calls, { create: 0, createNow: 4 });
  const state = await engine.getState('t');
  assert.deepEqual(state.state.data, { a: true, b: true, c: true });
  assert.equal(state.checkpointId, 4);
});

test('createNow answering false (another run took the id) is THREAD_BUSY and the run stops before the next step', async (t) => {
  const store = syncStore({ takenAt: 2 }), seen = [];
  const result = await chain(t, store, seen).execute({ data: {} }, { threadId: 't' });
  assert.equal(result.status, 'ERROR');
  assert.equal(result.error.code, 'THREAD_BUSY');
  assert.match(result.error.message, /thread 't' is busy: another run wrote its record 2 first/);
  assert.deepEqual(seen, [['a', 1]]);
});

test('createNow throwing is CHECKPOINT_WRITE_FAILED naming the thread, and the last written record stays the readable latest', async (t) => {
  const store = syncStore({ failAt: 3 }), seen = [];
  const engine = chain(t, store, seen);
  const result = await engine.execute({ data: {} }, { threadId: 'w' });
  assert.equal(result.status, 'ERROR');
  assert.ok(result.error instanceof EdgegraphError);
  assert.equal(result.error.code, 'CHECKPOINT_WRITE_FAILED');
  assert.match(result.error.message, /thread 'w': disk full/);
  assert.deepEqual(seen, [['a', 1], ['b', 2]]);
  const latest = await engine.getState('w');
  assert.equal(latest.checkpointId, 2);
  assert.deepEqual(latest.state.data, { a: true });
});

test('MemoryStore.createNow writes only an absent key, as its create', async () => {
  const store = new MemoryStore();
  assert.equal(store.createNow('k', 'one'), true);
  assert.equal(store.createNow('k', 'two'), false);
  assert.equal(await store.create('k', 'three'), false);
  assert.equal(await store.get('k'), 'one');
});
