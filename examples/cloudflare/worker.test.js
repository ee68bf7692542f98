// The Cloudflare example in miniflare (workerd) with persisted Durable Object
// storage, restarted between the pause and the resume: with its offline
// simulator, and with an OpenAI endpoint (the strict OpenAI server on
// loopback, which checks every request as api.openai.com would).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { startServer, fromPolicy } from '../../tests/js/support/openai-server.js';

const here = new URL('.', import.meta.url).pathname;
const root = new URL('../../', import.meta.url).pathname;

async function bundle(dir) {
  // As wrangler bundles it: the workerd entry, the .wasm kept as a module import.
  await build({ entryPoints: [join(here, 'worker.js')], bundle: true, format: 'esm', conditions: ['workerd', 'worker', 'browser'], external: ['*.wasm'], outfile: join(dir, 'dist/worker.js'), logLevel: 'silent' });
  cpSync(join(root, 'dist/edgegraph.wasm'), join(dir, 'dist/edgegraph.wasm'));
}

const start = (dir, persist, bindings) => new Miniflare({
  modulesRoot: dir,
  modules: [{ type: 'ESModule', path: join(dir, 'dist/worker.js') }, { type: 'CompiledWasm', path: join(dir, 'dist/edgegraph.wasm') }],
  compatibilityDate: '2024-09-23',
  durableObjects: { THREADS: 'ThreadRunner' },
  durableObjectsPersist: persist,
  bindings,
});

/** What a model does in this example: email what the user asked, then confirm (the worker's offline policy). */
function model({ messages }) {
  const last = messages.at(-1);
  if (last.role === 'user') return { toolCalls: [{ name: 'send_email', arguments: { to: 'ops@example.com', subject: 'Request', body: last.content } }] };
  if (last.role === 'tool' && last.content.startsWith('The user rejected')) return 'OK, I did not send it.';
  return 'The email is sent.';
}

for (const endpoint of [false, true]) test(`a thread pauses for approval, survives a restart of workerd, and resumes (${endpoint ? 'an OpenAI endpoint: the strict server' : 'offline simulator'})`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eg-cf-'));
  const llm = endpoint ? await startServer(fromPolicy(model), { apiKey: 'sk-worker-test' }) : null;
  const bindings = llm ? { OPENAI_API_KEY: 'sk-worker-test', OPENAI_BASE_URL: llm.baseURL } : {};
  try {
    await bundle(dir);
    const persist = join(dir, 'storage');
    let mf = start(dir, persist, bindings);
    const post = (m, path, body) => m.dispatchFetch(`http://worker${path}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());
    const paused = await post(mf, '/threads/t1/run', { message: 'Tell ops the build is green' });
    assert.equal(paused.status, 'PAUSED');
    assert.equal(paused.approval.toolCalls[0].name, 'send_email');
    const other = await post(mf, '/threads/t2/run', { message: 'Another thread' });
    assert.equal(other.status, 'PAUSED');
    await mf.dispose(); // the process goes away; only the storage remains

    mf = start(dir, persist, bindings);
    const done = await post(mf, '/threads/t1/resume', { decision: 'approve' });
    assert.deepEqual(done, { status: 'FINISHED', approval: null, output: 'The email is sent.', error: null });
    const state = await (await mf.dispatchFetch('http://worker/threads/t1')).json();
    assert.equal(state.status, 'FINISHED');
    assert.deepEqual(state.outbox.map((e) => e.body), ['Tell ops the build is green']);
    const rejected = await post(mf, '/threads/t2/resume', { decision: 'reject', reason: 'not now' });
    assert.equal(rejected.output, 'OK, I did not send it.');
    assert.deepEqual((await (await mf.dispatchFetch('http://worker/threads/t2')).json()).outbox, []);
    // Events of a run, as server-sent events from the object.
    const events = await (await mf.dispatchFetch('http://worker/threads/t3/events?message=hi')).text();
    assert.match(events, /event: run_start/);
    assert.match(events, /event: pause/);
    await mf.dispose();
    if (llm) assert.equal(llm.requests.length, 5, 'two runs, two resumes, one streamed run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await llm?.close();
  }
});

test('two approvals of one paused thread reach its Durable Object at once, during the LLM call: the email is sent once, the other request is 409 THREAD_BUSY', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eg-cf-busy-'));
  // The model's reply after the tool result is held until the test lets it go.
  let release, reached;
  const gate = new Promise((r) => { release = r; });
  const inCall = new Promise((r) => { reached = r; });
  const llm = await startServer(fromPolicy(async (request) => {
    if (request.messages.at(-1).role === 'tool') { reached(); await gate; }
    return model(request);
  }), { apiKey: 'sk-worker-test' });
  try {
    await bundle(dir);
    const mf = start(dir, join(dir, 'storage'), { OPENAI_API_KEY: 'sk-worker-test', OPENAI_BASE_URL: llm.baseURL });
    const post = (path, body) => mf.dispatchFetch(`http://worker${path}`, { method: 'POST', body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    assert.equal((await post('/threads/t1/run', { message: 'Deploy is done' })).body.status, 'PAUSED');
    const answers = [post('/threads/t1/resume', { decision: 'approve' }), post('/threads/t1/resume', { decision: 'approve' })];
    const first = await Promise.race(answers);
    await inCall;
    assert.equal(first.status, 409, JSON.stringify(first.body));
    assert.equal(first.body.error, 'THREAD_BUSY');
    assert.match(first.body.message, /'t1'/);
    release();
    const both = await Promise.all(answers);
    assert.deepEqual(both.map((a) => a.body.status ?? a.body.error).sort(), ['FINISHED', 'THREAD_BUSY']);
    const state = await (await mf.dispatchFetch('http://worker/threads/t1')).json();
    assert.equal(state.status, 'FINISHED');
    assert.equal(state.outbox.length, 1, 'the email went out once');
    assert.equal(llm.requests.length, 2, 'the run and one resume asked the model');
    await mf.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await llm.close();
  }
});
