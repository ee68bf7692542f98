// The same graph, from the packed npm tarball, in Node, Deno, Bun, workerd
// (miniflare, the .wasm imported as a module), Vercel's edge-runtime and
// headless Chromium; and a run paused in one runtime resumed in another. The
// resumed run's agent talks to the strict OpenAI server on loopback through
// each runtime's own fetch (streamed tool-call deltas, a tool, the answer).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { EdgeRuntime } from 'edge-runtime';
import { expected, model } from './graph.js';
import { startServer, fromPolicy } from '../js/support/openai-server.js';
import { root, packedApp, workerOf, chromiumFor, openPage } from './app.js';

const bin = (name) => join(root, 'node_modules/.bin', name);
let app, mf, edge, chromium, page, llm;
// Asynchronous: the LLM server answers from this process while a runtime runs.
const run = async (file, args, options = {}) => (await promisify(execFile)(file, args, { cwd: app, encoding: 'utf8', ...options })).stdout;

before(async () => {
  // The model of every runtime's agent; CORS for the page in Chromium.
  llm = await startServer(fromPolicy(model), { cors: true });
  // The package exactly as `npm install edgegraph` gets it.
  app = packedApp('runtimes/app', ['graph.js', 'runner.js', 'worker.js', 'edge.js', 'page.html']);
  mf = (await workerOf(app, 'worker.js'))();

  // edge-runtime: one script, the module handed in precompiled.
  const bundled = await build({ entryPoints: [join(app, 'edge.js')], bundle: true, format: 'iife', write: false, absWorkingDir: app, logLevel: 'silent' });
  const wasm = new WebAssembly.Module(readFileSync(join(app, 'node_modules/edgegraph/dist/edgegraph.wasm')));
  edge = new EdgeRuntime({ extend: (context) => Object.assign(context, { WASM_MODULE: wasm }) });
  edge.evaluate(bundled.outputFiles[0].text);

  // Chromium: the page imports the package through an import map.
  chromium = await chromiumFor(app);
  page = await openPage(chromium, 'page.html');
});

after(async () => {
  await chromium?.close();
  await mf?.dispose();
  await llm?.close(); // fails if any runtime sent a request OpenAI would refuse
});

const deno = ['run', '--quiet', '--allow-read', '--allow-env', '--allow-net=127.0.0.1', 'runner.js'];
const denoEnv = () => ({ env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } });
const resumeWith = (file, args, options) => async (cp) => { writeFileSync(join(app, 'cp.json'), cp); return JSON.parse(await run(file, [...args, 'resume', 'cp.json', llm.baseURL], options)); };
const runtimes = {
  node: { pause: () => run(process.execPath, ['runner.js', 'pause']), resume: resumeWith(process.execPath, ['runner.js']) },
  deno: { pause: () => run(bin('deno'), [...deno, 'pause'], denoEnv()), resume: resumeWith(bin('deno'), deno, denoEnv()) },
  bun: { pause: () => run(bin('bun'), ['runner.js', 'pause']), resume: resumeWith(bin('bun'), ['runner.js']) },
  workerd: {
    pause: async () => (await mf.dispatchFetch('http://worker/pause')).text(),
    resume: async (cp) => (await mf.dispatchFetch(`http://worker/resume?llm=${encodeURIComponent(llm.baseURL)}`, { method: 'POST', body: cp })).json(),
  },
  'edge-runtime': {
    pause: async () => edge.evaluate('__edgegraph.pause()'),
    // Objects from the VM realm have its prototypes: compare them as data.
    resume: async (cp) => JSON.parse(JSON.stringify(await edge.evaluate(`__edgegraph.resume(${JSON.stringify(cp)}, ${JSON.stringify(llm.baseURL)})`))),
  },
  chromium: {
    pause: () => page.evaluate(() => window.__edgegraph.pause()),
    resume: (cp) => page.evaluate(([c, baseURL]) => window.__edgegraph.resume(c, baseURL), [cp, llm.baseURL]),
  },
};

for (const [name, rt] of Object.entries(runtimes)) {
  test(`${name}: runs the graph, pauses and resumes`, async () => {
    const checkpoint = await rt.pause();
    assert.equal(JSON.parse(checkpoint).status, 'PAUSED');
    assert.deepEqual(await rt.resume(checkpoint), expected);
  });
}

for (const [from, to] of [['node', 'deno'], ['node', 'bun'], ['node', 'workerd'], ['node', 'edge-runtime'], ['node', 'chromium'], ['chromium', 'node'], ['workerd', 'deno'], ['bun', 'chromium']]) {
  test(`paused in ${from}, resumed in ${to}`, async () => {
    assert.deepEqual(await runtimes[to].resume(await runtimes[from].pause()), expected);
  });
}

test('every runtime\'s agent streamed its two requests from the strict OpenAI server, each one OpenAI accepts', () => {
  assert.deepEqual(llm.rejected, []);
  const posts = llm.requests.filter((r) => r.method === 'POST');
  assert.equal(posts.length, 2 * (Object.keys(runtimes).length + 8));
  assert.ok(posts.every((r) => r.body.stream === true && r.body.tools?.[0]?.function.name === 'publish_post'));
});

test('the tarball has no runtime dependencies and ships its .wasm', () => {
  const pkg = JSON.parse(readFileSync(join(app, 'node_modules/edgegraph/package.json'), 'utf8'));
  assert.equal(pkg.dependencies, undefined);
  assert.ok(readdirSync(join(app, 'node_modules/edgegraph/dist')).includes('edgegraph.wasm'));
});
