// Exactly one resume wins across browser tabs: two Chromium pages of one
// origin resume the same paused thread at once, on one IndexedDB database
// and on one localStorage (create under navigator.locks). The `send` node's
// side effect is a request to this test's server, held until the loser has
// answered: it must arrive exactly once.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const root = new URL('../../', import.meta.url).pathname;
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { GraphEngine, IndexedDBStore, LocalStorageStore } from '/dist/browser.js';
import { busyGraph } from '/support/busy-graph.js';
const graph = busyGraph(() => fetch('/send', { method: 'POST' }));
const store = (kind) => kind === 'idb' ? new IndexedDBStore('busy-test') : new LocalStorageStore(localStorage, 'busy:');
window.start = async (kind) => (await new GraphEngine(graph, { checkpointer: store(kind) }).execute({}, { threadId: 't' })).status;
window.resumeIt = async (kind) => {
  try { return { status: (await new GraphEngine(graph, { checkpointer: store(kind) }).resume({ threadId: 't' }, { role: 'user', content: 'yes' })).status }; }
  catch (e) { return { code: e.code, message: e.message }; }
};
// Another tab's run of thread 't' on the localStorage store, as far as the Web Lock shows it.
window.holdThread = () => new Promise((held) => { navigator.locks.request('edgegraph-thread:busy:t', () => new Promise((release) => { window.releaseThread = release; held(); })); });
document.title = 'ready';
</script>`;

let server, browser, base, sends = 0, held = [], sent;
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm' };

before(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (path === '/send') { sends++; held.push(res); sent?.(); return; }
    const file = path.startsWith('/dist/') ? `${root}${path.slice(1)}` : path === '/support/busy-graph.js' ? `${root}tests/js${path}` : null;
    if (!file || path.includes('..')) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(await readFile(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/page.html`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
});
after(async () => { await browser?.close(); server?.close(); });

for (const [kind, name] of [['idb', 'IndexedDBStore'], ['local', 'LocalStorageStore (navigator.locks)']]) {
  test(`two tabs resume one paused thread at once (${name}): the side effect runs once, the other tab is THREAD_BUSY`, async () => {
    sends = 0;
    held = [];
    const ctx = await browser.newContext();
    try {
      const tabs = [await ctx.newPage(), await ctx.newPage()];
      for (const tab of tabs) { await tab.goto(base); await tab.waitForFunction(() => document.title === 'ready'); }
      assert.equal(await tabs[0].evaluate((k) => window.start(k), kind), 'PAUSED');
      const inNode = new Promise((r) => { sent = r; });
      const answers = tabs.map((tab) => tab.evaluate((k) => window.resumeIt(k), kind));
      // One tab answers (the loser) while the other is held inside its node.
      const first = await Promise.race(answers);
      await inNode;
      assert.equal(first.code, 'THREAD_BUSY', JSON.stringify(first));
      assert.match(first.message, /'t'/);
      for (const res of held) res.writeHead(200).end('{}');
      const both = await Promise.all(answers);
      assert.deepEqual(both.map((a) => a.status ?? a.code).sort(), ['FINISHED', 'THREAD_BUSY']);
      assert.equal(sends, 1, 'the side effect ran once');
    } finally {
      await ctx.close();
    }
  });
}

test('a run on LocalStorageStore holds its thread in a Web Lock: while another tab holds it, resume is THREAD_BUSY before anything runs', async () => {
  sends = 0;
  const ctx = await browser.newContext();
  try {
    const tabs = [await ctx.newPage(), await ctx.newPage()];
    for (const tab of tabs) { await tab.goto(base); await tab.waitForFunction(() => document.title === 'ready'); }
    assert.equal(await tabs[0].evaluate(() => window.start('local')), 'PAUSED');
    // localStorage reaches the other tab asynchronously; the lock does not depend on it.
    await tabs[0].evaluate(() => window.holdThread());
    // A send that does arrive is answered at once: a broken hold fails below instead of waiting.
    sent = () => { for (const res of held) res.writeHead(200).end('{}'); held = []; };
    held = [];
    const refused = await tabs[1].evaluate(() => window.resumeIt('local'));
    assert.equal(refused.code, 'THREAD_BUSY', JSON.stringify(refused));
    assert.match(refused.message, /thread 't'.*in flight/);
    assert.equal(sends, 0, 'nothing ran');
    await tabs[0].evaluate(() => window.releaseThread());
    assert.deepEqual(await tabs[1].evaluate(() => window.resumeIt('local')), { status: 'FINISHED' });
    assert.equal(sends, 1);
  } finally {
    sent = undefined;
    await ctx.close();
  }
});
