// The loader: one instantiate path for a Module, bytes, a URL or a Response.
// Each case imports a fresh copy of the loader so nothing is loaded yet.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const wasmUrl = new URL('../../wasm/edgegraph.wasm', import.meta.url);
const bytes = readFileSync(wasmUrl);
let fresh = 0;
const freshLoader = () => import(`../../js/loader.js?copy=${++fresh}`);

test('before init, using the core is a NOT_INITIALIZED error', async () => {
  const loader = await freshLoader();
  assert.equal(loader.isInitialized(), false);
  assert.throws(() => loader.getCore(), (e) => e.code === 'NOT_INITIALIZED' && /await init\(\)/.test(e.message));
});

test('initSync takes bytes or a compiled WebAssembly.Module, once', async () => {
  const a = await freshLoader();
  assert.equal(a.initSync(bytes), true);
  assert.equal(a.initSync(bytes), false);
  assert.ok(a.getCore().codeNames.includes('MAX_STEPS_EXCEEDED'));
  const b = await freshLoader();
  assert.equal(b.initSync(new WebAssembly.Module(bytes)), true);
});

test('init takes a URL (fetch) and a Response, from a loopback server', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/edgegraph.wasm') { res.writeHead(200, { 'content-type': 'application/wasm' }); res.end(bytes); }
    else { res.writeHead(404); res.end(); }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const a = await freshLoader();
    await a.init(`${base}/edgegraph.wasm`);
    assert.equal(a.isInitialized(), true);
    const b = await freshLoader();
    await b.init(fetch(`${base}/edgegraph.wasm`));
    assert.equal(b.isInitialized(), true);
    const c = await freshLoader();
    await assert.rejects(c.init(`${base}/missing.wasm`), (e) => e.code === 'NOT_INITIALIZED' && /404/.test(e.message));
    assert.equal(c.isInitialized(), false);
  } finally {
    server.close();
  }
});

test('the node entry loads the .wasm through process.getBuiltinModule; without it (Node before 20.16) node-compat.js does, through createRequire', async () => {
  const { execFileSync } = await import('node:child_process');
  const program = (file, hide) => `${hide ? 'delete process.getBuiltinModule;' : ''}
    const { GraphEngine } = await import(${JSON.stringify(new URL(`../../dist/${file}`, import.meta.url).href)});
    const r = await new GraphEngine({ nodes: { a: () => ({ ok: 1 }) }, edges: { a: '__end__' }, entryPoint: 'a' }).execute({});
    console.log(JSON.stringify(r.state.ok));`;
  for (const [file, hide] of [['node.js', false], ['node-compat.js', false], ['node-compat.js', true]]) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program(file, hide)], { encoding: 'utf8' });
    assert.equal(JSON.parse(out), 1, `${file}${hide ? ' without process.getBuiltinModule' : ''}`);
  }
  // Without it, node.js alone leaves the core unloaded (node-compat.js is that runtime's entry).
  const alone = execFileSync(process.execPath, ['--input-type=module', '-e', `delete process.getBuiltinModule;
    const { isInitialized } = await import(${JSON.stringify(new URL('../../dist/node.js', import.meta.url).href)});
    console.log(isInitialized());`], { encoding: 'utf8' });
  assert.equal(alone.trim(), 'false');
});

test('the node entry imports no Node builtin: each import of one is 1-3M instructions of every cold start', () => {
  const code = readFileSync(new URL('../../dist/node.js', import.meta.url), 'utf8');
  const imported = [...code.matchAll(/\bimport ?(?:\{[^}]*\}|[\w$]+) ?from ?"([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(imported.filter((m) => m.startsWith('node:')), []);
  // The .wasm is read through process.getBuiltinModule; FileStore loads node:fs/promises and node:path on first use.
  assert.ok(/getBuiltinModule\?\.\("node:fs"\)/.test(code));
  assert.ok(/import\("node:path"\)/.test(code));
});
