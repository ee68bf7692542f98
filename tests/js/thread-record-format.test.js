// Record formats: a thread stored by an earlier edgegraph (record format 1,
// support/thread-records-format-1.json: a snapshot, a delta, a snapshot and a
// delta, paused at a human node) still reads and resumes, and the records this
// version adds on top of it (format 2) rebuild to the same checkpoints.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GraphEngine, MemoryStore, Checkpointer } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const stored = JSON.parse(readFileSync(new URL('./support/thread-records-format-1.json', import.meta.url), 'utf8'));

// The definition the stored thread was written with (its graph hash is in every record).
const definition = () => ({
  nodes: { a: () => ({ data: { a: 1 }, messages: [{ role: 'assistant', content: 'é ✓ "q"' }] }), b: () => ({ data: { b: [1, 2] } }), ask: () => ({ pendingAskUser: { question: 'go on?' } }), c: (s) => ({ data: { c: s.data.a + 1 } }) },
  edges: { a: 'b', b: 'ask', ask: 'c', c: '__end__' },
  entryPoint: 'a',
});

async function oldThread() {
  const store = new MemoryStore();
  for (const [key, value] of Object.entries(stored)) await store.put(key, value);
  return store;
}

test('a thread stored in record format 1 reads, resumes, and goes on in format 2 on the same chain', async () => {
  const store = await oldThread();
  assert.ok(Object.values(stored).every((v) => /^[0-9a-f]{8}\{/.test(v) || /^\d+$/.test(v)), 'the fixture is format 1 (8 hex digits, then the record)');
  const engine = new GraphEngine(definition(), { checkpointer: new Checkpointer(store, { snapshotEvery: 2 }) });
  const paused = await engine.getState('old');
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(paused.state.data, { a: 1, b: [1, 2] });
  assert.equal(paused.state.messages[1].content, 'é ✓ "q"');
  const done = await engine.resume({ threadId: 'old' }, { role: 'user', content: 'yes' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.data, { a: 1, b: [1, 2], c: 2 });
  // The new records are format 2 (16 hex digits), parented on the old ones.
  const added = (await store.list('old/r/')).filter((k) => !(k in stored));
  assert.ok(added.length >= 2);
  const texts = await Promise.all(added.map((key) => store.get(key)));
  for (const text of texts) assert.match(text, /^[0-9a-f]{16}\{"v":2,/);
  // Their checkpoints are version 3 (a record whose version is its parent's leaves it out); the old
  // ones' are version 2 (their state checksum hashes strings with FNV-1a): both restore below.
  assert.ok(texts.some((t) => t.includes('"version":3,')) && !texts.some((t) => t.includes('"version":2,')));
  assert.ok(Object.values(stored).some((v) => v.includes('"version":2,')));
  const history = await engine.getStateHistory('old', { values: true });
  assert.equal(history[0].status, 'FINISHED');
  assert.deepEqual(history[0].values.data, { a: 1, b: [1, 2], c: 2 });
  assert.equal(history.at(-1).checkpointId, 1);
  // Every entry, old and new, rebuilds to a checkpoint the engine restores (its checksum holds).
  for (const { checkpointId } of history) assert.equal((await engine.getState('old', checkpointId)).checkpointId, checkpointId);
  const again = new GraphEngine(definition(), { checkpointer: new Checkpointer(store, { snapshotEvery: 2 }) });
  for (const { checkpointId, status } of history.filter((h) => h.status !== 'FINISHED')) {
    const r = await again.resume({ threadId: 'old', checkpointId }, { role: 'user', content: 'yes' });
    assert.ok(['FINISHED', 'PAUSED'].includes(r.status), `checkpoint ${checkpointId} (${status}) resumes`);
  }
  engine.dispose();
  again.dispose();
});

test('a format 2 record with one character changed anywhere is INVALID_CHECKPOINT naming it, and the thread falls back to the record before', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(definition(), { checkpointer: store }));
  await engine.execute({}, { threadId: 't' });
  const keys = await store.list('t/r/');
  const top = keys.at(-1), text = await store.get(top);
  const id = Number(top.slice(-10));
  for (const at of [0, 15, 16, 40, text.length >> 1, text.length - 2]) {
    const c = text[at] === '0' ? '1' : text[at] === '"' ? "'" : '0';
    await store.put(top, text.slice(0, at) + c + text.slice(at + 1));
    await assert.rejects(engine.getState('t', id), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes(`record ${id} of thread 't'`), `a change at ${at}`);
    assert.equal((await engine.getState('t')).checkpointId, id - 1);
  }
  // Moved under another id, a whole record does not read either.
  await store.put(top, text);
  await store.put(keys[0], text);
  await assert.rejects(engine.getState('t', 1), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes("record 1 of thread 't'"));
  engine.dispose();
});

test('every record of a thread through a join (held in some checkpoints, not in others) rebuilds to a checkpoint that restores', async (t) => {
  const store = new MemoryStore();
  const definition = {
    nodes: { a: () => ({}), b: () => ({}), c: () => ({}), e: () => ({}), f: () => ({}), d: { handler: () => ({}), join: ['b', 'f'] }, z: () => ({}) },
    edges: { a: ['b', 'c'], b: 'd', c: 'e', e: 'f', f: 'd', d: 'z', z: '__end__' },
    entryPoint: 'a',
  };
  const engine = disposeAfter(t, new GraphEngine(definition, { checkpointer: store }));
  assert.equal((await engine.execute({}, { threadId: 't' })).status, 'FINISHED');
  const history = await engine.getStateHistory('t');
  let held = 0;
  for (const { checkpointId, status } of history) {
    const { checkpoint } = await new Checkpointer(store).load('t', checkpointId);
    if (JSON.parse(checkpoint).held) held++;
    // Each restores: its checksum covers the fields it has, and none it lost.
    if (status !== 'FINISHED') assert.equal((await engine.resume({ threadId: 't', checkpointId })).status, 'FINISHED');
  }
  assert.ok(held > 0 && held < history.length, 'some checkpoints hold the join and later ones do not');
  engine.dispose();
});

test('updateState on a thread whose next record is due to be a snapshot writes one, from the core\'s text', async (t) => {
  for (const snapshotEvery of [1, 2, 3]) {
    const store = new MemoryStore();
    const engine = disposeAfter(t, new GraphEngine(definition(), { checkpointer: new Checkpointer(store, { snapshotEvery }) }));
    assert.equal((await engine.execute({}, { threadId: 't' })).status, 'PAUSED');
    const { checkpointId } = await engine.updateState({ threadId: 't' }, { data: { note: 'edited' } });
    const text = await store.get(`t/r/${String(checkpointId).padStart(10, '0')}`);
    const record = JSON.parse(text.slice(16));
    assert.equal(record.s !== undefined, record.d === 0, `snapshotEvery ${snapshotEvery}: a snapshot exactly when its depth is 0`);
    assert.equal((await engine.getState('t')).state.data.note, 'edited');
    const done = await engine.resume({ threadId: 't' }, { role: 'user', content: 'yes' });
    assert.equal(done.status, 'FINISHED');
    assert.equal(done.state.data.note, 'edited');
    engine.dispose();
  }
});

test('a snapshot larger than the checksum reads at once (64 KB), with characters of 1 to 4 UTF-8 bytes across its chunks, reads back whole; a change deep inside is caught', async (t) => {
  const store = new MemoryStore();
  const text = 'a€é😀'.repeat(20_000) + 'x';   // ~200 KB of UTF-8: chunk ends fall inside characters
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({ data: { more: '😀é' } }), ask: () => ({ pendingAskUser: { question: 'ok?' } }) }, edges: { a: 'ask', ask: '__end__' }, entryPoint: 'a' }, { checkpointer: new Checkpointer(store, { snapshotEvery: 1 }) }));
  assert.equal((await engine.execute({ data: { text } }, { threadId: 'big' })).status, 'PAUSED');
  const keys = await store.list('big/r/');
  const top = keys[0], stored = await store.get(top);
  assert.ok(stored.length > 100_000 && stored.includes('"s":'), 'the first record is a large snapshot');
  const latest = await engine.getState('big');
  assert.equal(latest.state.data.text, text);
  assert.equal(latest.state.data.more, '😀é');
  // One character replaced by another of the same UTF-8 length (3 bytes), far from either end.
  const at = stored.indexOf('€', stored.length >> 1);
  await store.put(top, `${stored.slice(0, at)}₤${stored.slice(at + 1)}`);
  await assert.rejects(engine.getState('big'), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes("record 1 of thread 'big'"));
  await store.put(top, stored);
  assert.equal((await engine.resume({ threadId: 'big' })).state.data.text, text);
  engine.dispose();
});

