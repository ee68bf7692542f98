// The two seed graphs as runnable examples (offline simulator), and the demo.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

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
  const { approve } = await import('edgegraph');
  const paused = await createEngine().execute({ messages: [{ role: 'user', content: 'Email support about password resets' }] });
  assert.equal(paused.status, 'PAUSED');
  assert.equal(paused.state.pendingAskUser.toolCalls[0].name, 'send_email');
  assert.equal(outbox.length, 0);
  const done = await createEngine().resume(JSON.parse(JSON.stringify(paused.checkpoint)), approve());
  assert.equal(done.status, 'FINISHED');
  assert.equal(outbox.length, 1);
  assert.deepEqual(done.state.toolCalls.map((t) => t.status), ['ok', 'ok']);
});

test('make demo prints a finished trace', () => {
  const out = execFileSync(process.execPath, [new URL('../../examples/research-assistant.js', import.meta.url).pathname], { encoding: 'utf8' });
  assert.match(out, /status: FINISHED after 7 steps/);
  assert.match(out, /model: offline simulator/);
});
