// Every node's context.signal (a sibling's failure, the run's abort),
// maxConcurrency per run, and a graph-wide default retry policy; on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const tick = () => new Promise((r) => setImmediate(r));

test('a sibling that fails for good aborts the others\' context.signal; the step\'s error is the first failure, not a cancelled sibling\'s', async (t) => {
  let reason = null;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      split: () => ({}),
      // First in task order, cancelled by its sibling's failure: it throws the abort.
      slow: (s, e, ctx) => new Promise((resolve, reject) => {
        assert.ok(ctx.signal instanceof AbortSignal, 'every node has a signal');
        ctx.signal.addEventListener('abort', () => { reason = ctx.signal.reason; reject(ctx.signal.reason); }, { once: true });
      }),
      broken: async () => { await tick(); throw new Error('disk full'); },
      fine: () => ({ data: { fine: true } }),
    },
    edges: { split: ['slow', 'broken', 'fine'], slow: '__end__', broken: '__end__', fine: '__end__' },
    entryPoint: 'split',
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'ERROR');
  assert.equal(r.error.node, 'broken');
  assert.match(r.error.message, /node 'broken' failed: disk full/);
  assert.equal(reason?.code, 'ABORTED');
  assert.match(reason.message, /task 'broken' of this step failed: disk full/);
});

test('a failure that goes to an error edge does not cancel its siblings', async (t) => {
  let aborted = false;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      split: () => ({}),
      slow: async (s, e, ctx) => { await tick(); await tick(); aborted = ctx.signal.aborted; return { data: { slow: true } }; },
      broken: { handler: () => { throw new Error('no'); }, onError: 'recover' },
      recover: () => ({ data: { recovered: true } }),
    },
    edges: { split: ['slow', 'broken'], slow: '__end__', broken: '__end__', recover: '__end__' },
    entryPoint: 'split',
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED');
  assert.deepEqual([aborted, r.state.data.slow, r.state.data.recovered], [false, true, true]);
});

test('maxConcurrency: at most that many tasks of a step run at once; results keep branch order', async (t) => {
  let active = 0, most = 0;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      split: () => ({ items: [1, 2, 3, 4, 5, 6, 7] }),
      work: async (s, e, ctx) => { active++; most = Math.max(most, active); await tick(); await tick(); active--; return { out: [ctx.arg * 10] }; },
    },
    edges: { split: { map: 'items', to: 'work' }, work: '__end__' },
    entryPoint: 'split',
    state: { reducers: { out: 'concat' } },
  }));
  const r = await engine.execute({}, { maxConcurrency: 2 });
  assert.deepEqual(r.state.out, [10, 20, 30, 40, 50, 60, 70]);
  assert.equal(most, 2);
  most = 0;
  await engine.execute({});
  assert.equal(most, 7, 'without the option, all at once');
  await assert.rejects(engine.execute({}, { maxConcurrency: 0 }), (e) => e.code === 'INVALID_OPTIONS' && /maxConcurrency/.test(e.message));
});

test('a graph-wide default retry policy (engine option retry): every node without its own; checked like a node\'s; not part of the graph\'s identity', async (t) => {
  const calls = { flaky: 0, own: 0 };
  const definition = {
    nodes: {
      flaky: () => { if (++calls.flaky < 3) throw new Error('503'); return {}; },
      own: { handler: () => { calls.own++; throw new Error('always'); }, retry: { attempts: 2, backoffMs: 0 } },
    },
    edges: { flaky: 'own', own: '__end__' },
    entryPoint: 'flaky',
  };
  const engine = disposeAfter(t, new GraphEngine(definition, { retry: { attempts: 4, backoffMs: 0 } }));
  const r = await engine.execute({});
  assert.equal(r.error?.node, 'own');
  assert.deepEqual(calls, { flaky: 3, own: 2 }, 'the default for flaky, its own for own');
  assert.equal(engine.graphHash, disposeAfter(t, new GraphEngine(definition)).graphHash);
  assert.throws(() => new GraphEngine(definition, { retry: { attempts: 0 } }), (e) => e.code === 'INVALID_DEFINITION' && /retry\.attempts/.test(e.message));
});
