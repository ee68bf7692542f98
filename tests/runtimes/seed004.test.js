// Seed 004's agent graph as a LangGraph.js program (examples/langgraph-agent.js,
// its one import changed to edgegraph/langgraph) from the packed tarball, in
// headless Chromium and in workerd (miniflare), against the strict OpenAI
// server on loopback: the run pauses before send_email, its thread is written
// out as text, and a fresh page or a second request to a fresh workerd resumes
// it. The email goes out once, in the resumed run, and the answer is the model's.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, reply, call } from '../js/support/openai-server.js';
import { root, packedApp, workerOf, chromiumFor, openPage } from './app.js';

const program = readFileSync(`${root}examples/langgraph-agent.js`, 'utf8');
const changed = program.replace("from '@langchain/langgraph'", "from 'edgegraph/langgraph'");
let startWorker, chromium;

before(async () => {
  assert.notEqual(changed, program);
  const app = packedApp('runtimes/seed004', ['seed004.js', 'seed004-worker.js', 'seed004.html', ['langgraph-agent.js', changed]]);
  startWorker = await workerOf(app, 'seed004-worker.js');
  chromium = await chromiumFor(app);
});

after(async () => {
  await chromium?.close();
});

const email = { to: 'support@example.com', subject: 'Password reset help', body: 'Use the "Forgot password" link (kb-17).' };
const script = (final) => [
  { json: reply(null, [call('call_1', 'search_knowledge_base', { query: 'password reset' })]) },
  { json: reply(null, [call('call_2', 'send_email', email)]) },
  { json: reply(final) },
];

const runtimes = {
  chromium: {
    // Each call a new page: the resumed agent shares nothing with the paused one but the text.
    async pause(baseURL) {
      const page = await openPage(chromium, 'seed004.html');
      try { return await page.evaluate((url) => window.__seed004.pause(url), baseURL); } finally { await page.close(); }
    },
    async resume(paused, baseURL, decision) {
      const page = await openPage(chromium, 'seed004.html');
      try { return await page.evaluate(([p, url, d]) => window.__seed004.resume(p, url, d), [paused, baseURL, decision]); } finally { await page.close(); }
    },
  },
  workerd: {
    // Each request to a workerd of its own: no isolate outlives the first request.
    async pause(baseURL) {
      const mf = startWorker();
      try { return await (await mf.dispatchFetch(`http://worker/pause?llm=${encodeURIComponent(baseURL)}`, { method: 'POST' })).text(); } finally { await mf.dispose(); }
    },
    async resume(paused, baseURL, decision) {
      const mf = startWorker();
      try { return await (await mf.dispatchFetch(`http://worker/resume?llm=${encodeURIComponent(baseURL)}&decision=${encodeURIComponent(decision)}`, { method: 'POST', body: paused })).json(); } finally { await mf.dispose(); }
    },
  },
};

/** Pause in `from`, resume in `to` with `decision`; checks every request and what was sent. */
async function approval(from, to, decision, final) {
  const server = await startServer(script(final), { apiKey: 'sk-test', cors: true });
  try {
    const paused = await runtimes[from].pause(server.baseURL);
    const shown = JSON.parse(paused);
    assert.deepEqual(shown.next, ['tools']);
    assert.equal(shown.interrupt.action, 'send_email');
    assert.deepEqual(shown.interrupt.arguments, email);
    assert.equal(shown.sent, 0, 'nothing is sent before the approval');
    assert.equal(server.requests.length, 2);
    const done = await runtimes[to].resume(paused, server.baseURL, decision);
    assert.equal(done.answer, final);
    assert.deepEqual(done.outbox, decision === 'approve' ? [email] : []);
    // Three requests in all, each one OpenAI accepts: the resumed run asked the model once, with the tool's result.
    assert.equal(server.requests.length, 3);
    const last = server.requests[2].body.messages;
    assert.equal(last.at(-1).role, 'tool');
    assert.equal(last.at(-1).tool_call_id, 'call_2');
    assert.equal(last.at(-1).content, decision === 'approve' ? JSON.stringify({ sent: true, to: email.to }) : `The user rejected the email: ${decision}`);
    assert.equal(last.filter((m) => m.role === 'tool').length, 2, 'the search ran once, the email once');
  } finally {
    await server.close();
  }
}

test('chromium: seed 004\'s agent pauses before send_email; a fresh page resumes its thread and the email goes out once', () => approval('chromium', 'chromium', 'approve', 'I sent the email.'));
test('workerd: seed 004\'s agent pauses in one request; a second request to a fresh workerd resumes it and the email goes out once', () => approval('workerd', 'workerd', 'approve', 'I sent the email.'));
test('workerd: a rejected email is never sent, and the model hears why', () => approval('workerd', 'workerd', 'not today', 'Understood: no email.'));
test('paused in workerd, resumed in Chromium: the same thread text, the email once', () => approval('workerd', 'chromium', 'approve', 'I sent the email.'));
