// app.js: what the runtime tests share. An app folder that installs the
// package exactly as `npm install edgegraph` gets it (the packed tarball), a
// Worker bundled the way wrangler bundles it and run in workerd (miniflare),
// and a page served to headless Chromium.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, extname } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { chromium } from 'playwright-core';

export const root = new URL('../../', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;

/**
 * A fresh app folder under build/ (`name`: its own, so test files running at
 * once never share one) with these files of tests/runtimes copied in (or
 * [name, text] pairs written) and the packed tarball installed.
 */
export function packedApp(name, files) {
  const app = join(root, 'build', name);
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, 'pack'), { recursive: true });
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', join(app, 'pack')], { cwd: root, encoding: 'utf8' }))[0];
  for (const f of files) {
    if (Array.isArray(f)) writeFileSync(join(app, f[0]), f[1]);
    else cpSync(join(here, f), join(app, f));
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: `${name.replace(/\W/g, '-')}-app`, private: true, type: 'module', dependencies: { edgegraph: `file:${join(app, 'pack', packed.filename)}` } }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--offline'], { cwd: app });
  return app;
}

/**
 * The Worker `entry` of `app`, bundled the way wrangler does (the .wasm
 * stays a module import, as Workers require): returns a function that starts
 * a workerd running it (each call a fresh one, with no memory of another's).
 */
export async function workerOf(app, entry) {
  await build({ entryPoints: [join(app, entry)], bundle: true, format: 'esm', conditions: ['workerd', 'worker', 'browser'], external: ['*.wasm'], outfile: join(app, 'cf/dist/worker.js'), absWorkingDir: app, logLevel: 'silent' });
  cpSync(join(app, 'node_modules/edgegraph/dist/edgegraph.wasm'), join(app, 'cf/dist/edgegraph.wasm'));
  return () => new Miniflare({
    modulesRoot: join(app, 'cf'),
    modules: [{ type: 'ESModule', path: join(app, 'cf/dist/worker.js') }, { type: 'CompiledWasm', path: join(app, 'cf/dist/edgegraph.wasm') }],
    compatibilityDate: '2024-09-23',
  });
}

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

/** Serves `app`'s files on loopback, and a Chromium to load them in: { origin, browser, close() }. */
export async function chromiumFor(app) {
  const server = createServer((req, res) => {
    const path = join(app, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    try { const body = readFileSync(path); res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }); res.end(body); } catch { res.writeHead(404); res.end(); }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    browser,
    async close() { await browser.close(); server.close(); },
  };
}

/** A new page of `chromium` at `path`, once its script set document.title to 'ready'. */
export async function openPage(chromium, path) {
  const page = await chromium.browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${chromium.origin}/${path}`);
  await page.waitForFunction(() => document.title === 'ready');
  return page;
}