test('snapshots: every snapshotEvery records for a small state; a large state with small steps waits until its records hold a quarter of it (at most 10 x snapshotEvery)', async (t) => {
  const count = async (data, steps, snapshotEvery) => {
    const store = new MemoryStore();
    const engine = disposeAfter(t, new GraphEngine({
      nodes: { inc: (s) => ({ data: { n: s.data.n + 1 } }) },
      edges: { inc: { path: 'data.n', cases: { [steps]: '__end__' }, default: 'inc' } },
      entryPoint: 'inc',
    }, { checkpointer: new Checkpointer(store, { snapshotEvery }), maxSteps: steps + 1 }));
    assert.equal((await engine.execute({ data: { ...data, n: 0 } }, { threadId: 't' })).status, 'FINISHED');
    const snapshots = [];
    for (const key of await store.list('t/r/')) if (JSON.parse((await store.get(key)).slice(16)).s !== undefined) snapshots.push(Number(key.slice(-10)));
    // The latest rebuilds from its chain and restores (its checksum holds).
    assert.equal((await engine.getState('t')).state.data.n, steps);
    engine.dispose();
    return snapshots;
  };
  assert.deepEqual(await count({}, 45, 10), [1, 11, 21, 31, 41]);
  // ~100 KB of state, ~200-byte records: a quarter of it takes ~125 records, past 10 x 5.
  assert.deepEqual(await count({ text: 'x'.repeat(100_000) }, 120, 5), [1, 51, 101]);
  // ~4 KB: a quarter in ~5 records, so snapshotEvery rules.
  assert.deepEqual(await count({ text: 'x'.repeat(4_000) }, 45, 10), [1, 11, 21, 31, 41]);
});

