// The tool-approval flow against the strict OpenAI server: every request is
// one api.openai.com would accept, and a tool's side effect happens exactly
// once, whatever fails after it and however often its checkpoint is resumed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, createAgentNode, createLLMNode, createToolsNode, routeOnToolCalls, approve, reject, editArguments } from 'edgegraph';
import { startServer, reply, call } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

const serverError = { status: 500, body: '{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}' };

function mailer(t, baseURL, sent, options = {}) {
  const sendEmail = {
    name: 'send_email',
    description: 'Send an email',
    parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    needsApproval: true,
    run: (args) => { sent.push(args.to); return { sent: true }; },
  };
  const lookup = { name: 'lookup', parameters: { type: 'object', properties: {} }, run: () => 'bob@example.com' };
  return disposeAfter(t, new GraphEngine({
    nodes: { agent: createAgentNode({ llm: { baseURL, model: 'm', maxRetries: 0 }, tools: [sendEmail, lookup], agentInfo: { name: 'Mailer' } }) },
    edges: { agent: '__end__' },
    entryPoint: 'agent',
  }, options));
}

/** A strict server whose model asks to email bob, then answers `finalReply`; the mailer paused for approval. */
async function pausedMailer(t, finalReply) {
  const s = await startServer([
    { json: reply(null, [call('mail1', 'send_email', { to: 'bob@example.com' })]) },
    { json: reply(finalReply) },
  ]);
  const sent = [];
  const paused = await mailer(t, s.baseURL, sent).execute({ messages: [{ role: 'user', content: 'email bob' }] });
  return { s, sent, paused };
}

for (const [label, decision, expectSent] of [
  ['approve()', approve(), ['bob@example.com']],
  ['reject()', reject('wrong person'), []],
  ['editArguments()', editArguments({ to: 'team@example.com' }), ['team@example.com']],
]) {
  test(`resume with ${label}: the strict server accepts every request, and the run finishes`, async (t) => {
    const { s, sent, paused } = await pausedMailer(t, 'Done.');
    try {
      assert.equal(paused.status, 'PAUSED');
      const done = await mailer(t, s.baseURL, sent).resume(paused.checkpoint, decision);
      assert.deepEqual(s.rejected, [], 'no request the real API would refuse');
      assert.equal(done.status, 'FINISHED', done.error?.message);
      assert.deepEqual(sent, expectSent);
      const roles = s.requests[1].body.messages.map((m) => m.role);
      assert.deepEqual(roles, ['system', 'user', 'assistant', 'tool']);
    } finally { await s.close(); }
  });
}

test('an approved tool runs once: the LLM call after it fails, and resuming that checkpoint three times never re-runs it', async (t) => {
  const s = await startServer([
    { json: reply(null, [call('mail1', 'send_email', { to: 'bob@example.com' })]) },
    serverError, serverError, serverError,
    { json: reply('Sent it.') },
  ]);
  try {
    const sent = [];
    const paused = await mailer(t, s.baseURL, sent).execute({ messages: [{ role: 'user', content: 'email bob' }] });
    const failed = await mailer(t, s.baseURL, sent).resume(paused.checkpoint, approve());
    assert.equal(failed.status, 'ERROR');
    assert.equal(failed.error.code, 'NODE_FAILED');
    assert.match(failed.error.message, /500/);
    assert.deepEqual(sent, ['bob@example.com']);
    assert.ok(failed.state.messages.some((m) => m.role === 'tool' && m.tool_call_id === 'mail1'), 'the result is recorded in the failed run\'s state');
    // Each resume of the failed run's checkpoint: still no second email.
    let last = failed;
    for (let i = 0; i < 3; i++) {
      last = await mailer(t, s.baseURL, sent).resume(failed.checkpoint);
      assert.deepEqual(sent, ['bob@example.com'], `resume ${i + 1} did not send again`);
    }
    assert.equal(last.status, 'FINISHED', last.error?.message);
    assert.equal(last.state.lastModelOutput, 'Sent it.');
    assert.deepEqual(s.rejected, []);
  } finally { await s.close(); }
});

