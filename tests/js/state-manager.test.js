// StateManager (seed 002) on the real .wasm: the seed's API, immutability,
// reducers on edge values, and the parallel merge the reference gets wrong.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateManager, EdgegraphError } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const deepFreeze = (v) => { if (v && typeof v === 'object') { Object.freeze(v); Object.values(v).forEach(deepFreeze); } return v; };

test('the seed example: concat at scratch.messages', (t) => {
  const manager = disposeAfter(t, new StateManager({ 'scratch.messages': 'concat' }));
  let state = manager.initialize({ prompt: 'Hello' });
  state = manager.updateScratch(state, { messages: ['first'] });
  state = manager.updateScratch(state, { messages: ['second'] });
  assert.deepEqual(state.scratch.messages, ['first', 'second']);
  assert.deepEqual(state.input, { prompt: 'Hello' });
  assert.deepEqual(Object.keys(state).sort(), ['artifacts', 'currentNodeId', 'diagnostics', 'input', 'iteration', 'memory', 'scratch', 'visitedNodes']);
});

test('input is read-only: frozen in JS, an error in the core', (t) => {
  const manager = disposeAfter(t, new StateManager());
  const state = manager.initialize({ nested: { q: 1 } });
  assert.ok(Object.isFrozen(state.input) && Object.isFrozen(state.input.nested));
  assert.throws(() => { 'use strict'; state.input.nested.q = 2; }, TypeError);
  const branch = { ...state, input: { nested: { q: 2 } }, currentNodeId: 'sneaky' };
  assert.throws(() => manager.mergeParallelBranches(state, [branch]), (e) => e.code === 'READONLY_PATH' && /'sneaky'/.test(e.message));
});

test('no method mutates its arguments (deep-frozen inputs stay equal)', (t) => {
  const manager = disposeAfter(t, new StateManager({ 'scratch.list': 'concat', 'scratch.n': 'sum', 'artifacts.meta': 'deepMerge' }));
  const base = deepFreeze(manager.updateScratch(manager.initialize({ q: 1 }), { list: ['x'], n: 1 }));
  const before = structuredClone(base);
  const patch = deepFreeze({ list: ['y'], n: 2 });
  const s1 = manager.updateScratch(base, patch);
  const s2 = manager.updateArtifacts(base, deepFreeze({ meta: { a: { b: 1 } } }));
  const s3 = manager.recordNodeVisit(base, 'node-1');
  const branches = deepFreeze([manager.updateScratch(base, { list: ['r1'] }), manager.updateScratch(base, { n: 5 })]);
  const s4 = manager.mergeParallelBranches(base, branches);
  assert.deepEqual(base, before);
  assert.deepEqual(patch, { list: ['y'], n: 2 });
  assert.deepEqual(s1.scratch, { list: ['x', 'y'], n: 3 });
  assert.deepEqual(s2.artifacts, { meta: { a: { b: 1 } } });
  assert.deepEqual([s3.currentNodeId, s3.visitedNodes, s3.iteration], ['node-1', ['node-1'], 1]);
  assert.deepEqual(s4.scratch, { list: ['x', 'r1'], n: 6 });
  for (const s of [s1, s2, s3, s4]) assert.notEqual(s, base);
});

test('parallel merge applies deltas: base ["x"] + r1 + r2, untouched sum not doubled', (t) => {
  const manager = disposeAfter(t, new StateManager({ 'scratch.results': 'concat', 'scratch.total': 'sum' }));
  const base = manager.updateScratch(manager.initialize({}), { results: ['x'], total: 10 });
  const b1 = manager.recordNodeVisit(manager.updateScratch(base, { results: ['r1'] }), 'b1');
  const b2 = manager.recordNodeVisit(manager.updateScratch(base, { results: ['r2'] }), 'b2');
  const merged = manager.mergeParallelBranches(base, [b1, b2]);
  assert.deepEqual(merged.scratch.results, ['x', 'r1', 'r2']);
  assert.equal(merged.scratch.total, 10);
  // Order of the branch list decides the order of the result, nothing else.
  assert.deepEqual(manager.mergeParallelBranches(base, [b2, b1]).scratch.results, ['x', 'r2', 'r1']);
});

