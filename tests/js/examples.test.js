// The two seed graphs as runnable examples: with the offline simulator they
// ship with, and over HTTP against the strict OpenAI server (the simulator's
// policy answering, every request checked as api.openai.com checks it); and
// the demo.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { GraphEngine, approve, reject } from 'edgegraph';
import { startServer, fromPolicy } from './support/openai-server.js';

test('seed 003: the research-assistant loop refines until approved', async () => {
  const { run } = await import('../../examples/research-assistant.js');
  const r = await run('people code better with music');
  assert.equal(r.status, 'FINISHED');
  assert.equal(r.state.data.review.status, 'approved');
  assert.equal(r.state.data.iteration, 3);
  assert.equal(r.state.stepCount, 7);
  const semi = await run('music causes better focus');
  assert.equal(semi.state.messages[1].content, 'Detected: semi_formed');
  assert.equal(semi.state.messages[2].content.startsWith('needs_refinement'), true, 'semi_formed goes straight to the methodologist');
});

test('seed 004: the agent service pauses before send_email and resumes in a new engine', async () => {
  const { createEngine, outbox } = await import('../../examples/agent-service.js');
  const first = createEngine();
  const paused = await first.execute({ messages: [{ role: 'user', content: 'Email support about password resets' }] });
  first.dispose();
  assert.equal(paused.status, 'PAUSED');
  assert.equal(paused.state.pendingAskUser.toolCalls[0].name, 'send_email');
  assert.equal(outbox.length, 0);
  const second = createEngine();
  const done = await second.resume(JSON.parse(JSON.stringify(paused.checkpoint)), approve());
  second.dispose();
  assert.equal(done.status, 'FINISHED');
  assert.equal(outbox.length, 1);
  assert.deepEqual(done.state.toolCalls.map((t) => t.status), ['ok', 'ok']);
});

test('make demo prints a finished trace', () => {
  const out = execFileSync(process.execPath, [new URL('../../examples/research-assistant.js', import.meta.url).pathname], { encoding: 'utf8' });
  assert.match(out, /status: FINISHED after 7 steps/);
  assert.match(out, /model: offline simulator/);
});

test('seed 003 over HTTP: the research loop against the strict OpenAI server', async () => {
  const { researchDefinition, researchInput, offline } = await import('../../examples/research-assistant.js');
  const llm = await startServer(fromPolicy(offline));
  try {
    const engine = new GraphEngine(researchDefinition({ baseURL: llm.baseURL, model: 'gpt-4o-mini' }), { maxSteps: 20 });
    const r = await engine.execute(researchInput('people code better with music'));
    engine.dispose();
    assert.equal(r.status, 'FINISHED', r.error?.message);
    assert.equal(r.state.data.review.status, 'approved');
    assert.equal(r.state.stepCount, 7);
    assert.equal(llm.requests.length, 7, 'classify, then structure and review three times');
    assert.ok(llm.requests.every((q) => q.body.stream === true && q.body.temperature === 0));
  } finally { await llm.close(); }
});

test('seed 004 over HTTP: pause, approve or reject in a new engine, against the strict OpenAI server', async () => {
  const { agentServiceDefinition, offline } = await import('../../examples/agent-service.js');
  for (const [decision, sent, last] of [[approve(), 1, /I sent the email/], [reject('not today'), 0, /did not send/]]) {
    const llm = await startServer(fromPolicy(offline));
    try {
      const box = [];
      const definition = agentServiceDefinition({ baseURL: llm.baseURL, model: 'gpt-4o-mini' }, box);
      const first = new GraphEngine(definition, { maxSteps: 12 });
      const paused = await first.execute({ messages: [{ role: 'user', content: 'Email support about password resets' }] });
      first.dispose();
      assert.equal(paused.status, 'PAUSED', paused.error?.message);
      const second = new GraphEngine(definition, { maxSteps: 12 });
      const done = await second.resume(JSON.parse(JSON.stringify(paused.checkpoint)), decision);
      second.dispose();
      assert.equal(done.status, 'FINISHED', done.error?.message);
      assert.equal(box.length, sent);
      assert.match(done.state.lastModelOutput, last);
      assert.deepEqual(llm.requests.at(-1).body.messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    } finally { await llm.close(); }
  }
});

test('make demo-cli with OPENAI_BASE_URL set talks to that server: the strict OpenAI server', async () => {
  const { offline } = await import('../../examples/research-assistant.js');
  const llm = await startServer(fromPolicy(offline), { apiKey: 'sk-example' });
  try {
    const env = { ...process.env, OPENAI_BASE_URL: llm.baseURL, OPENAI_API_KEY: 'sk-example', EDGEGRAPH_MODEL: 'gpt-4o-mini' };
    const { stdout } = await promisify(execFile)(process.execPath, [new URL('../../examples/research-assistant.js', import.meta.url).pathname], { encoding: 'utf8', env });
    assert.match(stdout, /status: FINISHED after 7 steps/);
    assert.ok(stdout.includes(`model: gpt-4o-mini at ${llm.baseURL}`), stdout);
    assert.equal(llm.requests.length, 7, 'classify, then structure and review three times');
  } finally { await llm.close(); }
});

test('the research assistant with EDGEGRAPH_PROVIDER=anthropic talks to the strict Anthropic server', async () => {
  const { offline } = await import('../../examples/research-assistant.js');
  const { startAnthropicServer, message, textBlock } = await import('./support/anthropic-server.js');
  // The same offline policy, read from and answered in Anthropic's shape.
  const text = (content) => (typeof content === 'string' ? content : content.map((b) => b.text ?? '').join(''));
  const llm = await startAnthropicServer(async ({ body }) => {
    const answer = await offline({ messages: [{ role: 'system', content: body.system }, ...body.messages.map((m) => ({ role: m.role, content: text(m.content) }))] });
    return { reply: message([textBlock(typeof answer === 'string' ? answer : answer.content ?? '')]) };
  }, { apiKey: 'sk-ant-example' });
  try {
    const env = { ...process.env, EDGEGRAPH_PROVIDER: 'anthropic', EDGEGRAPH_BASE_URL: llm.baseURL, ANTHROPIC_API_KEY: 'sk-ant-example', EDGEGRAPH_MODEL: 'claude-test' };
    const { stdout } = await promisify(execFile)(process.execPath, [new URL('../../examples/research-assistant.js', import.meta.url).pathname], { encoding: 'utf8', env });
    assert.match(stdout, /status: FINISHED after 7 steps/);
    assert.ok(stdout.includes(`model: claude-test (anthropic at ${llm.baseURL})`), stdout);
    assert.equal(llm.requests.length, 7);
  } finally { await llm.close(); }
});