test('with a checkpointer: a tool not needing approval runs once even when the next LLM call fails', async (t) => {
  // Like a model: asked without the lookup's result, it asks for the lookup.
  const model = (request) => (request.body.messages.at(-1).role === 'tool' ? { json: reply('Found bob.') } : { json: reply(null, [call('l1', 'lookup', {})]) });
  const s = await startServer([model, serverError, model]);
  try {
    let lookups = 0;
    const store = new MemoryStore();
    const counting = { name: 'lookup', parameters: { type: 'object', properties: {} }, run: () => { lookups++; return 'bob@example.com'; } };
    const counted = disposeAfter(t, new GraphEngine({
      nodes: { agent: createAgentNode({ llm: { baseURL: s.baseURL, model: 'm', maxRetries: 0 }, tools: [counting] }) },
      edges: { agent: '__end__' },
      entryPoint: 'agent',
    }, { checkpointer: store }));
    const failed = await counted.execute({ messages: [{ role: 'user', content: 'who?' }] }, { threadId: 't' });
    assert.equal(failed.status, 'ERROR');
    assert.equal(lookups, 1);
    const done = await counted.resume({ threadId: 't' });
    assert.equal(done.status, 'FINISHED', done.error?.message);
    assert.equal(lookups, 1, 'the recorded lookup did not run again');
    assert.deepEqual(s.rejected, []);
    counted.dispose();
  } finally { await s.close(); }
});

