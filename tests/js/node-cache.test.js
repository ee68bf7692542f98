// Node caching in edgegraph's own API (nodes.<name>.cache + the engine option cache); on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, InMemoryCache, cachedCall, clearNodeCache, send, Command } from 'edgegraph';

/** Run `fn` with Date.now() moved `ms` ahead (a TTL runs out without waiting). */
async function later(ms, fn) {
  const now = Date.now;
  const at = now() + ms;
  Date.now = () => at;
  try { return await fn(); } finally { Date.now = now; }
}

const events = (list) => list.filter((e) => ['node_start', 'node_end', 'state_update', 'route'].includes(e.type)).map((e) => `${e.type}:${e.node ?? ''}`);

test('a cached node: its result is reused for an equal input, with the same events and writes in the same order', async () => {
  const calls = [];
  const cache = new InMemoryCache();
  const engine = new GraphEngine({
    nodes: {
      lookup: { handler: (state) => { calls.push(state.data.q); return { data: { answer: `A(${state.data.q})` }, logs: ['looked up'] }; }, cache: { ttlMs: 60_000 } },
      after: () => ({ logs: ['after'] }),
    },
    edges: { lookup: 'after', after: '__end__' },
    entryPoint: 'lookup',
  }, { cache });
  const first = [], second = [];
  const a = await engine.execute({ data: { q: 'x' } }, { onEvent: (e) => first.push(e) });
  const b = await engine.execute({ data: { q: 'x' } }, { onEvent: (e) => second.push(e) });
  assert.deepEqual(calls, ['x']);
  assert.deepEqual(b.state.data, a.state.data);
  assert.deepEqual(b.state.logs, ['looked up', 'after']);
  assert.deepEqual(events(second), events(first));
  assert.ok(events(second).includes('node_end:lookup'));
  await engine.execute({ data: { q: 'y' } });
  assert.deepEqual(calls, ['x', 'y']);
  // ttlMs: past it, the node runs again.
  await later(61_000, () => engine.execute({ data: { q: 'x' } }));
  assert.deepEqual(calls, ['x', 'y', 'x']);
  engine.dispose();
});

test('a cached node that returned a Command routes and updates from the cache as it did fresh', async () => {
  const calls = [];
  const engine = new GraphEngine({
    nodes: {
      pick: { handler: (state) => { calls.push(state.data.q); return new Command({ goto: 'b', update: { data: { picked: state.data.q } } }); }, cache: { ttlMs: 60_000 } },
      a: () => ({ logs: ['a'] }),
      b: { handler: () => ({ logs: ['b'] }), jumpTarget: true },
    },
    edges: { pick: 'a', a: '__end__', b: '__end__' },
    entryPoint: 'pick',
  }, { cache: new InMemoryCache() });
  const fresh = await engine.execute({ data: { q: 'x' } });
  const cached = await engine.execute({ data: { q: 'x' } });
  assert.deepEqual(calls, ['x'], 'the second run took the cached Command');
  for (const r of [fresh, cached]) {
    assert.deepEqual(r.state.logs, ['b'], 'goto b, not the static edge to a');
    assert.equal(r.state.data.picked, 'x');
  }
  engine.dispose();
});