test('conflicting writes without a reducer name the key and the nodes', (t) => {
  const manager = disposeAfter(t, new StateManager());
  const base = manager.initialize({});
  const left = manager.recordNodeVisit(manager.updateScratch(base, { answer: 'A' }), 'left');
  const right = manager.recordNodeVisit(manager.updateScratch(base, { answer: 'B' }), 'right');
  assert.throws(() => manager.mergeParallelBranches(base, [left, right]),
    (e) => e instanceof EdgegraphError && e.code === 'PARALLEL_CONFLICT' && /'left' and 'right'/.test(e.message) && /scratch\.answer/.test(e.message));
});

test('JS reducer functions work in updates and merges', (t) => {
  const manager = disposeAfter(t, new StateManager({ 'scratch.best': (a, b) => (b.score > a.score ? b : a) }));
  const base = manager.updateScratch(manager.initialize({}), { best: { score: 1 } });
  assert.deepEqual(manager.updateScratch(base, { best: { score: 0 } }).scratch.best, { score: 1 });
  assert.deepEqual(manager.updateScratch(base, { best: { score: 5 } }).scratch.best, { score: 5 });
  const b1 = manager.updateScratch(base, { best: { score: 3 } });
  const b2 = manager.updateScratch(base, { best: { score: 7 } });
  assert.deepEqual(manager.mergeParallelBranches(base, [b1, b2]).scratch.best, { score: 7 });
});

test('every built-in reducer on edge values: missing key, null, wrong types', (t) => {
  const cases = [
    // [reducer, existing (undefined = missing), incoming, expected | error code]
    ['concat', undefined, [1], [1]], ['concat', null, 2, [2]], ['concat', [1], [2, 3], [1, 2, 3]], ['concat', 'str', [1], 'REDUCER_TYPE_ERROR'],
    ['appendUnique', [1, 2], [2, 3], [1, 2, 3]], ['appendUnique', undefined, 1, [1]], ['appendUnique', {}, [1], 'REDUCER_TYPE_ERROR'],
    ['merge', undefined, { a: 1 }, { a: 1 }], ['merge', { a: 1, b: { c: 1 } }, { b: { d: 2 } }, { a: 1, b: { d: 2 } }], ['merge', { a: 1 }, [1], 'REDUCER_TYPE_ERROR'], ['merge', 3, { a: 1 }, 'REDUCER_TYPE_ERROR'],
    ['deepMerge', { a: { b: 1 } }, { a: { c: 2 } }, { a: { b: 1, c: 2 } }], ['deepMerge', { a: 1 }, 'x', 'REDUCER_TYPE_ERROR'],
    ['sum', undefined, 2, 2], ['sum', null, 2, 2], ['sum', 2, 3.5, 5.5], ['sum', 2, '3', 'REDUCER_TYPE_ERROR'], ['sum', 'x', 1, 'REDUCER_TYPE_ERROR'],
    ['max', 2, 5, 5], ['max', 7, 5, 7], ['min', 2, -1, -1], ['min', undefined, 4, 4], ['max', 1, null, 'REDUCER_TYPE_ERROR'],
    ['first', 'a', 'b', 'a'], ['first', undefined, 'b', 'b'], ['first', null, 'b', 'b'],
    ['last', 'a', 'b', 'b'], ['last', 'a', null, null],
    ['longest', 'abc', 'de', 'abc'], ['longest', [1], [1, 2], [1, 2]], ['longest', 'ab', [1, 2, 3], 'REDUCER_TYPE_ERROR'], ['longest', 'ab', 5, 'REDUCER_TYPE_ERROR'],
    ['avg', undefined, 4, 4], ['avg', 2, 'x', 'REDUCER_TYPE_ERROR'],
    ['messages', [{ id: '1', c: 'a' }], [{ id: '1', c: 'A' }, { id: '2', c: 'b' }], [{ id: '1', c: 'A' }, { id: '2', c: 'b' }]],
    ['messages', [{ id: '1' }, { id: '2' }], { type: 'remove', id: '1' }, [{ id: '2' }]],
    ['messages', undefined, [{ c: 'no id' }], [{ c: 'no id' }]], ['messages', [], ['text'], 'REDUCER_TYPE_ERROR'],
    ['readonly', 1, 2, 'READONLY_PATH'],
  ];
  for (const [reducer, existing, incoming, expected] of cases) {
    const manager = disposeAfter(t, new StateManager({ 'scratch.k': reducer }));
    const base = manager.initialize({});
    const state = existing === undefined ? base : { ...base, scratch: { k: existing } };
    const label = `${reducer}(${JSON.stringify(existing)}, ${JSON.stringify(incoming)})`;
    if (typeof expected === 'string' && /^[A-Z_]+$/.test(expected)) {
      assert.throws(() => manager.updateScratch(state, { k: incoming }), (e) => e.code === expected && /scratch\.k/.test(e.message), label);
    } else {
      assert.deepEqual(manager.updateScratch(state, { k: incoming }).scratch.k, expected, label);
    }
    manager.dispose();
  }
});

