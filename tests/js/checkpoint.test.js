// Checkpointers: threads, history, time travel, storage size, torn writes,
// and crashes (SIGKILL) between steps and mid parallel step, resumed in a
// new process from a file store.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphEngine, MemoryStore, Checkpointer, kvStore } from 'edgegraph';
import { definition as crashGraph } from './support/crash-graph.js';
import { sqliteNode } from './support/store-of.js';
import { disposeAfter } from './support/dispose.js';

const counter = () => ({
  nodes: { inc: (s) => ({ data: { n: (s.data.n ?? 0) + 1 } }), ask: () => ({ pendingAskUser: { question: 'more?' } }) },
  edges: { inc: { path: 'data.n', cases: { 3: 'ask' }, default: 'inc' }, ask: { path: 'messages.length', cases: { 0: 'inc' }, default: '__end__' } },
  entryPoint: 'inc',
});

test('a thread: a checkpoint per step, getState, history, resume by thread id in a new engine', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(counter(), { checkpointer: store }));
  const paused = await engine.execute({}, { threadId: 'chat-1' });
  assert.equal(paused.status, 'PAUSED');
  const history = await engine.getStateHistory('chat-1');
  assert.equal(history.length, 5, 'start + 3 inc + ask');
  assert.deepEqual(history.map((h) => h.status), ['PAUSED', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);
  const now = await engine.getState('chat-1');
  assert.deepEqual([now.status, now.state.data.n, now.checkpointId], ['PAUSED', 3, 5]);
  const other = disposeAfter(t, new GraphEngine(counter(), { checkpointer: store }));
  const done = await other.resume({ threadId: 'chat-1' }, { role: 'user', content: 'no' });
  assert.equal(done.status, 'FINISHED');
  assert.equal((await other.getState('chat-1')).status, 'FINISHED');
});

test('time travel: resume from an earlier checkpoint forks; the original history stays', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(counter(), { checkpointer: store }));
  await engine.execute({}, { threadId: 't' });
  const second = (await engine.getStateHistory('t')).find((h) => h.superstep === 2);
  const before = await engine.getState('t', second.checkpointId);
  assert.equal(before.state.data.n, 1);
  // Fork: from n = 1, with the state as it was then.
  const forked = await engine.resume({ threadId: 't', checkpointId: second.checkpointId });
  assert.equal(forked.status, 'PAUSED');
  assert.equal(forked.state.data.n, 3);
  const history = await engine.getStateHistory('t');
  assert.equal(history[0].parentId !== null, true);
  assert.equal((await engine.getState('t', second.checkpointId)).state.data.n, 1, 'the earlier checkpoint is unchanged');
  assert.ok(history.length > 5);
});

test('checkpoints store changes, not copies: a 100-step run of a 1 KB state stays small', async (t) => {
  const store = new MemoryStore();
  const nodes = {}, edges = {};
  for (let i = 0; i < 100; i++) { nodes[`n${i}`] = () => ({ data: { [`k${i % 5}`]: i } }); edges[`n${i}`] = i < 99 ? `n${i + 1}` : '__end__'; }
  const engine = disposeAfter(t, new GraphEngine({ nodes, edges, entryPoint: 'n0' }, { checkpointer: store, maxSteps: 100 }));
  const r = await engine.execute({ data: { blob: 'x'.repeat(1000) } }, { threadId: 'big' });
  assert.equal(r.status, 'FINISHED');
  assert.ok(store.size < 100 * 1000 / 3, `stored ${store.size} bytes`); // full copies would be > 100 KB
  assert.deepEqual((await engine.getState('big')).state, r.state);
});

test('a torn write leaves the previous checkpoint readable; a damaged chain is a clear error', async (t) => {
  // A store that "crashes" in the middle of one put: it writes half the value, then throws.
  const inner = new MemoryStore();
  let puts = 0, crashAt = Infinity;
  const flaky = {
    get: (k) => inner.get(k), delete: (k) => inner.delete(k), list: (p) => inner.list(p),
    async put(k, v) { if (++puts === crashAt) { await inner.put(k, v.slice(0, v.length >> 1)); throw new Error('power cut'); } return inner.put(k, v); },
  };
  const engine = disposeAfter(t, new GraphEngine(counter(), { checkpointer: flaky }));
  crashAt = 4; // the 4th record's write (one put a record: the head moves where a run stops)
  const failed = await engine.execute({}, { threadId: 'x' });
  assert.equal(failed.status, 'ERROR');
  assert.equal(failed.error.code, 'CHECKPOINT_WRITE_FAILED');
  const cp = new Checkpointer(flaky);
  const latest = await cp.load('x');
  assert.equal(latest.id, 3, 'the record being written when it crashed is not the latest');
  const resumed = await disposeAfter(t, new GraphEngine(counter(), { checkpointer: flaky })).resume({ threadId: 'x' });
  assert.equal(resumed.status, 'PAUSED');
  assert.equal(resumed.state.data.n, 3);
  // Head pointing at a torn record (a store that reordered writes): fall back to the one before.
  const good = (await cp.load('x')).id;
  await inner.put('x/head', '99');
  await inner.put('x/r/0000000099', 'garbage');
  assert.equal((await cp.load('x')).id, good);
  // A missing record in the middle of a chain: the thread cannot be rebuilt, and says so.
  const store = new MemoryStore();
  const e2 = disposeAfter(t, new GraphEngine(counter(), { checkpointer: store }));
  await e2.execute({}, { threadId: 'y' });
  await store.delete('y/r/0000000002');
  await assert.rejects(e2.resume({ threadId: 'y' }), (e) => e.code === 'INVALID_CHECKPOINT' && /'y'/.test(e.message));
});