test('cache keys include the node name; an error is never cached; a custom key picks what counts as equal', async () => {
  const calls = [];
  let failNext = true;
  const cache = new InMemoryCache();
  const engine = new GraphEngine({
    nodes: {
      one: { handler: (s) => { calls.push('one'); return { data: { one: s.data.user } }; }, cache: { key: (s) => s.data.user } },
      two: { handler: (s) => {
        calls.push('two');
        if (failNext) { failNext = false; throw new Error('flaky'); }
        return { data: { two: s.data.user } };
      }, cache: { key: (s) => s.data.user } },
    },
    edges: { one: 'two', two: '__end__' },
    entryPoint: 'one',
  }, { cache });
  const failed = await engine.execute({ data: { user: 'ann', noise: 1 } });
  assert.equal(failed.status, 'ERROR');
  assert.deepEqual(calls, ['one', 'two']);
  const ok = await engine.execute({ data: { user: 'ann', noise: 2 } });
  assert.equal(ok.status, 'FINISHED');
  assert.deepEqual(ok.state.data, { user: 'ann', noise: 2, one: 'ann', two: 'ann' });
  // one came from the cache (same key), two ran again: its error was not kept.
  assert.deepEqual(calls, ['one', 'two', 'two']);
  await engine.execute({ data: { user: 'ann', noise: 3 } });
  assert.deepEqual(calls, ['one', 'two', 'two']);
  await clearNodeCache(cache, ['two']);
  await engine.execute({ data: { user: 'ann', noise: 4 } });
  assert.deepEqual(calls, ['one', 'two', 'two', 'two']);
  engine.dispose();
});

test('a cached node reached by Sends keys on each Send\'s argument', async () => {
  const seen = [];
  const engine = new GraphEngine({
    nodes: {
      fan: () => ({}),
      work: { handler: (state, engine, ctx) => { seen.push(ctx.arg); return { logs: [`w${ctx.arg}`] }; }, cache: {} },
    },
    edges: { fan: () => [send('work', 1), send('work', 2), send('work', 1)], work: '__end__' },
    entryPoint: 'fan',
  }, { cache: new InMemoryCache() });
  const first = await engine.execute({});
  assert.equal(first.status, 'FINISHED');
  assert.deepEqual([...new Set(seen)].sort(), [1, 2]);
  const ran = seen.length;
  const again = await engine.execute({});
  // Every Send found its argument's result: none ran, and each still wrote its result.
  assert.equal(seen.length, ran);
  assert.deepEqual([...again.state.logs].sort(), ['w1', 'w1', 'w2']);
  engine.dispose();
});

test('a cache policy without the engine option cache, or a bad one, is INVALID_DEFINITION naming the node', () => {
  const def = (cache) => ({ nodes: { n: { handler: () => ({}), cache } }, edges: { n: '__end__' }, entryPoint: 'n' });
  assert.throws(() => new GraphEngine(def({})), (e) => e.code === 'INVALID_DEFINITION' && /nodes\.n\.cache/.test(e.message) && /engine option cache/.test(e.message));
  assert.throws(() => new GraphEngine(def({ ttlMs: -1 }), { cache: new InMemoryCache() }), (e) => e.code === 'INVALID_DEFINITION' && /nodes\.n\.cache/.test(e.message));
  assert.throws(() => new GraphEngine(def({ key: 'user' }), { cache: new InMemoryCache() }), (e) => e.code === 'INVALID_DEFINITION');
});

test('cachedCall: one call per key within the ttl, each hit a fresh copy; a throw stores nothing', async () => {
  const cache = new InMemoryCache();
  let n = 0;
  const call = async () => ({ n: ++n });
  const a = await cachedCall(cache, { node: 'x', key: { q: 1 }, ttl: 1 }, call);
  const b = await cachedCall(cache, { node: 'x', key: { q: 1 }, ttl: 1 }, call);
  assert.deepEqual([a, b], [{ value: { n: 1 }, cached: false }, { value: { n: 1 }, cached: true }]);
  b.value.n = 99;
  assert.deepEqual((await cachedCall(cache, { node: 'x', key: { q: 1 } }, call)).value, { n: 1 });
  assert.equal((await cachedCall(cache, { node: 'y', key: { q: 1 } }, call)).cached, false);
  await assert.rejects(cachedCall(cache, { node: 'z', key: 1 }, async () => { throw new Error('no'); }), /no/);
  assert.equal((await cachedCall(cache, { node: 'z', key: 1 }, call)).cached, false);
  await later(1_001, async () => assert.equal((await cachedCall(cache, { node: 'x', key: { q: 1 } }, call)).cached, false));
});
