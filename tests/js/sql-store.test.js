// The SQL stores: node:sqlite (in a child process on a Node that has it,
// and a clear error on one that has not), Durable Object SQLite storage and
// D1 in miniflare: one schema, exclusive resumes, conversations.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { sqliteStore, GraphEngine } from 'edgegraph';
import { sqliteNode } from './support/store-of.js';
import { disposeAfter } from './support/dispose.js';

test('node:sqlite: concurrent resumes, a conversation, retention and pages (the suite, run on a Node with node:sqlite)', () => {
  const suite = new URL('./support/sqlite-suite.js', import.meta.url).pathname;
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;   // a test run of its own, reporting to its stdout
  const run = spawnSync(sqliteNode, ['--test', '--test-reporter=tap', suite], { encoding: 'utf8', env });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /# pass 2\n/);
  assert.match(run.stdout, /# fail 0\n/);
});

test('sqliteStore on a Node without node:sqlite (the tests\' Node 20): INVALID_OPTIONS naming what it needs, when first used', async (t) => {
  assert.notEqual(sqliteNode, process.execPath, 'this test runs on a Node without node:sqlite');
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' }, { checkpointer: sqliteStore('/nonexistent/threads.sqlite') }));
  await assert.rejects(engine.execute({}, { threadId: 't' }), (e) => e.code === 'INVALID_OPTIONS' || /node:sqlite/.test(e.message));
  await assert.rejects(engine.getState('t'), (e) => e.code === 'INVALID_OPTIONS' && /node:sqlite \(Node 22\.5 or later/.test(e.message));
});

// ---- Cloudflare: D1 and Durable Object SQLite, in miniflare ----

const root = new URL('../../', import.meta.url).pathname;

async function worker(dir, holdURL) {
  await build({ entryPoints: [new URL('./support/sql-worker.js', import.meta.url).pathname], bundle: true, format: 'esm', conditions: ['workerd', 'worker', 'browser'], external: ['*.wasm'], outfile: join(dir, 'worker.js'), logLevel: 'silent', alias: { edgegraph: join(root, 'dist/workerd.js') } });
  cpSync(join(root, 'dist/edgegraph.wasm'), join(dir, 'edgegraph.wasm'));
  return new Miniflare({
    modulesRoot: dir,
    modules: [{ type: 'ESModule', path: join(dir, 'worker.js') }, { type: 'CompiledWasm', path: join(dir, 'edgegraph.wasm') }],
    compatibilityDate: '2024-09-23',
    d1Databases: ['DB'],
    durableObjects: { THREADS: { className: 'Threads', useSQLite: true } },
    bindings: { HOLD_URL: holdURL },
  });
}

test('D1 and a SQLite-backed Durable Object: two resumes of one paused thread at once, the side effect once, the other 409 THREAD_BUSY; one schema', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eg-sql-'));
  let sends = 0, held = [], sent;
  const hold = createServer((req, res) => { sends++; held.push(res); sent?.(); });
  await new Promise((r) => hold.listen(0, '127.0.0.1', r));
  const mf = await worker(dir, `http://127.0.0.1:${hold.address().port}/send`);
  try {
    for (const where of ['d1', 'do']) {
      sends = 0;
      held = [];
      const post = (action) => mf.dispatchFetch(`http://worker/${where}/${action}`, { method: 'POST' }).then(async (r) => ({ http: r.status, ...(await r.json()) }));
      assert.equal((await post('start')).status, 'PAUSED');
      const inNode = new Promise((r) => { sent = r; });
      const answers = [post('resume'), post('resume')];
      const first = await Promise.race(answers);
      await inNode;
      assert.deepEqual([first.http, first.code], [409, 'THREAD_BUSY'], `${where}: ${first.message}`);
      assert.match(first.message, /'mail'/);
      for (const res of held) res.end('ok');
      const both = await Promise.all(answers);
      assert.deepEqual(both.map((a) => a.status ?? a.code).sort(), ['FINISHED', 'THREAD_BUSY'], where);
      assert.equal(sends, 1, `${where}: the side effect ran once`);
    }
    // D1's rows: one thread, records keyed (thread_id, id), numbered 1.. without a gap.
    const db = await mf.getD1Database('DB');
    const rows = (await db.prepare('SELECT thread_id, id FROM edgegraph_records ORDER BY id').all()).results;
    assert.ok(rows.length >= 4 && rows.every((r, i) => r.thread_id === 'mail' && r.id === i + 1), JSON.stringify(rows));
  } finally {
    await mf.dispose();
    hold.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