test('avg is a running mean across updates and merges', (t) => {
  const manager = disposeAfter(t, new StateManager({ 'scratch.score': 'avg' }));
  let s = manager.initialize({});
  for (const v of [3, 6, 9]) s = manager.updateScratch(s, { score: v });
  assert.equal(s.scratch.score, 6);
  const b1 = manager.updateScratch(s, { score: 10 }); // mean of 3,6,9,10
  const b2 = manager.updateScratch(s, { score: 2 });  // mean of 3,6,9,2
  assert.equal(manager.mergeParallelBranches(s, [b1, b2]).scratch.score, 6); // (3+6+9+10+2)/5
});

test('bad reducer names and bad arguments are typed errors', (t) => {
  assert.throws(() => new StateManager({ 'scratch.k': 'median' }), (e) => e.code === 'INVALID_DEFINITION' && /scratch\.k/.test(e.message));
  const manager = disposeAfter(t, new StateManager());
  assert.throws(() => manager.updateScratch(manager.initialize({}), [1]), (e) => e.code === 'INVALID_INPUT');
  assert.throws(() => manager.mergeParallelBranches(manager.initialize({}), {}), (e) => e.code === 'INVALID_INPUT');
  assert.throws(() => manager.recordNodeVisit(manager.initialize({}), 5), (e) => e.code === 'INVALID_INPUT');
});

test('the engine runs the partitioned shape: input frozen for nodes, visits recorded', async (t) => {
  const { GraphEngine } = await import('edgegraph');
  let frozen;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      plan: (s) => { frozen = Object.isFrozen(s.input) && Object.isFrozen(s.input.spec); return { scratch: { plan: `do ${s.input.spec.goal}` } }; },
      act: (s) => ({ artifacts: { report: `${s.scratch.plan}: done` } }),
    },
    edges: { plan: 'act', act: '__end__' },
    entryPoint: 'plan',
    state: 'partitioned',
  }));
  const r = await engine.execute({ input: { spec: { goal: 'ship' } } });
  assert.equal(frozen, true);
  assert.deepEqual(r.state.artifacts, { report: 'do ship: done' });
  assert.deepEqual([r.state.visitedNodes, r.state.iteration, r.state.currentNodeId], [['plan', 'act'], 2, 'act']);
  const writer = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({ iteration: 9 }) }, edges: { a: '__end__' }, entryPoint: 'a', state: 'partitioned' }));
  assert.equal((await writer.execute({})).error.code, 'RESERVED_KEY');
});
