// The thread's head lags behind its records (it moves where a run stops and
// every 16 records), on IndexedDB in a real browser too: a run in one tab dies
// between two head moves; a second tab (a fresh page, its own IndexedDBStore
// over the same database) finds the latest record, resumes it without
// repeating a step, keeps keepLast, and deletes the thread whole.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const root = new URL('../../', import.meta.url).pathname;
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { GraphEngine, Checkpointer, IndexedDBStore } from '/dist/browser.js';
window.effects = [];
// inc until data.n reaches 40, each call logged; each step one record.
const counter = {
  nodes: { inc: (s) => { const n = (s.data.n ?? 0) + 1; window.effects.push(n); return { data: { n } }; } },
  edges: { inc: { path: 'data.n', cases: { 40: '__end__' }, default: 'inc' } },
  entryPoint: 'inc',
};
const store = () => new IndexedDBStore('head-test');
const engine = () => new GraphEngine(counter, { checkpointer: new Checkpointer(store(), { keepLast: 5 }), maxSteps: 100 });
// The listener throws at record 21: the run ends there, its head at 16, as a tab closed mid-run leaves it.
window.dieAt21 = async () => {
  const onEvent = (e) => { if (e.type === 'checkpoint' && e.checkpointId === 21) throw new Error('tab closed'); };
  try { await engine().execute({}, { threadId: 't', onEvent }); return 'ran to the end'; } catch (e) { return e.message; }
};
window.latest = async () => {
  const s = await engine().getState('t');
  const history = await engine().getStateHistory('t', { limit: 3, values: true });
  return { id: s.checkpointId, n: s.state.data.n, history: history.map((h) => [h.checkpointId, h.values.data.n]) };
};
window.resumeIt = async (recover) => {
  let last;
  try {
    const r = await engine().resume({ threadId: 't' }, undefined, { recover, onEvent: (e) => { if (e.type === 'checkpoint') last = e.checkpointId; } });
    return { status: r.status, last };
  } catch (e) { return { code: e.code, message: e.message }; }
};
window.finish = async () => {
  const s = await engine().getState('t');
  const kept = (await engine().getStateHistory('t', { limit: 5, values: true })).map((h) => h.values.data.n);
  await engine().deleteThread('t');
  return { id: s.checkpointId, status: s.status, n: s.state.data.n, kept, after: await engine().getState('t') ?? null, keys: await store().list('t/') };
};
document.title = 'ready';
</script>`;

let server, browser, base;

before(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (!path.startsWith('/dist/') || path.includes('..')) return res.writeHead(404).end();
    const type = path.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    res.writeHead(200, { 'content-type': type }).end(await readFile(`${root}${path.slice(1)}`));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/page.html`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
});
after(async () => { await browser?.close(); server?.close(); });

test('IndexedDBStore: a run dead between head moves; a second tab finds its latest record, resumes it without repeating a step, keeps keepLast, and deletes the thread', async () => {
  const ctx = await browser.newContext();
  try {
    const open = async () => { const tab = await ctx.newPage(); await tab.goto(base); await tab.waitForFunction(() => document.title === 'ready'); return tab; };
    const first = await open();
    assert.equal(await first.evaluate(() => window.dieAt21()), 'tab closed');
    assert.deepEqual(await first.evaluate(() => window.effects), Array.from({ length: 20 }, (_, i) => i + 1));
    await first.close();

    const second = await open();
    assert.deepEqual(await second.evaluate(() => window.latest()), { id: 21, n: 20, history: [[21, 20], [20, 19], [19, 18]] });
    // Its latest record was taken mid-run: to another tab, a run in flight until told it died.
    const busy = await second.evaluate(() => window.resumeIt(false));
    assert.equal(busy.code, 'THREAD_BUSY', JSON.stringify(busy));
    assert.match(busy.message, /'t'/);
    assert.deepEqual(await second.evaluate(() => window.effects), [], 'nothing ran');
    const resumed = await second.evaluate(() => window.resumeIt(true));
    assert.equal(resumed.status, 'FINISHED', JSON.stringify(resumed));
    // Every step ran once across the two tabs: none repeated by the resume, none skipped.
    assert.deepEqual(await second.evaluate(() => window.effects), Array.from({ length: 20 }, (_, i) => i + 21));

    const third = await open();
    const end = await third.evaluate(() => window.finish());
    assert.deepEqual([end.id, end.status, end.n], [resumed.last, 'FINISHED', 40]);
    assert.deepEqual(end.kept, [40, 39, 38, 37, 36], 'keepLast: the newest five read, with their states');
    assert.equal(end.after, null);
    assert.deepEqual(end.keys, []);
  } finally {
    await ctx.close();
  }
});