test('a record written after a redeploy (another graph hash, no migration) keeps every checkpoint field: a third deploy resumes it', async (t) => {
  const store = new MemoryStore();
  const ask = () => ({ pendingAskUser: { question: 'go on?' } });
  const v1 = { nodes: { a: () => ({ data: { a: 1 } }), ask }, edges: { a: 'ask', ask: '__end__' }, entryPoint: 'a' };
  await disposeAfter(t, new GraphEngine(v1, { checkpointer: store })).execute({}, { threadId: 't' });
  // v2 adds a second question after the first: its graph hash differs from the stored records'.
  const v2 = { nodes: { a: () => ({ data: { a: 1 } }), ask, again: ask, b: () => ({ data: { b: 2 } }) }, edges: { a: 'ask', ask: 'again', again: 'b', b: '__end__' }, entryPoint: 'a' };
  const second = await disposeAfter(t, new GraphEngine(v2, { checkpointer: store })).resume({ threadId: 't' });
  assert.equal(second.status, 'PAUSED');
  const records = [];
  for (const key of await store.list('t/r/')) records.push(JSON.parse((await store.get(key)).slice(16)));
  const first = records.findIndex((r) => r.m.graph === JSON.parse(second.checkpoint).graph);
  assert.ok(first > 0 && records[first].s === undefined, 'the first record after the redeploy is a delta naming the new graph (all its fields: those before "status" changed)');
  assert.equal(records.at(-1).m.graph, undefined, 'the next one keeps the fields from "status" on');
  const done = await disposeAfter(t, new GraphEngine(v2, { checkpointer: store })).resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.data, { a: 1, b: 2 });
});

test('records the core seals read back whatever their text: U+FFFD in the state, a long non-ASCII error message the core cut', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { b: () => ({ data: { s: 'x\uFFFDy é' } }), a: () => { throw new Error(`${'é'.repeat(3000)} ✓`); } },
    edges: { b: 'a', a: '__end__' },
    entryPoint: 'b',
  }, { checkpointer: store }));
  const r = await engine.execute({}, { threadId: 'u' });
  assert.equal(r.status, 'ERROR');
  const keys = await store.list('u/r/');
  assert.equal(keys.length, 3);
  assert.ok((await store.get(keys[1])).includes('\uFFFD'), 'a record holds U+FFFD');
  // Every record reads (its checksum holds) and rebuilds to a checkpoint that restores.
  const history = await engine.getStateHistory('u', { values: true });
  assert.deepEqual(history.map((h) => h.checkpointId), [3, 2, 1]);
  assert.equal(history[0].values.data.s, 'x\uFFFDy é');
  for (const { checkpointId } of history) assert.equal((await engine.getState('u', checkpointId)).checkpointId, checkpointId);
  const latest = await engine.getState('u');
  assert.equal(latest.status, 'ERROR');
  engine.dispose();
});
