// Hostile input, load and leaks: every case ends in a typed error (or a
// correct result) and the engine keeps working afterwards.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, StateManager, ChatHistoryManager, createAgentNode, createChatClient, memoryUsage } from 'edgegraph';
import { collect, withLeakWarnings } from './support/leaks.js';
import { startServer, reply, call } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

const oneNode = (fn) => ({ nodes: { a: fn }, edges: { a: '__end__' }, entryPoint: 'a' });
/** A one-node engine, disposed when the test `t` ends. */
const one = (t, fn, options) => disposeAfter(t, new GraphEngine(oneNode(fn), options));
const healthy = async (t) => assert.equal((await one(t, () => ({ data: { ok: true } })).execute({})).state.data.ok, true);

test('deep nesting (100,000 levels) in a result, an input and a checkpoint', async (t) => {
  let deep = {};
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  const r = await one(t, () => ({ data: deep })).execute({});
  assert.equal(r.error.code, 'INVALID_RESULT');
  assert.match(r.error.message, /cannot be written as JSON|nest/);
  const text = '{"a":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
  await assert.rejects(one(t, () => ({})).resume(text), (e) => e.code === 'INVALID_CHECKPOINT');
  await assert.rejects(one(t, () => ({})).execute(JSON.parse('{"a":' + '['.repeat(2000) + ']'.repeat(2000) + '}')), (e) => e.code === 'INVALID_INPUT');
  await healthy(t);
});

test('huge strings: past maxResultBytes a clear LIMIT_EXCEEDED naming the node; within it, kept whole', async (t) => {
  const big = 'x'.repeat(20 * 1024 * 1024);
  const r = await one(t, () => ({ data: { big } })).execute({});
  assert.equal(r.error.code, 'LIMIT_EXCEEDED');
  assert.equal(r.error.node, 'a');
  assert.match(r.error.message, /maxResultBytes/);
  const ok = await one(t, () => ({ data: { big } }), { limits: { maxResultBytes: 32 * 1024 * 1024 } }).execute({});
  assert.equal(ok.state.data.big.length, big.length);
  await assert.rejects(one(t, () => ({}), { limits: { maxInputBytes: 1000 } }).execute({ blob: 'y'.repeat(2000) }), (e) => e.code === 'LIMIT_EXCEEDED');
  await healthy(t);
});

test('maxStateBytes and maxMessages stop a growing run with LIMIT_EXCEEDED, its state kept', async (t) => {
  const loop = (node, limits) => disposeAfter(t, new GraphEngine({
    nodes: { grow: node },
    edges: { grow: { path: 'data.n', cases: { 40: '__end__' }, default: 'grow' } },
    entryPoint: 'grow',
  }, { limits }));
  // Overwriting the same key stays within 4 KB however many bytes the results add up to.
  const steady = await loop((s) => ({ data: { n: (s.data.n ?? 0) + 1, pad: 'p'.repeat(500) } }), { maxStateBytes: 4096 }).execute({});
  assert.equal(steady.status, 'FINISHED');
  // Adding a key per step passes 4 KB: the run stops at that step, with everything merged so far.
  const big = await loop((s) => ({ data: { n: (s.data.n ?? 0) + 1, [`k${s.data.n ?? 0}`]: 'p'.repeat(500) } }), { maxStateBytes: 4096 }).execute({});
  assert.equal(big.status, 'ERROR');
  assert.equal(big.error.code, 'LIMIT_EXCEEDED');
  assert.equal(big.error.node, 'grow');
  assert.match(big.error.message, /more than maxStateBytes \(4096\)/);
  assert.ok(JSON.stringify(big.state).length > 4096 && big.state.data.n < 40);
  const chatty = await loop((s) => ({ data: { n: (s.data.n ?? 0) + 1 }, messages: [{ role: 'assistant', content: 'more' }] }), { maxMessages: 10 }).execute({});
  assert.equal(chatty.error.code, 'LIMIT_EXCEEDED');
  assert.match(chatty.error.message, /node 'grow' the state holds 11 messages, more than maxMessages \(10\)/);
  assert.equal(chatty.state.messages.length, 11);
  await assert.rejects(loop(() => ({}), { maxMessages: -5 }).execute({}), (e) => e.code === 'INVALID_OPTIONS' && /maxMessages/.test(e.message));
  await healthy(t);
});

