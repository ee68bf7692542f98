// Agent nodes on a real loopback LLM server: the seed's example as written,
// the tool loop, argument validation, concurrency, approvals across JSON and
// a new engine, ask-user, and the API key kept out of everything.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, createAgentNode, createAskUserNode, createEndNode, approve, reject, editArguments } from 'edgegraph';
import { startServer, reply, call } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

const KEY = 'sk-agent-SECRET-9876543210';

async function withServer(script, fn) {
  const server = await startServer(script);
  try { return await fn(server); } finally { await server.close(); }
}

test("seed 000's example runs as written (with a baseURL to the loopback server)", (t) => withServer([{ json: reply('Hello! How can I help?') }], async (s) => {
  const agentNode = createAgentNode({
    llm: { model: 'gpt-4', apiKey: '...', baseURL: s.baseURL },
    mode: 'react',
    agentInfo: { name: 'Assistant', goal: 'Help users', backstory: '...' },
  });
  const graphDefinition = { nodes: { start: agentNode, end: createEndNode() }, edges: { start: { default: 'end' } }, entryPoint: 'start' };
  const engine = disposeAfter(t, new GraphEngine(graphDefinition));
  const result = await engine.execute({ messages: [{ role: 'user', content: 'Hello!' }], data: {}, metadata: {} });
  assert.equal(result.status, 'FINISHED');
  assert.equal(result.finalState.messages.at(-1).content, 'Hello! How can I help?');
  const sent = s.requests[0].body.messages;
  assert.equal(sent[0].role, 'system');
  assert.match(sent[0].content, /You are Assistant\.\nYour goal: Help users/);
  assert.deepEqual(sent[1], { role: 'user', content: 'Hello!' });
}));

const weather = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, run: ({ city }) => ({ city, sky: 'sunny' }) };

test('react loop: tool results go back in call order; bad arguments and throwing tools become tool results', (t) => withServer([
  { json: reply(null, [call('c1', 'get_weather', { city: 'Lisbon' }), call('c2', 'get_weather', { town: 'Porto' }), call('c3', 'explode', {}), call('c4', 'get_weather', '{"city": ')]) },
  { json: reply('Lisbon is sunny.') },
], async (s) => {
  const explode = { name: 'explode', description: 'fails', parameters: { type: 'object' }, run: () => { throw new Error('kaboom'); } };
  const engine = disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: { baseURL: s.baseURL, model: 'm' }, tools: [weather, explode], stream: false }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
  const r = await engine.execute({ messages: [{ role: 'user', content: 'weather?' }] });
  assert.equal(r.status, 'FINISHED');
  assert.equal(r.state.lastModelOutput, 'Lisbon is sunny.');
  const second = s.requests[1].body.messages;
  const tools = second.filter((m) => m.role === 'tool');
  assert.deepEqual(tools.map((m) => m.tool_call_id), ['c1', 'c2', 'c3', 'c4']);
  assert.equal(tools[0].content, '{"city":"Lisbon","sky":"sunny"}');
  assert.match(tools[1].content, /^Error: invalid arguments: \$\.city: is required; \$\.town: is not an allowed property/);
  assert.equal(tools[2].content, 'Error: kaboom');
  assert.match(tools[3].content, /^Error: the arguments are not valid JSON/);
  assert.deepEqual(r.state.toolCalls.map((t) => [t.name, t.status]), [['get_weather', 'ok'], ['get_weather', 'error'], ['explode', 'error'], ['get_weather', 'error']]);
  assert.ok(r.state.toolCalls.every((t) => typeof t.durationMs === 'number'));
  assert.equal(r.state.lastToolCall.id, 'c4');
  assert.deepEqual(s.requests[0].body.tools.map((t) => t.function.name), ['get_weather', 'explode']);
}));

test('tool calls of one reply run concurrently', (t) => withServer([
  { json: reply(null, [call('a', 'first', {}), call('b', 'second', {})]) },
  { json: reply('done') },
], async (s) => {
  // `first` waits for `second` to start: run one after the other, this would hang.
  let release;
  const gate = new Promise((r) => { release = r; });
  const first = { name: 'first', parameters: { type: 'object' }, run: async () => { await gate; return 'first done'; } };
  const second = { name: 'second', parameters: { type: 'object' }, run: () => { release(); return 'second done'; } };
  const engine = disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: { baseURL: s.baseURL, model: 'm' }, tools: [first, second], stream: false }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
  const r = await engine.execute({ messages: [{ role: 'user', content: 'go' }] });
  assert.equal(r.status, 'FINISHED');
  assert.deepEqual(s.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content), ['first done', 'second done']);
}));

