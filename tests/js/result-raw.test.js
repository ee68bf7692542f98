// result-raw.test.js: a node's result with long strings crosses into the core
// in parts (result-json.js resultText): its JSON text with each long string
// cut out, the strings written as raw UTF-8 segments (core.js writeOne) that
// eg_run_submit copies without unescaping. The text around them is exactly
// JSON.stringify's; the core's state is, byte for byte, the one the whole
// JSON text gives; lone surrogates, limits, errors and the stream tap are as
// they were.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GraphEngine } from 'edgegraph';
import { StateGraph, MessagesAnnotation } from 'edgegraph/langgraph';
import { Core } from '../../js/core.js';
import { coreImports } from '../../js/core-imports.js';
import { jsonOf, knownWellFormed, resultText } from '../../js/result-json.js';

/** A Core of its own on the built .wasm (a small memory: a long result makes it grow). */
function newCore() {
  let core = null;
  const module = new WebAssembly.Module(readFileSync(new URL('../../dist/edgegraph.wasm', import.meta.url)));
  core = new Core(new WebAssembly.Instance(module, coreImports(() => core)));
  return core;
}
const core = newCore();
const oneNode = core.graphNew(JSON.stringify({ nodes: { a: {} }, edges: { a: '__end__' }, entryPoint: 'a' }));

/** Node a of a fresh run returns `result` (parts or a text): the core's state after, and its step's status. */
function stateAfter(result, options = '', c = core, g = oneNode) {
  const r = c.runNew(g, '{}', options);
  try {
    c.runStep(r);
    c.runSubmit(r, 0, result);
    const [status] = c.runStep(r);
    return { state: c.runState(r), status: c.statusNames[status] ?? status };
  } finally {
    c.runFree(r);
  }
}

let every = '';
for (let c = 1; c < 0x80; c++) every += String.fromCharCode(c);   // every control character but NUL (a case of its own), quote and backslash
const long = `${every}é€\u{1F600}\u2028\u2029\\u0041 \\ud800`.repeat(4);   // (the last two: text that looks like escapes)

class Stamp { constructor(t) { this.t = t; } toJSON(key) { return `${key}@${this.t}`; } }

const values = {
  'a tool message': { messages: [{ role: 'tool', tool_call_id: 'c1', content: long }] },
  'long strings in lists, records and beside every other kind of value': {
    data: { 2: long, 1: 'short', list: [long, 'x', 1.5, -0, 1e21, 5e-324, null, true, [long], { deep: long }], when: new Date(0), gone: undefined, boxed: new String('b'), n: new Number(3) },
  },
  'a NUL in a long string': { data: { nul: `a\u0000${long}` } },
  'toJSON given its key, in a list and in a record': { data: { at: new Stamp(1), list: [new Stamp(2), long] }, text: long },
  'a string of exactly 384 characters, and one of 383': { data: { a: 'x'.repeat(384), b: 'y'.repeat(383) } },
  'a long key, and a long string only a toJSON or a boxed string gives': { data: { ['k'.repeat(500)]: 1, t: { toJSON: () => long }, s: new String(long), text: long } },
  'a null-prototype record and one list twice': (() => { const shared = [long]; return { data: Object.assign(Object.create(null), { a: shared, b: shared }) }; })(),
};

for (const [label, value] of Object.entries(values)) {
  test(`${label}: the text is JSON.stringify's and the core's state is the whole text's, byte for byte`, () => {
    const parts = resultText(value, 'a');
    assert.ok(Array.isArray(parts) && parts.length >= 3, 'it crosses in parts');
    assert.equal(jsonOf(parts), JSON.stringify(value));
    assert.ok(knownWellFormed(parts));
    const raw = stateAfter(parts), text = stateAfter(JSON.stringify(value));
    assert.equal(raw.status, 'FINISHED');
    assert.equal(raw.state, text.state);
  });
}

test('a result without long strings is one JSON text, as before', () => {
  const value = { data: { a: 'x'.repeat(383), n: [1, 2] } };
  assert.equal(resultText(value, 'a'), JSON.stringify(value));
});

test('a long string with a lone surrogate takes the text\'s way and reaches the state as U+FFFD', async () => {
  const value = { data: { t: `${'x'.repeat(500)}\ud800`, u: 'y'.repeat(500) } };
  const text = resultText(value, 'a');
  assert.equal(typeof text, 'string');
  assert.equal(knownWellFormed(text), false);
  const engine = new GraphEngine({ nodes: { a: () => value }, edges: { a: '__end__' }, entryPoint: 'a' });
  const r = await engine.execute({});
  engine.dispose();
  assert.equal(r.state.data.t, `${'x'.repeat(500)}\ufffd`);
  assert.equal(r.state.data.u, 'y'.repeat(500));
});