test('numbers out of range, lone surrogates and duplicate keys', async (t) => {
  // Numbers JSON cannot hold are refused (JSON would write null), never silently lost.
  for (const bad of [Infinity, NaN, 1e308 * 10]) {
    const refused = await one(t, () => ({ data: { n: bad } })).execute({});
    assert.equal(refused.error.code, 'INVALID_RESULT');
    assert.match(refused.error.message, /'data\.n'/);
  }
  const r = await one(t, () => ({ data: { s: 'a\ud800b', t: '\udfff' } })).execute({});
  assert.equal(r.status, 'FINISHED');
  assert.deepEqual(r.state.data, { s: 'a\ufffdb', t: '\ufffd' });
  // Duplicate keys read as JSON.parse reads them (the last wins), in the core too:
  // a checkpoint with a repeated key that changes a value fails its checksum; one that repeats the same value restores.
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({ data: { k: 'one' }, shouldPause: true }), b: (s) => ({ data: { seen: s.data.k } }) }, edges: { a: 'b', b: '__end__' }, entryPoint: 'a' }));
  const paused = await engine.execute({ data: {} });
  assert.ok(paused.checkpoint.includes('"k":"one"'));
  await assert.rejects(engine.resume(paused.checkpoint.replace('"k":"one"', '"k":"one","k":"two"')), (e) => e.code === 'INVALID_CHECKPOINT');
  const done = await engine.resume(paused.checkpoint.replace('"k":"one"', '"k":"zero","k":"one"'));
  assert.equal(done.state.data.seen, 'one');
});

test('a checkpoint with every non-ASCII character escaped (a character above U+FFFF as a pair of \\u escapes, as Python and PHP write JSON) resumes with its text whole; lone ones still become U+FFFD', async (t) => {
  const text = 'smile \u{1F600}, 漢字, é; \u{10FFFF}';
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({ data: { text }, shouldPause: true }), b: (s) => ({ data: { seen: s.data.text } }) }, edges: { a: 'b', b: '__end__' }, entryPoint: 'a' }));
  const paused = await engine.execute({ data: {} });
  // What json.dumps(ensure_ascii=True) gives for the same JSON value.
  const escape = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const ascii = paused.checkpoint.replace(/[^\x00-\x7f]/g, escape);
  assert.ok(ascii.includes('\\ud83d\\ude00') && JSON.parse(ascii).state.data.text === text);
  const done = await engine.resume(ascii);
  assert.equal(done.status, 'FINISHED', done.error?.message);
  assert.equal(done.state.data.seen, text);
  // A lone escape beside a pair: only the lone one is replaced (a high one before a high one, a low one after an escaped backslash).
  const r = await one(t, () => ({ data: { s: 'a\ud83d\u{1F600}b', t: '\\\udc00' } })).execute({});
  assert.deepEqual(r.state.data, { s: 'a\ufffd\u{1F600}b', t: '\\\ufffd' });
  engine.dispose();
});

test('__proto__, constructor and prototype stay data in results, states and checkpoints', async (t) => {
  const evil = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":{"x":1}}');
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({ data: evil, ...JSON.parse('{"__proto__":{"top":1}}'), shouldPause: true }), b: () => ({}) }, edges: { a: 'b', b: '__end__' }, entryPoint: 'a' }));
  const paused = await engine.execute(JSON.parse('{"__proto__":{"input":1},"data":{}}'));
  const cp = paused.checkpoint.replace('"format"', '"__proto__":{"polluted":3},"format"');
  await assert.rejects(engine.resume(cp), (e) => e.code === 'INVALID_CHECKPOINT'); // edited: checksum
  const done = await engine.resume(paused.checkpoint);
  assert.equal(done.status, 'FINISHED');
  assert.equal(({}).polluted, undefined);
  assert.equal(({}).top, undefined);
  assert.equal(({}).input, undefined);
  assert.deepEqual(Object.keys(done.state.data), ['__proto__', 'constructor', 'prototype']);
  assert.equal(Object.getPrototypeOf(done.state), Object.prototype);
});