test('no instructions, no system message: chat and react agents and an LLM node send the conversation alone', async (t) => {
  const s = await startServer(() => ({ json: reply('hi') }));
  try {
    const llm = { baseURL: s.baseURL, model: 'm' };
    for (const node of [createAgentNode({ llm, mode: 'chat' }), createAgentNode({ llm, agentInfo: {} }), createAgentNode({ llm, agentInfo: { name: '' }, systemPrompt: '' }), createLLMNode({ llm })]) {
      const engine = disposeAfter(t, new GraphEngine({ nodes: { agent: node }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
      const r = await engine.execute({ messages: [{ role: 'user', content: 'hello' }] });
      assert.equal(r.status, 'FINISHED');
      assert.deepEqual(s.requests.at(-1).body.messages, [{ role: 'user', content: 'hello' }]);
      engine.dispose();
    }
    assert.equal(s.requests.length, 4);
  } finally { await s.close(); }
});

test('the explicit loop (LLM node, tools node): an approved tool runs once across a failing LLM call and repeated resumes', async (t) => {
  const s = await startServer([
    { json: reply(null, [call('mail1', 'send_email', { to: 'bob@example.com' })]) },
    serverError, serverError,
    { json: reply('Sent it.') },
  ]);
  try {
    const sent = [];
    const tools = [{ name: 'send_email', parameters: { type: 'object', properties: { to: { type: 'string' } } }, needsApproval: true, run: (args) => { sent.push(args.to); return 'sent'; } }];
    const graph = () => disposeAfter(t, new GraphEngine({
      nodes: { llm: createLLMNode({ llm: { baseURL: s.baseURL, model: 'm', maxRetries: 0 }, tools, systemPrompt: 'You send mail.' }), tools: createToolsNode({ tools }) },
      edges: { llm: routeOnToolCalls('tools'), tools: 'llm' },
      entryPoint: 'llm',
    }));
    const paused = await graph().execute({ messages: [{ role: 'user', content: 'email bob' }] });
    assert.equal(paused.status, 'PAUSED');
    const failed = await graph().resume(paused.checkpoint, approve());
    assert.equal(failed.status, 'ERROR');
    assert.deepEqual(sent, ['bob@example.com']);
    const again = await graph().resume(failed.checkpoint, approve());
    assert.equal(again.status, 'ERROR', 'the second LLM failure');
    const done = await graph().resume(failed.checkpoint);
    assert.equal(done.status, 'FINISHED', done.error?.message);
    assert.deepEqual(sent, ['bob@example.com']);
    assert.deepEqual(s.requests.at(-1).body.messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool']);
  } finally { await s.close(); }
});

test('two tool rounds, the LLM fails after each: every tool runs once, and a call needing no approval waits with the one that does', async (t) => {
  // Round 1: a lookup (no approval) and an email (approval) in one reply; round 2: a second lookup.
  const s = await startServer([
    { json: reply(null, [call('l1', 'lookup', { who: 'bob' }), call('m1', 'send_email', { to: 'bob@example.com' })]) },
    serverError,
    { json: reply(null, [call('l2', 'lookup', { who: 'ann' })]) },
    serverError, serverError,
    { json: reply('Both done.') },
  ]);
  try {
    const runs = [];
    const tools = [
      { name: 'lookup', parameters: { type: 'object', properties: { who: { type: 'string' } } }, run: ({ who }) => { runs.push(`lookup ${who}`); return `${who}@example.com`; } },
      { name: 'send_email', parameters: { type: 'object', properties: { to: { type: 'string' } } }, needsApproval: true, run: ({ to }) => { runs.push(`email ${to}`); return 'sent'; } },
    ];
    const graph = () => disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: { baseURL: s.baseURL, model: 'm', maxRetries: 0 }, tools }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
    const paused = await graph().execute({ messages: [{ role: 'user', content: 'find bob and ann, email bob' }] });
    assert.equal(paused.status, 'PAUSED');
    assert.deepEqual(runs, [], 'the lookup waits for the decision on the email of the same reply');
    const first = await graph().resume(paused.checkpoint, approve('m1'));
    assert.equal(first.status, 'ERROR');
    assert.deepEqual(runs, ['lookup bob', 'email bob@example.com']);
    const second = await graph().resume(first.checkpoint);
    assert.equal(second.status, 'ERROR', 'the LLM fails after the second round');
    assert.deepEqual(runs, ['lookup bob', 'email bob@example.com', 'lookup ann']);
    let last;
    for (let i = 0; i < 2; i++) last = await graph().resume(second.checkpoint);
    assert.equal(last.status, 'FINISHED', last.error?.message);
    assert.deepEqual(runs, ['lookup bob', 'email bob@example.com', 'lookup ann'], 'no tool ran twice');
    assert.deepEqual(last.state.toolCalls.map((t) => [t.id, t.status]), [['l1', 'ok'], ['m1', 'ok'], ['l2', 'ok']]);
    assert.deepEqual(s.requests.at(-1).body.messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'tool']);
  } finally { await s.close(); }
});

test('answered with a message instead of a decision: the unanswered calls are left out of the request, and nothing runs', async (t) => {
  const { s, sent, paused } = await pausedMailer(t, 'OK, I will not send it.');
  try {
    const done = await mailer(t, s.baseURL, sent).resume(paused.checkpoint, { role: 'user', content: 'no, do not email anyone' });
    assert.equal(done.status, 'FINISHED', done.error?.message);
    assert.deepEqual(sent, []);
    // The call that was never answered cannot go to OpenAI: the history leaves its group out.
    assert.deepEqual(s.requests[1].body.messages.map((m) => m.role), ['system', 'user', 'user']);
  } finally { await s.close(); }
});

for (const explicit of [false, true]) {
  test(`decisions one resume at a time (${explicit ? 'LLM node and tools node' : 'agent node'}): a decided call runs at once and never again, the run pauses for the rest`, async (t) => {
    const s = await startServer([
      { json: reply(null, [call('m1', 'send_email', { to: 'ann@example.com' }), call('m2', 'send_email', { to: 'bob@example.com' }), call('l1', 'lookup', {})]) },
      { json: reply('Sent to Ann only.') },
      { json: reply('Sent to Ann only.') },
    ]);
    try {
      const sent = [];
      let lookups = 0;
      const tools = [
        { name: 'send_email', parameters: { type: 'object', properties: { to: { type: 'string' } } }, needsApproval: true, run: ({ to }) => { sent.push(to); return 'sent'; } },
        { name: 'lookup', parameters: { type: 'object', properties: {} }, run: () => { lookups++; return 'found'; } },
      ];
      const llm = { baseURL: s.baseURL, model: 'm', maxRetries: 0 };
      const graph = () => disposeAfter(t, new GraphEngine(explicit
        ? { nodes: { llm: createLLMNode({ llm, tools }), tools: createToolsNode({ tools }) }, edges: { llm: routeOnToolCalls('tools'), tools: 'llm' }, entryPoint: 'llm' }
        : { nodes: { agent: createAgentNode({ llm, tools }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
      const paused = await graph().execute({ messages: [{ role: 'user', content: 'email ann and bob' }] });
      assert.equal(paused.status, 'PAUSED');
      assert.deepEqual(paused.state.pendingAskUser.toolCalls.map((c) => c.id), ['m1', 'm2', 'l1']);
      // A resume without a decision changes nothing.
      const same = await graph().resume(paused.checkpoint);
      assert.equal(same.status, 'PAUSED');
      assert.deepEqual([sent, lookups], [[], 0]);
      const half = await graph().resume(paused.checkpoint, approve('m1'));
      assert.equal(half.status, 'PAUSED');
      assert.deepEqual(half.state.pendingAskUser.toolCalls.map((c) => c.id), ['m2'], 'only the undecided call is still pending');
      assert.deepEqual([sent, lookups], [['ann@example.com'], 1], 'the approved call and the one needing no approval ran');
      for (let i = 0; i < 2; i++) {
        const done = await graph().resume(half.checkpoint, reject('not bob', 'm2'));
        assert.equal(done.status, 'FINISHED', done.error?.message);
        assert.deepEqual(done.state.toolCalls.map((t) => [t.id, t.status]), [['m1', 'ok'], ['l1', 'ok'], ['m2', 'rejected']]);
      }
      assert.deepEqual([sent, lookups], [['ann@example.com'], 1], 'resuming the half-decided checkpoint twice ran nothing again');
      const roles = s.requests.at(-1).body.messages.map((m) => m.role);
      assert.deepEqual(roles.filter((r) => r !== 'system'), ['user', 'assistant', 'tool', 'tool', 'tool']);
    } finally { await s.close(); }
  });
}
