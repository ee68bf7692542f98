// Joins and deferred nodes: a node reached by parallel branches at different
// depths runs once, after all of them; a branch routed elsewhere never drops
// the join; defer: true waits for every other branch. On the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, EdgegraphError } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const tracer = (names, extra = {}) => {
  const ran = [];
  const nodes = {};
  for (const n of names) nodes[n] = (s) => { ran.push(n); return { seen: [n] }; };
  return { ran, nodes: { ...nodes, ...extra } };
};
const state = { reducers: { seen: 'concat' }, defaults: { seen: [] } };

test('a join reached at different depths runs once, after both branches (an implicit join: plain edges from two sources)', async (t) => {
  const { ran, nodes } = tracer(['a', 'b', 'c', 'e', 'd']);
  const engine = disposeAfter(t, new GraphEngine({ nodes, edges: { a: ['b', 'c'], b: 'd', c: 'e', e: 'd', d: '__end__' }, entryPoint: 'a', state }));
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED');
  assert.deepEqual(ran, ['a', 'b', 'c', 'e', 'd'], 'd once, after e');
  assert.equal(r.state.stepCount, 5);
});

test('join: false keeps the old meaning: the node runs each time a branch reaches it', async (t) => {
  const { ran, nodes } = tracer(['a', 'b', 'c', 'e']);
  const engine = disposeAfter(t, new GraphEngine({ nodes: { ...nodes, d: { handler: () => { ran.push('d'); return {}; }, join: false } }, edges: { a: ['b', 'c'], b: 'd', c: 'e', e: 'd', d: '__end__' }, entryPoint: 'a', state }));
  await engine.execute({});
  assert.deepEqual(ran.filter((n) => n === 'd').length, 2);
});

test('a branch routed away from the join (conditionally skipped) does not drop it: the join runs once no other branch is live (langgraphjs #2666)', async (t) => {
  for (const skip of [true, false]) {
    const { ran, nodes } = tracer(['a', 'b', 'c', 'e', 'd', 'other']);
    const engine = disposeAfter(t, new GraphEngine({
      nodes,
      edges: { a: ['b', 'c'], b: 'd', c: { path: 'skip', cases: { true: 'other' }, default: 'e' }, e: 'd', other: '__end__', d: '__end__' },
      entryPoint: 'a',
      state,
    }));
    const r = await engine.execute({ skip });
    assert.equal(r.status, 'FINISHED');
    assert.equal(ran.filter((n) => n === 'd').length, 1, `skip=${skip}: d runs exactly once`);
    assert.equal(ran.at(-1), 'd', 'after the other branch ended');
    assert.deepEqual(ran.includes('e'), !skip);
  }
});

test('what a join waits for is in the checkpoint: a pause between the branches and a resume in a new engine still runs it once', async (t) => {
  const ran = [];
  const definition = {
    nodes: {
      a: () => ({}),
      b: () => { ran.push('b'); return {}; },
      c: () => { ran.push('c'); return {}; },
      e: () => { ran.push('e'); return { shouldPause: true }; },
      d: { handler: () => { ran.push('d'); return {}; }, join: ['b', 'e'] },
    },
    edges: { a: ['b', 'c'], b: 'd', c: 'e', e: 'd', d: '__end__' },
    entryPoint: 'a',
  };
  const paused = await disposeAfter(t, new GraphEngine(definition)).execute({});
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(JSON.parse(paused.checkpoint).held, { d: ['b'] });
  const done = await disposeAfter(t, new GraphEngine(definition)).resume(JSON.parse(JSON.stringify(paused.checkpoint)));
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(ran, ['b', 'c', 'e', 'd']);
});

test('defer: true waits until every other branch has finished, then runs once', async (t) => {
  const { ran, nodes } = tracer(['s', 'short', 'long', 'l2', 'l3']);
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { ...nodes, final: { handler: (st) => { ran.push('final'); return { data: { saw: st.seen.join() } }; }, defer: true } },
    edges: { s: ['short', 'long'], short: 'final', long: 'l2', l2: 'l3', l3: 'final', final: '__end__' },
    entryPoint: 's',
    state: { ...state, defaults: { seen: [], data: {} }, reducers: { ...state.reducers, data: 'merge' } },
  }));
  const r = await engine.execute({});
  assert.deepEqual(ran, ['s', 'short', 'long', 'l2', 'l3', 'final']);
  assert.equal(r.state.data.saw, 's,short,long,l2,l3');
});

test('join declarations are checked when the engine is built', () => {
  const base = { edges: { a: ['b', 'c'], b: 'd', c: 'd', d: '__end__' }, entryPoint: 'a' };
  const f = () => ({});
  assert.throws(() => new GraphEngine({ ...base, nodes: { a: f, b: f, c: f, d: { handler: f, join: ['b', 'zz'] } } }), (e) => e instanceof EdgegraphError && e.code === 'UNKNOWN_NODE' && /nodes\.d\.join names 'zz'/.test(e.message));
  assert.throws(() => new GraphEngine({ ...base, nodes: { a: f, b: f, c: f, d: { handler: f, join: 'b' } } }), (e) => e.code === 'INVALID_DEFINITION' && /join/.test(e.message));
  assert.throws(() => new GraphEngine({ ...base, nodes: { a: f, b: f, c: f, d: { handler: f, defer: 'yes' } } }), (e) => e.code === 'INVALID_DEFINITION' && /defer/.test(e.message));
});
