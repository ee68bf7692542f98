// Reducers written in JS in a graph's state definition (issue 15, item 5):
// they fold each node's write over the state in branch order, never in
// completion order, keep the delta rules of the built-in reducers, survive
// checkpoints (the graph supplies the function again), and a reducer that
// throws is a REDUCER_FAILED naming the path and the node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore } from 'edgegraph';

const custom = (reducers, defaults = {}) => ({ reducers, defaults });

test('a string-append reducer across sequential nodes', async () => {
  const engine = new GraphEngine({
    nodes: { a: () => ({ notes: 'a' }), b: () => ({ notes: 'b' }) },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
    state: custom({ notes: (x, y) => x + y }),
  });
  const r = await engine.execute({ notes: '>' });
  assert.equal(r.status, 'FINISHED');
  assert.equal(r.state.notes, '>ab');
  engine.dispose();
});

test('parallel branches fold in branch order even when they finish in reverse', async () => {
  let releaseFirst;
  const firstMayFinish = new Promise((resolve) => { releaseFirst = resolve; });
  const order = [];
  const engine = new GraphEngine({
    nodes: {
      start: () => ({}),
      // Branch 0 finishes only after branch 1 has: completion order is 1, 0.
      left: async () => { await firstMayFinish; order.push('left'); return { notes: 'L', seen: ['L'] }; },
      right: () => { order.push('right'); releaseFirst(); return { notes: 'R', seen: ['R'] }; },
      join: () => ({ notes: 'J' }),
    },
    edges: { start: ['left', 'right'], left: 'join', right: 'join', join: '__end__' },
    entryPoint: 'start',
    state: custom({ notes: (x, y) => x + y, seen: (x, y) => [...x, ...y] }),
  });
  const r = await engine.execute({ notes: 'x', seen: ['x'] });
  assert.deepEqual(order, ['right', 'left']);
  assert.equal(r.state.notes, 'xLRJ');
  // The base is never counted twice (each branch's delta, not its state).
  assert.deepEqual(r.state.seen, ['x', 'L', 'R']);
  engine.dispose();
});

test('sorted merge, set union and b ?? a, at nested paths and top level', async () => {
  const engine = new GraphEngine({
    nodes: {
      fan: () => ({}),
      one: () => ({ scratch: { sorted: [5, 1] }, tags: ['b', 'a'], pick: null }),
      two: () => ({ scratch: { sorted: [3] }, tags: ['a', 'c'], pick: 'two' }),
    },
    edges: { fan: ['one', 'two'], one: '__end__', two: '__end__' },
    entryPoint: 'fan',
    state: custom({
      'scratch.sorted': (a, b) => [...a, ...b].sort((x, y) => x - y),
      tags: (a, b) => [...new Set([...a, ...b])],
      pick: (a, b) => b ?? a,
    }, { scratch: {} }),
  });
  const r = await engine.execute({ scratch: { sorted: [4] }, tags: ['a'], pick: 'kept' });
  assert.deepEqual(r.state.scratch.sorted, [1, 3, 4, 5]);
  assert.deepEqual(r.state.tags, ['a', 'b', 'c']);
  assert.equal(r.state.pick, 'two');
  engine.dispose();
});

test('a missing value is set by the first write, as with the built-in reducers', async () => {
  const engine = new GraphEngine({
    nodes: { a: () => ({ total: 2 }), b: () => ({ total: 3 }) },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
    state: custom({ total: (x, y) => x * 10 + y }),
  });
  assert.equal((await engine.execute({})).state.total, 23);
  engine.dispose();
});

test('checkpoints hold the folded value and a restored run folds with the graph\'s function again', async () => {
  const definition = () => ({
    nodes: {
      fan: () => ({}),
      p: () => ({ log: 'p' }),
      q: () => ({ log: 'q' }),
      ask: () => ({ pendingAskUser: { question: 'go on?' } }),
      last: () => ({ log: '!' }),
    },
    edges: { fan: ['p', 'q'], p: 'ask', q: 'ask', ask: 'last', last: '__end__' },
    entryPoint: 'fan',
    state: custom({ log: (a, b) => `${a}|${b}` }),
  });
  const store = new MemoryStore();
  const first = new GraphEngine(definition(), { checkpointer: store });
  const paused = await first.execute({ log: 'start' }, { threadId: 't' });
  assert.equal(paused.status, 'PAUSED');
  assert.equal(paused.state.log, 'start|p|q');
  assert.equal(JSON.parse(paused.checkpoint).state.log, 'start|p|q');
  first.dispose();
  // Another engine (another process, say) built from the same program.
  const second = new GraphEngine(definition(), { checkpointer: store });
  const done = await second.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.equal(done.state.log, 'start|p|q|!');
  const fromText = await second.resume(paused.checkpoint);
  assert.equal(fromText.state.log, 'start|p|q|!');
  second.dispose();
});