test('maxResultBytes counts a raw string as its JSON text: the same verdict and byte count as the whole text', () => {
  const value = { data: { t: '"\n\u0001'.repeat(200) } };   // 600 characters, 2,400 bytes as JSON
  const json = JSON.stringify(value);
  for (const limit of [json.length, json.length - 1]) {
    const options = JSON.stringify({ maxResultBytes: limit });
    const raw = stateAfter(resultText(value, 'a'), options), text = stateAfter(json, options);
    assert.equal(raw.status, limit === json.length ? 'FINISHED' : 'ERROR');
    assert.equal(raw.status, text.status);
    assert.equal(raw.state, text.state);
  }
  const engine = new GraphEngine({ nodes: { a: () => value }, edges: { a: '__end__' }, entryPoint: 'a' }, { limits: { maxResultBytes: json.length - 1 } });
  return engine.execute({}).then((r) => {
    engine.dispose();
    assert.equal(r.error.code, 'LIMIT_EXCEEDED');
    assert.match(r.error.message, new RegExp(`returned ${json.length} bytes, more than maxResultBytes \\(${json.length - 1}\\)`));
  });
});

test('raw strings larger than the memory has: the memory grows before they are written, and they arrive whole', () => {
  const fresh = newCore();
  const g = fresh.graphNew(JSON.stringify({ nodes: { a: {} }, edges: { a: '__end__' }, entryPoint: 'a' }));
  const before = fresh.memory.buffer.byteLength;
  const big = (i) => `${i}"\\\n`.repeat(400000);   // 1.6 million characters each, 3 MB as JSON
  const value = { data: { a: big(1), b: [big(2), { c: big(3) }] } };
  const { state, status } = stateAfter(resultText(value, 'a'), '', fresh, g);
  assert.equal(status, 'FINISHED');
  assert.ok(fresh.memory.buffer.byteLength > before, 'the memory grew');
  assert.deepEqual(JSON.parse(state).data, JSON.parse(JSON.stringify(value)).data);
  fresh.graphFree(g);
});

test('bad values beside long strings are INVALID_RESULT naming the node and the path, as before', async () => {
  const cycle = { data: { list: [], text: 'z'.repeat(1000) } };
  cycle.data.list.push({ up: cycle.data });
  const cases = [
    [{ data: { text: long, index: new Map([['a', 1]]) } }, /a Map without toJSON at 'data.index'/],
    [{ data: { list: [long, NaN] } }, /NaN at 'data.list\[1\]'/],
    [{ data: { list: [long, undefined] } }, /undefined in a list at 'data.list\[1\]'/],
    [{ data: { text: long, n: 10n } }, /a BigInt at 'data.n'/],
    [cycle, /a cycle\) at 'data.list\[0\].up'/],
    [{ data: { text: long, t: { toJSON() { throw new Error('no JSON for me'); } } } }, /no JSON for me/],
  ];
  for (const [result, message] of cases) {
    const engine = new GraphEngine({ nodes: { first: () => ({ data: { kept: true } }), a: () => result }, edges: { first: 'a', a: '__end__' }, entryPoint: 'first' });
    const r = await engine.execute({});
    engine.dispose();
    assert.equal(r.status, 'ERROR');
    assert.equal(r.error.code, 'INVALID_RESULT');
    assert.equal(r.error.node, 'a');
    assert.match(r.error.message, message);
    assert.equal(r.state.data.kept, true, 'the partial state is returned');
  }
});

test('a value that changes between the check and the write never traps the core: it crosses as its JSON text', async () => {
  let calls = 0;
  const fickle = { toJSON: () => (++calls % 2 ? 'first' : undefined) };   // a value the first time, none the next
  const text = 'w"'.repeat(500), value = { data: { text, fickle } };
  const out = resultText(value, 'a');   // (toJSON: 'first' to the check, nothing to the cut, 'first' to JSON.stringify)
  assert.equal(typeof out, 'string');
  assert.deepEqual(JSON.parse(out).data, { text, fickle: 'first' });
  const { state, status } = stateAfter(out);
  assert.equal(status, 'FINISHED');
  assert.deepEqual(JSON.parse(state).data, { text, fickle: 'first' });
});

test('the stream (LangGraph updates) sees a result with long strings as JSON', async () => {
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('tools', () => ({ messages: [{ role: 'tool', tool_call_id: 'c1', content: long, id: 't1' }] }))
    .addEdge('__start__', 'tools')
    .addEdge('tools', '__end__')
    .compile();
  const chunks = [];
  for await (const chunk of await graph.stream({ messages: [] }, { streamMode: 'updates' })) chunks.push(chunk);
  assert.equal(chunks.length, 1);
  assert.equal(chunks[0].tools.messages[0].content, long);
  const state = await graph.invoke({ messages: [] });
  assert.equal(state.messages.at(-1).content, long);
});
