// The thread's head lags behind its records (it moves where a run stops and
// every 16 records): on every key-value store, not only MemoryStore, a run
// that dies between two head moves leaves a thread whose latest record a
// second process finds, lists, resumes without repeating a step, keeps to
// keepLast, and deletes whole. Each store is opened again over the same
// data (a second process's view): nothing is carried in the store object.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphEngine, Checkpointer, FileStore, LocalStorageStore, kvStore } from '../../dist/node.js';

/** A Storage (window.localStorage's interface) over a Map. */
class MapStorage {
  #map = new Map();
  get length() { return this.#map.size; }
  key(i) { return [...this.#map.keys()][i] ?? null; }
  getItem(k) { return this.#map.has(k) ? this.#map.get(k) : null; }
  setItem(k, v) { this.#map.set(k, String(v)); }
  removeItem(k) { this.#map.delete(k); }
}

/** Durable Object storage's shape (get/put/delete/list as a Map, transaction) over a Map. */
function durableObjectStorage(map) {
  const txn = { get: async (k) => map.get(k), put: async (k, v) => { map.set(k, v); } };
  return {
    ...txn,
    delete: async (k) => map.delete(k),
    list: async ({ prefix }) => new Map([...map].filter(([k]) => k.startsWith(prefix))),
    transaction: (fn) => fn(txn),
  };
}

/** Each store as a function opening it again over the same data. */
function stores() {
  const dir = mkdtempSync(join(tmpdir(), 'eg-head-'));
  const storage = new MapStorage();
  const map = new Map();
  return [
    { name: 'FileStore', open: () => new FileStore(dir), done: () => rmSync(dir, { recursive: true, force: true }) },
    { name: 'LocalStorageStore', open: () => new LocalStorageStore(storage, 'app:', null), done: () => {} },
    { name: 'kvStore (Durable Object storage)', open: () => kvStore(durableObjectStorage(map)), done: () => {} },
  ];
}

/** inc until data.n reaches 40, each call logged in `effects`; each step one record. */
const counter = (effects) => ({
  nodes: { inc: (s) => { const n = (s.data.n ?? 0) + 1; effects.push(n); return { data: { n } }; } },
  edges: { inc: { path: 'data.n', cases: { 40: '__end__' }, default: 'inc' } },
  entryPoint: 'inc',
});

for (const { name, open, done } of stores()) {
  test(`${name}: a run dead between head moves; a second process finds its latest record, resumes it without repeating a step, keeps keepLast, and deletes the thread`, async () => {
    const effects = [];
    const engineOf = () => new GraphEngine(counter(effects), { checkpointer: new Checkpointer(open(), { keepLast: 5 }), maxSteps: 100 });
    const first = engineOf();
    // The listener throws at record 21: the run ends there, its head at 16 (where it last moved), as a crash leaves it.
    const onEvent = (e) => { if (e.type === 'checkpoint' && e.checkpointId === 21) throw new Error('process killed'); };
    await assert.rejects(first.execute({}, { threadId: 't', onEvent }), /process killed/);
    first.dispose();
    assert.deepEqual(effects, Array.from({ length: 20 }, (_, i) => i + 1));

    const second = engineOf();
    const latest = await second.getState('t');
    assert.deepEqual([latest.checkpointId, latest.state.data.n], [21, 20]);
    assert.deepEqual((await second.getStateHistory('t', { limit: 3, values: true })).map((h) => [h.checkpointId, h.values.data.n]), [[21, 20], [20, 19], [19, 18]]);
    // Its latest record was taken mid-run: to another process, a run in flight until told it died.
    await assert.rejects(second.resume({ threadId: 't' }), (e) => e.code === 'THREAD_BUSY' && e.message.includes("'t'"));
    assert.equal(effects.length, 20, 'nothing ran');
    let last;
    const r = await second.resume({ threadId: 't' }, undefined, { recover: true, onEvent: (e) => { if (e.type === 'checkpoint') last = e.checkpointId; } });
    assert.equal(r.status, 'FINISHED', r.error?.message);
    second.dispose();
    // Every step ran once: none repeated by the resume, none skipped.
    assert.deepEqual(effects, Array.from({ length: 40 }, (_, i) => i + 1));

    const third = engineOf();
    const done_ = await third.getState('t');
    assert.deepEqual([done_.checkpointId, done_.status, done_.state.data.n], [last, 'FINISHED', 40]);
    // keepLast: the newest five read, with their states.
    assert.deepEqual((await third.getStateHistory('t', { limit: 5, values: true })).map((h) => h.values.data.n), [40, 39, 38, 37, 36]);
    await third.deleteThread('t');
    assert.equal(await third.getState('t'), undefined);
    assert.deepEqual(await open().list('t/'), []);
    third.dispose();
    done();
  });
}
