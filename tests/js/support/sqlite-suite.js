// Threads on node:sqlite, in one process: run by sql-store.test.js with a
// Node that has node:sqlite. 20 concurrent resumes (each on its own
// connection to one database file), conversations, retention and paging.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphEngine, Checkpointer, sqliteStore } from 'edgegraph';
import { busyGraph } from './busy-graph.js';

const dir = mkdtempSync(join(tmpdir(), 'eg-sqlite-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

test('20 concurrent resumes of one paused thread, each on its own connection: the side effect runs once', async () => {
  const file = join(dir, 'busy.sqlite');
  let sent = 0, release;
  const gate = new Promise((r) => { release = r; });
  const graph = busyGraph(async () => { sent++; await gate; });
  assert.equal((await new GraphEngine(graph, { checkpointer: sqliteStore(file) }).execute({}, { threadId: 'mail' })).status, 'PAUSED');
  const runs = Array.from({ length: 20 }, () => new GraphEngine(graph, { checkpointer: sqliteStore(file) }).resume({ threadId: 'mail' }, { role: 'user', content: 'yes' }));
  const busy = [];
  await new Promise((resolve) => runs.forEach((p) => p.catch((e) => { busy.push(e); if (busy.length === 19) resolve(); })));
  release();
  const results = await Promise.allSettled(runs);
  assert.equal(sent, 1);
  assert.equal(results.filter((r) => r.status === 'fulfilled' && r.value.status === 'FINISHED').length, 1);
  for (const e of busy) assert.ok(e.code === 'THREAD_BUSY' && e.message.includes("'mail'"), e.message);
});

test('a conversation, retention and history pages on one SQLite file', async () => {
  const store = sqliteStore(join(dir, 'threads.sqlite'));
  const engine = new GraphEngine({
    nodes: { inc: (s) => ({ data: { n: (s.data.n ?? 0) + 1 } }) },
    edges: { inc: { path: 'data.n', cases: { 500: '__end__', 1000: '__end__' }, default: 'inc' } },
    entryPoint: 'inc',
  }, { checkpointer: new Checkpointer(store, { keepLast: 10, snapshotEvery: 20 }), maxSteps: 1000 });
  assert.equal((await engine.execute({ data: { blob: 'x'.repeat(1000) } }, { threadId: 'long' })).state.data.n, 500);
  const again = await engine.execute({}, { threadId: 'long' });
  assert.equal(again.state.data.n, 1000, 'the second execute continued the thread');
  const keys = await store.list('long/');
  assert.ok(keys.length <= 10 + 20 + 16 + 1, `${keys.length} keys`);
  const page = await engine.getStateHistory('long', { limit: 5, values: true });
  assert.equal(page.length, 5);
  assert.deepEqual(page[0].values, again.state);
  const next = await engine.getStateHistory('long', { limit: 5, before: page.at(-1).checkpointId });
  assert.equal(next[0].checkpointId, page.at(-1).checkpointId - 1);
  await engine.deleteThread('long');
  assert.deepEqual(await store.list('long/'), []);
});
