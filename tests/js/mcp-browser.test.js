// MCP tools in Chromium: a page (on its own origin) bundles the MCP SDK's
// client with esbuild, connects cross-origin to the SDK-built MCP server on
// loopback (which sends the CORS headers docs/mcp.md lists), and runs an
// agent whose approval-gated MCP tool runs once after approval, traced with
// the OpenTelemetry SDK in the page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { startMcpServer } from './support/mcp-server.js';
import { startServer, reply, call } from './support/openai-server.js';

const root = new URL('../../', import.meta.url).pathname;
const out = join(root, 'build/mcp-browser');
let site, browser;

before(async () => {
  mkdirSync(out, { recursive: true });
  await build({ entryPoints: [join(root, 'tests/js/support/mcp-page.js')], bundle: true, format: 'esm', platform: 'browser', external: ['edgegraph'], outfile: join(out, 'page.js'), logLevel: 'silent' });
  const html = '<!doctype html><meta charset="utf-8"><title>loading</title><script type="importmap">{ "imports": { "edgegraph": "/dist/browser.js" } }</script><script type="module" src="/page.js"></script>';
  const types = { js: 'text/javascript', wasm: 'application/wasm' };
  site = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/') { res.writeHead(200, { 'content-type': 'text/html' }).end(html); return; }
    const file = path === '/page.js' ? join(out, 'page.js') : path.startsWith('/dist/') ? join(root, path) : null;
    let body;
    try { body = readFileSync(file); } catch { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': types[path.split('.').pop()] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
});
after(async () => { await browser?.close(); site?.close(); });

test('a browser page lists and calls MCP tools cross-origin; the approval-gated one runs once', async () => {
  const mcp = await startMcpServer({ cors: true });
  const llm = await startServer([
    { json: reply(null, [call('c1', 'add', { a: 2, b: 3 }), call('c2', 'send_email', { to: 'ana@example.com', body: '5' })]) },
    { json: reply('Mailed the sum.') },
  ], { cors: true });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`http://127.0.0.1:${site.address().port}/`);
    await page.waitForFunction(() => document.title === 'ready');
    const r = await page.evaluate(([m, l]) => window.runAgent(m, l), [mcp.url, llm.baseURL]);
    assert.deepEqual(r.names, ['add', 'weather_now', 'fail', 'snapshot', 'send_email']);
    assert.equal(r.paused, 'PAUSED');
    assert.equal(r.status, 'FINISHED');
    assert.equal(r.answer, 'Mailed the sum.');
    assert.deepEqual(r.calls, [['add', 'ok', { sum: 5 }], ['send_email', 'ok', 'sent to ana@example.com']]);
    assert.deepEqual(mcp.sent, [{ to: 'ana@example.com', body: '5' }]);
    // Traced in the page: two runs (before and after the pause), each with its node, model and tool spans under it.
    assert.deepEqual(r.spans.map((x) => x.filter(Boolean).join(' < ')).sort(), [
      'chat m < node agent', 'chat m < node agent',
      'execute_tool add < node agent', 'execute_tool send_email < node agent',
      'invoke_agent edgegraph', 'invoke_agent edgegraph',
      'node agent < invoke_agent edgegraph', 'node agent < invoke_agent edgegraph', 'node agent < invoke_agent edgegraph',
    ]);
    assert.deepEqual(errors, []);
  } finally { await page.close(); await llm.close(); await mcp.close(); }
});

test('without Access-Control-Expose-Headers: mcp-session-id, a page cannot keep its session (the header docs/mcp.md asks for)', async () => {
  const mcp = await startMcpServer({ cors: true, exposeSessionId: false });
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${site.address().port}/`);
    await page.waitForFunction(() => document.title === 'ready');
    const r = await page.evaluate((m) => window.listTools(m), mcp.url);
    assert.equal(r.names, undefined);
    assert.match(r.error, /Bad Request: Server not initialized/, r.error);
  } finally { await page.close(); await mcp.close(); }
});