test('kvStore adapts Durable Object storage (list returns a Map) and Workers KV (list returns keys)', async (t) => {
  const map = new Map();
  const doStorage = { get: async (k) => map.get(k), put: async (k, v) => { map.set(k, v); }, delete: async (k) => map.delete(k), list: async ({ prefix }) => new Map([...map].filter(([k]) => k.startsWith(prefix))) };
  const kv = new Map();
  const workersKv = { get: async (k) => kv.get(k) ?? null, put: async (k, v) => { kv.set(k, v); }, delete: async (k) => { kv.delete(k); }, list: async ({ prefix }) => ({ keys: [...kv.keys()].filter((k) => k.startsWith(prefix)).map((name) => ({ name })) }) };
  for (const store of [kvStore(doStorage), kvStore(workersKv)]) {
    const engine = disposeAfter(t, new GraphEngine(counter(), { checkpointer: store }));
    await engine.execute({}, { threadId: 'k' });
    assert.equal((await engine.getStateHistory('k')).length, 5);
    assert.equal((await engine.resume({ threadId: 'k' }, { role: 'user', content: 'x' })).status, 'FINISHED');
  }
});

// ---- crashes across processes ----

const child = new URL('./support/crash-child.js', import.meta.url).pathname;

async function reference() {
  const lines = [];
  const engine = new GraphEngine(crashGraph((l) => lines.push(l), 'none'));
  try {
    return (await engine.execute({ data: { input: 3 } })).state;
  } finally {
    engine.dispose();
  }
}

for (const [kind, mode] of [['file', 'between-steps'], ['file', 'mid-parallel'], ['file', 'mid-write'], ['file', 'before-link'], ['sqlite', 'between-steps'], ['sqlite', 'mid-parallel']]) {
  test(`a run killed ${mode.replace('-', ' ')} finishes in a new process with the same state, re-running only unfinished work (${kind === 'file' ? 'FileStore' : 'node:sqlite'})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eg-crash-'));
    const log = join(dir, 'log.txt');
    const node = kind === 'file' ? process.execPath : sqliteNode;
    const store = join(dir, kind === 'file' ? 'store' : 'threads.sqlite');
    try {
      const killed = spawnSync(node, [child, store, log, mode, kind], { encoding: 'utf8' });
      assert.equal(killed.signal, 'SIGKILL', killed.stderr);
      const before = readFileSync(log, 'utf8').trim().split('\n');
      const out = execFileSync(node, [child, store, log, 'resume', kind], { encoding: 'utf8' });
      const { status, state } = JSON.parse(out);
      assert.equal(status, 'FINISHED');
      const want = await reference();
      for (const key of ['data', 'results', 'total', 'stepCount']) assert.deepEqual(state[key], want[key], key);
      const all = readFileSync(log, 'utf8').trim().split('\n');
      const after = all.slice(before.length);
      const nodes = (lines) => lines.map((l) => l.split(' ')[0]);
      if (mode === 'between-steps') {
        assert.deepEqual(nodes(before), ['start', 'a']);
        assert.deepEqual(nodes(after).sort(), ['join', 'p1', 'p2', 'p3']);
      } else if (mode === 'mid-write' || mode === 'before-link') {
        // The record after 'a' never landed: the thread resumes from the one before it, and 'a' runs again (at least once).
        assert.deepEqual(nodes(before), ['start', 'a']);
        assert.deepEqual(nodes(after).sort(), ['a', 'join', 'p1', 'p2', 'p3']);
        return;
      } else {
        assert.deepEqual(nodes(before).slice(0, 2), ['start', 'a']);
        assert.deepEqual(nodes(before).slice(2).sort(), ['p1', 'p2']);
        assert.deepEqual(nodes(after), ['p3', 'join'], 'p1 and p2 did not run again');
      }
      // Every completed task ran once: task ids never repeat in the log.
      const ids = all.map((l) => l.split(' ')[1]);
      assert.equal(new Set(ids).size, ids.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
