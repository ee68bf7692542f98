// A store that gives back something else than what was written: garbage, a
// record of another thread, a head that points nowhere, a record from a
// newer format, a store that answers every key. Each is a typed error naming
// the thread and the record; the thread resumes from its last good record.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Checkpointer } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const steps = {
  nodes: { a: () => ({ data: { a: 1 } }), b: () => ({ data: { b: 2 } }), ask: () => ({ pendingAskUser: { question: 'go on?' } }), c: () => ({ data: { c: 3 } }) },
  edges: { a: 'b', b: 'ask', ask: 'c', c: '__end__' },
  entryPoint: 'a',
};
const key = (thread, id) => `${thread}/r/${String(id).padStart(10, '0')}`;

/** A paused thread 't' in a fresh store; its latest record id. */
async function paused(t) {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(steps, { checkpointer: store }));
  assert.equal((await engine.execute({}, { threadId: 't' })).status, 'PAUSED');
  return { store, engine, top: (await engine.getState('t')).checkpointId };
}
const named = (code, thread, id) => (e) => e.code === code && e.message.includes(`record ${id} of thread '${thread}'`);

/** The thread resumes from its last good record (before `ask`, under the bad top): it asks again, then finishes. */
async function resumesFromLastGood(engine, thread = 't') {
  const again = await engine.resume({ threadId: thread }, undefined, { recover: true });
  assert.equal(again.status, 'PAUSED', again.error?.message);
  assert.deepEqual(again.state.data, { a: 1, b: 2 });
  const r = await engine.resume({ threadId: thread });
  assert.equal(r.status, 'FINISHED', r.error?.message);
  assert.deepEqual(r.state.data, { a: 1, b: 2, c: 3 });
}

test('garbage in place of a record: INVALID_CHECKPOINT naming thread and record; the thread continues from the record before', async (t) => {
  for (const garbage of ['garbage', '{}', 'ffffffff{"p":1}', 42, { p: 1 }]) {
    const { store, engine, top } = await paused(t);
    const map = new Map([[key('t', top), garbage]]);
    const odd = { ...store, get: async (k) => (map.has(k) ? map.get(k) : store.get(k)), put: (k, v) => store.put(k, v), create: (k, v) => store.create(k, v), list: (p) => store.list(p), delete: (k) => store.delete(k) };
    const e2 = disposeAfter(t, new GraphEngine(steps, { checkpointer: odd }));
    await assert.rejects(e2.getState('t', top), named('INVALID_CHECKPOINT', 't', top), String(garbage));
    assert.equal((await e2.getState('t')).checkpointId, top - 1);
    assert.ok(!(await e2.getStateHistory('t')).some((h) => h.checkpointId === top));
    await resumesFromLastGood(e2);
    engine.dispose();
  }
});

test('a record of another thread (or another id) copied in: INVALID_CHECKPOINT, and the thread continues from its own last record', async (t) => {
  const { store, engine, top } = await paused(t);
  await engine.execute({}, { threadId: 'other' });
  await store.put(key('t', top), await store.get(key('other', top)));
  await assert.rejects(engine.getState('t', top), named('INVALID_CHECKPOINT', 't', top));
  // The same thread's record under another id is caught too.
  await store.put(key('t', top), await store.get(key('t', top - 1)));
  await assert.rejects(engine.getState('t', top), (e) => /another thread or id/.test(e.message));
  await resumesFromLastGood(engine);
});

test('a head that points nowhere: the latest is the newest record that reads, and the thread goes on after the head', async (t) => {
  const { store, engine, top } = await paused(t);
  await store.put('t/head', '99');
  assert.equal((await engine.getState('t')).checkpointId, top);
  await assert.rejects(engine.getState('t', 99), named('INVALID_CHECKPOINT', 't', 99));
  const r = await engine.resume({ threadId: 't' });
  assert.equal(r.status, 'FINISHED');
  const history = await engine.getStateHistory('t');
  assert.equal(history[0].status, 'FINISHED');
  const resumed = history.filter((h) => h.checkpointId > top);
  assert.equal(resumed.at(-1).checkpointId, 100, 'new records never reuse an id at or under the head');
  assert.equal(resumed.at(-1).parentId, top);
});

test('a record in a newer format: CHECKPOINT_VERSION naming thread and record, never a silent fallback past it', async (t) => {
  const { store, engine, top } = await paused(t);
  const text = await store.get(key('t', top));
  // Sealed as format 1 records are (FNV-1a, 8 hex digits), claiming a format this edgegraph does not know.
  const body = JSON.stringify({ ...JSON.parse(text.slice(text.indexOf('{'))), v: 99 });
  const signed = `t/${top}\n${body}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < signed.length; i++) { h ^= signed.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  await store.put(key('t', top), `${(h >>> 0).toString(16).padStart(8, '0')}${body}`);
  await assert.rejects(engine.getState('t'), named('CHECKPOINT_VERSION', 't', top));
  await assert.rejects(engine.resume({ threadId: 't' }), (e) => e.code === 'CHECKPOINT_VERSION' && /upgrade edgegraph/.test(e.message));
  // Earlier records still read.
  assert.equal((await engine.getState('t', top - 1)).checkpointId, top - 1);
});

test('a store that answers every key: a typed error naming the thread, not an endless read', async (t) => {
  const liar = { get: async () => 'garbage', put: async () => {}, create: async () => false, delete: async () => {}, list: async () => [] };
  const engine = disposeAfter(t, new GraphEngine(steps, { checkpointer: liar }));
  await assert.rejects(engine.getState('t'), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes("thread 't'"));
  await assert.rejects(engine.resume({ threadId: 't' }), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes("thread 't'"));
  assert.equal(new Checkpointer(liar).store, liar);
});

test('a thread left with a head and no records (a deleteThread cut short): execute starts it afresh above the head', async (t) => {
  const store = new MemoryStore();
  await store.put('t/head', '7');
  const engine = disposeAfter(t, new GraphEngine(steps, { checkpointer: store }));
  await assert.rejects(engine.resume({ threadId: 't' }), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes("'t'"));
  const r = await engine.execute({}, { threadId: 't' });
  assert.equal(r.status, 'PAUSED');
  const history = await engine.getStateHistory('t');
  assert.equal(history.at(-1).checkpointId, 8);
  assert.equal(history.at(-1).parentId, null);
});
