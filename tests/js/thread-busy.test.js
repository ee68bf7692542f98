// Exactly one resume of a thread wins: concurrent resumes of one paused
// thread (in one process, and in two processes on one folder) run its next
// node once; every other one is THREAD_BUSY, naming the thread, before any
// node ran, and the thread stays as the winner left it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphEngine, MemoryStore, FileStore, Checkpointer, kvStore } from 'edgegraph';
import { busyGraph } from './support/busy-graph.js';
import { sqliteNode } from './support/store-of.js';
import { disposeAfter } from './support/dispose.js';

/** A promise with its resolve function, to hold a node until the test lets it go. */
function held() {
  let release;
  const promise = new Promise((r) => { release = r; });
  return { promise, release };
}

const stores = {
  MemoryStore: () => ({ store: new MemoryStore(), done() {} }),
  FileStore: () => {
    const dir = mkdtempSync(join(tmpdir(), 'eg-busy-'));
    return { store: new FileStore(dir), done: () => rmSync(dir, { recursive: true, force: true }) };
  },
};

for (const [name, make] of Object.entries(stores)) {
  test(`20 concurrent resumes of one paused thread (${name}): the side effect runs once, 19 are THREAD_BUSY`, async (t) => {
    const { store, done } = make();
    try {
      let sent = 0;
      const hold = held();
      const engine = disposeAfter(t, new GraphEngine(busyGraph(async () => { sent++; await hold.promise; }), { checkpointer: store }));
      assert.equal((await engine.execute({}, { threadId: 'mail' })).status, 'PAUSED');
      const before = await engine.getStateHistory('mail');
      // Each resume on its own engine, as 20 requests would; all started at once.
      const runs = Array.from({ length: 20 }, () => disposeAfter(t, new GraphEngine(busyGraph(async () => { sent++; await hold.promise; }), { checkpointer: store })).resume({ threadId: 'mail' }, { role: 'user', content: 'yes' }));
      const losers = runs.map((p) => p.then(() => 'won', (e) => e));
      // The winner is held inside its node until every loser has answered.
      const answers = await settledExceptOne(losers);
      hold.release();
      const results = await Promise.allSettled(runs);
      assert.equal(sent, 1, 'the node with the side effect ran once');
      const won = results.filter((r) => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      assert.equal(won[0].value.status, 'FINISHED');
      for (const e of answers) assert.ok(e.code === 'THREAD_BUSY' && e.message.includes("'mail'"), `${e.code}: ${e.message}`);
      assert.equal(answers.length, 19);
      // Nothing lost: the winner's records follow the paused checkpoint, one chain.
      const after = await engine.getStateHistory('mail');
      assert.equal(after[0].status, 'FINISHED');
      assert.deepEqual(after.slice(-before.length), before);
      assert.equal(after.at(-before.length - 1).parentId, before[0].checkpointId);
    } finally {
      done();
    }
  });
}

/** The first 19 of 20 promises to settle (the 20th, the winner, is held). */
function settledExceptOne(promises) {
  return new Promise((resolve) => {
    const out = [];
    for (const p of promises) p.then((v) => { if (v !== 'won') out.push(v); if (out.length === promises.length - 1) resolve(out); });
  });
}

// (A timeout: a child that never answers, seen once, would otherwise hold the suite forever.)
for (const kind of ['file', 'sqlite']) test(`two processes resume one paused thread of one ${kind === 'file' ? 'FileStore folder' : 'SQLite file (node:sqlite)'} at once: one runs the node, the other is THREAD_BUSY`, { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eg-busy2-'));
  const effects = join(dir, 'effects.txt');
  writeFileSync(effects, '');
  let kids = [];
  try {
    const store = join(dir, kind === 'file' ? 'store' : 'threads.sqlite');
    const child = new URL('./support/busy-child.js', import.meta.url).pathname;
    const node = kind === 'file' ? process.execPath : sqliteNode;
    assert.equal(JSON.parse(execFileSync(node, [child, store, '-', kind, 'start'], { encoding: 'utf8' })).status, 'PAUSED');
    kids = [0, 1].map(() => {
      const proc = spawn(node, [child, store, effects, kind], { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines = [];
      const waiters = [];
      createInterface({ input: proc.stdout }).on('line', (l) => { lines.push(l); for (const w of waiters.splice(0)) w(); });
      const until = (pred) => new Promise((resolve) => { const check = () => (pred(lines) ? resolve(lines) : waiters.push(check)); check(); });
      return { proc, until, exited: new Promise((r) => proc.on('exit', r)) };
    });
    await Promise.all(kids.map((k) => k.until((l) => l.includes('ready'))));
    for (const k of kids) k.proc.stdin.write('go\n');
    // One child reaches the node and is held there; the other answers.
    const outcome = (l) => l.find((x) => x.startsWith('{'));
    const [first, lines] = await Promise.race(kids.map((k, i) => k.until((l) => l.includes('in-node') || outcome(l)).then((l) => [i, l])));
    const [winner, loser] = lines.includes('in-node') ? [kids[first], kids[1 - first]] : [kids[1 - first], kids[first]];
    const lost = JSON.parse(outcome(await loser.until(outcome)));
    assert.equal(lost.code, 'THREAD_BUSY', lost.message);
    assert.match(lost.message, /'mail'/);
    await winner.until((l) => l.includes('in-node'));
    winner.proc.stdin.write('release\n');
    const won = JSON.parse(outcome(await winner.until(outcome)));
    assert.equal(won.status, 'FINISHED');
    await Promise.all(kids.map((k) => { k.proc.stdin.end(); return k.exited; }));
    assert.equal(readFileSync(effects, 'utf8').trim().split('\n').length, 1, 'the side effect ran in one process');
    if (kind === 'file') assert.equal((await new Checkpointer(new FileStore(store)).load('mail')).status, 'FINISHED');
  } finally {
    for (const k of kids) k.proc.kill();   // (a no-op for those that exited; one still waiting, after a timeout, goes too)
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a store that cannot make runs exclusive (Workers KV, a store without create) works, and warns once that resumes are not exclusive', async (t) => {
  const warnings = [];
  t.mock.method(console, 'warn', (m) => warnings.push(m));
  const kv = new Map();
  const workersKv = {
    get: async (k) => kv.get(k) ?? null, getWithMetadata: async (k) => ({ value: kv.get(k) ?? null, metadata: null }),
    put: async (k, v) => { kv.set(k, v); }, delete: async (k) => { kv.delete(k); },
    list: async ({ prefix }) => ({ keys: [...kv.keys()].filter((k) => k.startsWith(prefix)).map((name) => ({ name })) }),
  };
  const plain = new MemoryStore();
  const noCreate = { get: (k) => plain.get(k), put: (k, v) => plain.put(k, v), delete: (k) => plain.delete(k), list: (p) => plain.list(p) };
  for (const store of [kvStore(workersKv), noCreate]) {
    const engine = disposeAfter(t, new GraphEngine(busyGraph(() => {}), { checkpointer: store }));
    assert.equal((await engine.execute({}, { threadId: 'k' })).status, 'PAUSED');
    assert.equal((await engine.resume({ threadId: 'k' }, { role: 'user', content: 'yes' })).status, 'FINISHED');
  }
  assert.equal(warnings.length, 2, 'one warning per store');
  for (const w of warnings) assert.match(w, /not exclusive|may both run/);
  // Durable Object storage (it has transaction()) is exclusive: no warning.
  const map = new Map();
  const doStorage = { get: async (k) => map.get(k), put: async (k, v) => { map.set(k, v); }, delete: async (k) => map.delete(k), list: async ({ prefix }) => new Map([...map].filter(([k]) => k.startsWith(prefix))) };
  doStorage.transaction = (fn) => fn(doStorage);
  await disposeAfter(t, new GraphEngine(busyGraph(() => {}), { checkpointer: kvStore(doStorage) })).execute({}, { threadId: 'd' });
  assert.equal(warnings.length, 2);
});

test('a run in flight: resume is THREAD_BUSY; { recover: true } or an expired lease takes the thread over, and the old run stops at its next write', async (t) => {
  const store = new MemoryStore();
  const hold = held();
  let started = 0;
  const graph = { nodes: { slow: async () => { if (++started === 1) await hold.promise; return { data: { done: true } }; }, after: () => ({}) }, edges: { slow: 'after', after: '__end__' }, entryPoint: 'slow' };
  const claimed = held();
  const first = disposeAfter(t, new GraphEngine(graph, { checkpointer: store })).execute({}, { threadId: 'job', onEvent: (e) => { if (e.type === 'checkpoint') claimed.release(); } });
  await claimed.promise;   // its first record is written
  await assert.rejects(disposeAfter(t, new GraphEngine(graph, { checkpointer: store })).resume({ threadId: 'job' }), (e) => e.code === 'THREAD_BUSY' && /in flight/.test(e.message) && /recover: true/.test(e.message));
  // Its process "died": recover.
  const taken = await disposeAfter(t, new GraphEngine(graph, { checkpointer: store })).resume({ threadId: 'job' }, undefined, { recover: true });
  assert.equal(taken.status, 'FINISHED');
  hold.release();
  const old = await first;
  assert.equal(old.status, 'ERROR');
  assert.equal(old.error.code, 'THREAD_BUSY', 'the old run stopped at its next write');
  assert.equal((await disposeAfter(t, new GraphEngine(graph, { checkpointer: store })).getState('job')).status, 'FINISHED');
  // A lease of 0: every mid-run checkpoint counts as abandoned.
  const leased = new MemoryStore();
  const again = held();
  const written = held();
  const stuck = disposeAfter(t, new GraphEngine({ ...graph, nodes: { ...graph.nodes, slow: async () => { await again.promise; return {}; } } }, { checkpointer: leased }))
    .execute({}, { threadId: 'job', onEvent: (e) => { if (e.type === 'checkpoint') written.release(); } });
  await written.promise;
  const quick = disposeAfter(t, new GraphEngine({ ...graph, nodes: { ...graph.nodes, slow: () => ({}) } }, { checkpointer: new Checkpointer(leased, { leaseMs: 0 }) }));
  assert.equal((await quick.resume({ threadId: 'job' })).status, 'FINISHED');
  again.release();
  assert.equal((await stuck).error?.code, 'THREAD_BUSY');
});