test('a reducer that throws is REDUCER_FAILED naming the path and the node, with the state so far', async () => {
  const engine = new GraphEngine({
    nodes: { a: () => ({ n: 1, ok: true }), b: () => ({ n: 'two' }) },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
    state: custom({ n: (x, y) => { if (typeof y !== 'number') throw new TypeError('not a number'); return x + y; } }),
  });
  const r = await engine.execute({ n: 0 });
  assert.equal(r.status, 'ERROR');
  assert.equal(r.error.code, 'REDUCER_FAILED');
  assert.equal(r.error.node, 'b');
  assert.match(r.error.message, /reducer of 'n'.*node 'b'.*not a number/);
  assert.equal(r.state.n, 1);
  assert.equal(r.state.ok, true);
  engine.dispose();
});

test('a reducer that throws in a parallel step fails the step; a resume runs its writers again', async () => {
  let strict = true;
  const engine = new GraphEngine({
    nodes: { fan: () => ({}), a: () => ({ s: 'a' }), b: () => ({ s: 'b' }) },
    edges: { fan: ['a', 'b'], a: '__end__', b: '__end__' },
    entryPoint: 'fan',
    state: custom({ s: (x, y) => { if (strict && y === 'b') throw new Error('no b'); return x + y; } }),
  });
  const r = await engine.execute({ s: '-' });
  assert.equal(r.error.code, 'REDUCER_FAILED');
  assert.match(r.error.message, /reducer of 's' threw on the write of node 'b': no b/);
  assert.equal(r.state.s, '-');
  strict = false;
  const again = await engine.resume(r.checkpoint);
  assert.equal(again.status, 'FINISHED');
  assert.equal(again.state.s, '-ab');
  engine.dispose();
});

test('a caller\'s result object is not changed by the fold', async () => {
  const a = { notes: 'a', keep: { x: 1 } };
  const b = { notes: 'b' };
  const engine = new GraphEngine({
    nodes: { fan: () => ({}), one: () => a, two: () => b },
    edges: { fan: ['one', 'two'], one: '__end__', two: '__end__' },
    entryPoint: 'fan',
    state: custom({ notes: (x, y) => x + y }),
  });
  const r = await engine.execute({ notes: '' });
  assert.equal(r.state.notes, 'ab');
  assert.deepEqual(a, { notes: 'a', keep: { x: 1 } });
  assert.deepEqual(b, { notes: 'b' });
  engine.dispose();
});

test('resume({ update }) folds a JS-reduced path over the saved state', async () => {
  const engine = new GraphEngine({
    nodes: { a: () => ({ notes: 'a', pendingAskUser: { question: 'more?' } }), b: () => ({ notes: 'b' }) },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
    state: custom({ notes: (x, y) => `${x}+${y}` }),
  });
  const paused = await engine.execute({ notes: 'start' });
  assert.equal(paused.state.notes, 'start+a');
  const done = await engine.resume(paused.checkpoint, undefined, { update: { notes: 'human' } });
  assert.equal(done.state.notes, 'start+a+human+b');
  engine.dispose();
});

// A step resumed with results kept from before its pause or failure: the resumed tasks' writes
// fold over the kept ones (the core applies those first), so none is lost.
for (const how of ['paused', 'failed']) {
  test(`a JS-reduced path keeps every write of a parallel step resumed after a task ${how} (whichever branch it was)`, async () => {
    for (const late of ['a', 'b']) {
      let fail = how === 'failed', runs = 0;
      const engine = new GraphEngine({
        nodes: {
          s: () => ({}),
          a: (state, _, ctx) => late === 'a' ? ask(ctx) : (runs++, { log: ['a'] }),
          b: (state, _, ctx) => late === 'b' ? ask(ctx) : (runs++, { log: ['b'] }),
        },
        edges: { s: ['a', 'b'], a: '__end__', b: '__end__' },
        entryPoint: 's',
        state: custom({ log: (x, y) => x.concat(y) }, { log: [] }),
      }, { checkpointer: new MemoryStore() });
      function ask(ctx) {
        if (how === 'paused') return { log: [`${late}:${ctx.interrupt('?')}`] };
        if (fail) throw new Error('down');
        return { log: [`${late}:again`] };
      }
      const first = await engine.execute({}, { threadId: `${how}-${late}` });
      assert.equal(first.status, how === 'paused' ? 'PAUSED' : 'ERROR');
      fail = false;
      const done = await engine.resume({ threadId: `${how}-${late}` }, how === 'paused' ? 'yes' : undefined);
      const other = late === 'a' ? 'b' : 'a';
      // The kept write first, then the resumed one's.
      assert.deepEqual(done.state.log, [other, `${late}:${how === 'paused' ? 'yes' : 'again'}`]);
      assert.equal(runs, 1, 'the finished branch does not run again');
      engine.dispose();
    }
  });
}