test('a tool returning a cyclic object, an LLM stream of 100 MB, a stream that never ends', async (t) => {
  const server = await startServer([
    { json: reply(null, [call('c1', 'loop', {})]) },
    { json: reply('recovered') },
    async () => ({ sse: Array.from({ length: 2000 }, () => ({ choices: [{ index: 0, delta: { content: 'x'.repeat(50_000) } }] })) }), // ~100 MB
    { sse: Array.from({ length: 400 }, () => ({ choices: [{ index: 0, delta: { content: 'tick ' } }] })), gapMs: 10, end: 'stall' },
  ]);
  try {
    const loop = { name: 'loop', parameters: { type: 'object' }, run: () => { const o = { a: 1 }; o.self = o; return o; } };
    const agent = one(t, createAgentNode({ llm: { baseURL: server.baseURL, model: 'm' }, tools: [loop], stream: false }));
    const r = await agent.execute({ messages: [{ role: 'user', content: 'go' }] });
    assert.equal(r.status, 'FINISHED');
    assert.match(r.state.toolCalls[0].error, /cannot be written as JSON/);
    const client = createChatClient({ baseURL: server.baseURL, model: 'm', maxRetries: 0, maxResponseBytes: 5 * 1024 * 1024, maxStreamMs: 1500, timeoutMs: 5000 });
    await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'flood' }], stream: true }), (e) => e.code === 'LLM_BAD_RESPONSE' && /maxResponseBytes/.test(e.message));
    await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'forever' }], stream: true }), (e) => e.code === 'LLM_TIMEOUT' && /maxStreamMs/.test(e.message));
  } finally {
    await server.close();
  }
});

test('10,000 concurrent runs with interleaved async nodes: no cross-talk', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      start: async (s) => { await new Promise((r) => setTimeout(r, s.data.id % 7)); return { data: { seen: [s.data.id] } }; },
      fan: async (s, e, ctx) => { await new Promise((r) => setImmediate(r)); return { results: [`${s.data.id}:${ctx.arg}`] }; },
      end: (s) => ({ data: { sum: s.results.length, mine: s.results.every((x) => x.startsWith(`${s.data.id}:`)) } }),
    },
    edges: { start: { map: 'data.items', to: 'fan' }, fan: 'end', end: '__end__' },
    entryPoint: 'start',
    state: { shape: 'frame', reducers: { results: 'concat' }, defaults: { results: [] } },
  }));
  const runs = Array.from({ length: 10_000 }, (_, id) => engine.execute({ data: { id, items: [id % 3, (id + 1) % 3] } }));
  const results = await Promise.all(runs);
  results.forEach((r, id) => {
    assert.equal(r.status, 'FINISHED');
    assert.deepEqual(r.state.data.seen, [id]);
    assert.deepEqual(r.state.results, [`${id}:${id % 3}`, `${id}:${(id + 1) % 3}`]);
    assert.equal(r.state.data.mine, true);
  });
});

test('a handle dropped without dispose() is freed by the backstop, with a warning', () => withLeakWarnings(async (warnings) => {
  (() => { new GraphEngine(oneNode(() => ({}))); new StateManager(); new ChatHistoryManager(); })();
  await collect({ rounds: 10, enough: () => warnings.length >= 3 });
  assert.ok(warnings.some((w) => /a GraphEngine was garbage-collected without dispose/.test(w)), warnings.join('\n'));
  assert.ok(warnings.some((w) => /StateManager/.test(w)));
  assert.ok(warnings.some((w) => /ChatHistoryManager/.test(w)));
  const disposed = new ChatHistoryManager();
  disposed.dispose();
  const before = warnings.length;
  await collect({ rounds: 1 });
  assert.equal(warnings.length, before, 'a disposed handle does not warn');
}));

test('a soak in small: 50,000 steps and 5,000 runs, WebAssembly memory flat after warm-up', async (t) => {
  const nodes = {}, edges = {};
  for (let i = 0; i < 10; i++) { nodes[`n${i}`] = (s) => ({ data: { i } }); edges[`n${i}`] = i < 9 ? `n${i + 1}` : '__end__'; }
  const engine = disposeAfter(t, new GraphEngine({ nodes, edges, entryPoint: 'n0' }));
  for (let i = 0; i < 500; i++) await engine.execute({ data: {} });
  const before = memoryUsage().wasmMemoryBytes;
  for (let i = 0; i < 5000; i++) await engine.execute({ data: {} });
  assert.equal(memoryUsage().wasmMemoryBytes, before);
  engine.dispose();
});
