// Apps that depend on the packed tarball (not on this repository's sources),
// built with Vite, esbuild and webpack 5, served on loopback and driven in
// Chromium: a graph runs, pauses for approval, and resumes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { build } from 'esbuild';
import webpack from 'webpack';
import { chromium } from 'playwright-core';

const root = new URL('../../', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;
const work = join(root, 'build/bundlers');
let browser;

function app(name) {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(here, name), dir, { recursive: true });
  cpSync(join(here, 'shared-graph.js'), join(dir, 'shared-graph.js'));
  const pack = JSON.parse(execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', work], { cwd: root, encoding: 'utf8' }))[0];
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  pkg.dependencies = { edgegraph: `file:${join(work, pack.filename)}` };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--offline'], { cwd: dir });
  return dir;
}

function serve(dir) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const path = join(dir, new URL(req.url, 'http://x').pathname.replace(/\/$/, '/index.html'));
    if (!existsSync(path)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function drive(dir, label) {
  const server = await serve(dir);
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.getElementById('out').textContent.startsWith('PAUSED'), null, { timeout: 20_000 });
    assert.equal(await page.textContent('#out'), 'PAUSED Send them?');
    await page.click('#approve');
    await page.waitForFunction(() => document.getElementById('out').textContent.startsWith('FINISHED'), null, { timeout: 20_000 });
    assert.equal(await page.textContent('#out'), 'FINISHED sent=2 letters=dear ann|dear bob');
    mkdirSync(join(root, 'build/screenshots'), { recursive: true });
    await page.screenshot({ path: join(root, `build/screenshots/bundler-${label}.png`) });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    server.close();
  }
}

before(async () => {
  mkdirSync(work, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic'] });
});
after(async () => { await browser?.close(); });

test('Vite: builds with no configuration and runs in Chromium (pause, approve, finish)', async () => {
  const dir = app('vite-app');
  execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: dir, stdio: 'pipe' });
  assert.ok(readFileSync(join(dir, 'dist/index.html'), 'utf8').includes('<script type="module"'));
  await drive(join(dir, 'dist'), 'vite');
});

test('esbuild: builds with --loader:.wasm=file and runs in Chromium', async () => {
  const dir = app('esbuild-app');
  await build({ entryPoints: [join(dir, 'main.js')], bundle: true, format: 'esm', outdir: join(dir, 'dist'), loader: { '.wasm': 'file' }, absWorkingDir: dir, logLevel: 'warning' });
  cpSync(join(dir, 'index.html'), join(dir, 'dist/index.html'));
  await drive(join(dir, 'dist'), 'esbuild');
});

test('webpack 5: builds the main entry with only entry and output set, and runs in Chromium', async () => {
  const dir = app('webpack-app');
  const stats = await new Promise((resolve, reject) => webpack({
    mode: 'production', context: dir, entry: './main.js',
    output: { path: join(dir, 'dist'), filename: 'main.js' },
  }, (err, s) => (err ? reject(err) : resolve(s))));
  assert.deepEqual(stats.compilation.errors.map(String), []);
  // The .wasm was emitted as an asset, not inlined or left behind.
  assert.ok(Object.keys(stats.compilation.assets).some((a) => a.endsWith('.wasm')));
  cpSync(join(dir, 'index.html'), join(dir, 'dist/index.html'));
  await drive(join(dir, 'dist'), 'webpack');
});