function approvalGraph(t, baseURL, sent) {
  const sendEmail = {
    name: 'send_email',
    description: 'Send an email',
    parameters: { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' } }, required: ['to'] },
    needsApproval: true,
    run: (args) => { sent.push(args); return { sent: true }; },
  };
  return disposeAfter(t, new GraphEngine({
    nodes: { agent: createAgentNode({ llm: { baseURL, model: 'm', apiKey: KEY }, tools: [sendEmail, weather], agentInfo: { name: 'Mailer' } }) },
    edges: { agent: '__end__' },
    entryPoint: 'agent',
  }));
}

for (const [label, decision, expectSent, expectToolText] of [
  ['approve', approve(), [{ to: 'support@example.com', subject: 'Hi' }], '{"sent":true}'],
  ['reject with a reason', reject('not to that address'), [], 'The user rejected this call: not to that address'],
  ['edited arguments', editArguments({ to: 'team@example.com', subject: 'Hi' }), [{ to: 'team@example.com', subject: 'Hi' }], '{"sent":true}'],
]) {
  test(`approval: pause, through JSON and a new engine, resume with ${label}`, (t) => withServer([
    { sse: [{ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'mail1', type: 'function', function: { name: 'send_email', arguments: '{"to":"support@example.com","subject":"Hi"}' } }] } }] }, { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }] },
    { sse: [{ choices: [{ index: 0, delta: { content: 'All done.' } }] }, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }] },
  ], async (s) => {
    const sent = [];
    const events = [];
    const paused = await approvalGraph(t, s.baseURL, sent).execute({ messages: [{ role: 'user', content: 'Email support@example.com' }] }, { onEvent: (e) => events.push(e) });
    assert.equal(paused.status, 'PAUSED');
    assert.deepEqual(paused.state.pendingAskUser, { type: 'tool_approval', node: 'agent', toolCalls: [{ id: 'mail1', name: 'send_email', arguments: { to: 'support@example.com', subject: 'Hi' }, needsApproval: true }] });
    assert.deepEqual(sent, [], 'nothing sent before approval');
    const stored = JSON.parse(JSON.stringify(paused.checkpoint)); // a string through storage
    const done = await approvalGraph(t, s.baseURL, sent).resume(stored, decision, { onEvent: (e) => events.push(e) });
    assert.equal(done.status, 'FINISHED');
    assert.deepEqual(sent, expectSent);
    const toolMessage = s.requests[1].body.messages.find((m) => m.role === 'tool');
    assert.equal(toolMessage.content, expectToolText, 'the LLM sees the outcome');
    assert.equal(done.state.lastModelOutput, 'All done.');
    assert.equal(done.state.approval, null);
    assert.ok(events.some((e) => e.type === 'llm_token' && e.text === 'All done.' && e.node === 'agent'));
    // The key is nowhere: state, checkpoints, events, requests' bodies.
    const everything = JSON.stringify([paused, done, stored, events, s.requests.map((r) => r.body)]);
    assert.equal(everything.includes(KEY), false);
    assert.equal(s.requests[0].headers.authorization, `Bearer ${KEY}`);
  }));
}

test('an ask-user node pauses with a question and resumes with the answer', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { ask: createAskUserNode({ question: 'Which city?', answerKey: 'city' }), use: (s) => ({ logs: [`city = ${s.data.city}`] }) },
    edges: { ask: 'use', use: '__end__' },
    entryPoint: 'ask',
  }));
  const paused = await engine.execute({});
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(paused.state.pendingAskUser, { type: 'question', node: 'ask', question: 'Which city?' });
  const done = await engine.resume(JSON.parse(JSON.stringify(paused.state)), { role: 'user', content: 'Lisbon' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.logs, ['city = Lisbon']);
  assert.deepEqual(done.state.messages.map((m) => m.content), ['Which city?', 'Lisbon']);
});

test('an LLM failure inside an agent node ends the run in ERROR naming the node; the key is not in it', (t) => withServer([
  { status: 401, body: JSON.stringify({ error: { message: `bad key ${KEY}` } }) },
], async (s) => {
  const engine = disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: { baseURL: s.baseURL, model: 'm', apiKey: KEY }, stream: false }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
  const r = await engine.execute({ messages: [{ role: 'user', content: 'x' }] });
  assert.equal(r.status, 'ERROR');
  assert.equal(r.error.node, 'agent');
  assert.match(r.error.message, /401/);
  assert.equal(JSON.stringify([r.state, r.checkpoint, r.error.message, String(r.error.cause)]).includes(KEY), false);
}));
