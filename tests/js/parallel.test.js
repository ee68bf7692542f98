// Parallel branches, map fan-out and Sends, node policies (retry, timeout,
// error edges) and subgraphs, on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, send } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const tick = () => new Promise((r) => setImmediate(r));
const randomDelay = () => new Promise((r) => setTimeout(r, Math.random() * 4));

test('map fan-out: one task per item with the item as context.arg; results in item order whatever the timing', async (t) => {
  const seen = new Set();
  for (let round = 0; round < 5; round++) {
    const engine = disposeAfter(t, new GraphEngine({
      nodes: {
        split: () => ({ items: [3, 1, 4, 1, 5] }),
        square: async (state, _e, ctx) => { await randomDelay(); return { results: [ctx.arg * ctx.arg] }; },
        join: (state) => ({ total: state.results.reduce((a, b) => a + b, 0) }),
      },
      edges: { split: { map: 'items', to: 'square' }, square: 'join', join: '__end__' },
      entryPoint: 'split',
      state: { reducers: { results: 'concat' }, defaults: { results: [] } },
    }));
    const r = await engine.execute({});
    assert.equal(r.status, 'FINISHED');
    seen.add(JSON.stringify(r.state.results));
    assert.equal(r.state.total, 52);
    assert.equal(r.state.stepCount, 7, 'split + 5 squares + one join');
  }
  assert.deepEqual([...seen], ['[9,1,16,1,25]']);
});

test('a router may return Sends', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { plan: () => ({}), work: (s, e, ctx) => ({ done: [ctx.arg.job] }) },
    edges: { plan: () => [send('work', { job: 'a' }), send('work', { job: 'b' })], work: '__end__' },
    entryPoint: 'plan',
    state: { reducers: { done: 'concat' } },
  }));
  assert.deepEqual((await engine.execute({})).state.done, ['a', 'b']);
});

test('a checkpoint taken mid parallel step restores in a new engine and re-runs only unfinished branches', async (t) => {
  const definition = (log, gate) => ({
    nodes: {
      split: () => { log.push('split'); return {}; },
      fast1: () => { log.push('fast1'); return { results: ['f1'], cost: 1 }; },
      fast2: async () => { await tick(); log.push('fast2'); return { results: ['f2'], cost: 2 }; },
      slow: async () => { log.push('slow'); await gate(); return { results: ['s'], cost: 4 }; },
      join: (s) => { log.push('join'); return { summary: s.results.join(',') }; },
    },
    edges: { split: ['fast1', 'fast2', 'slow'], fast1: 'join', fast2: 'join', slow: 'join', join: '__end__' },
    entryPoint: 'split',
    state: { reducers: { results: 'concat', cost: 'sum' }, defaults: { results: [], cost: 0 } },
  });
  // Uninterrupted, for reference.
  const refLog = [];
  const reference = await disposeAfter(t, new GraphEngine(definition(refLog, () => Promise.resolve()))).execute({});

  // Interrupted once fast1 and fast2 are done and slow is still running.
  const log = [];
  const controller = new AbortController();
  let done = 0;
  const first = disposeAfter(t, new GraphEngine(definition(log, () => new Promise(() => {}))));
  const interrupted = await first.execute({}, {
    signal: controller.signal,
    onEvent: (e) => { if (e.type === 'node_end' && ++done === 3) controller.abort(); }, // split, fast1, fast2
  });
  assert.equal(interrupted.status, 'INTERRUPTED');
  const stored = JSON.stringify(JSON.parse(interrupted.checkpoint)); // through storage

  // "Another process": a new engine from the same definition.
  const log2 = [];
  const second = disposeAfter(t, new GraphEngine(definition(log2, () => Promise.resolve())));
  const resumed = await second.resume(stored);
  assert.equal(resumed.status, 'FINISHED');
  assert.deepEqual(log2, ['slow', 'join'], 'finished branches did not run again');
  for (const key of ['results', 'cost', 'summary', 'stepCount']) assert.deepEqual(resumed.state[key], reference.state[key], key);
  assert.deepEqual(resumed.state.results, ['f1', 'f2', 's']);
});

test('retry: attempts with backoff; context.attempt counts; events report each retry', async (t) => {
  const attempts = [];
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      flaky: { handler: (s, e, ctx) => { attempts.push(ctx.attempt); if (ctx.attempt < 3) throw new Error(`try ${ctx.attempt}`); return { data: { ok: ctx.attempt } }; }, retry: { attempts: 3, backoffMs: 1, jitter: false } },
    },
    edges: { flaky: '__end__' },
    entryPoint: 'flaky',
  }));
  const events = [];
  const r = await engine.execute({}, { onEvent: (e) => events.push(e) });
  assert.equal(r.status, 'FINISHED');
  assert.deepEqual(attempts, [1, 2, 3]);
  assert.deepEqual(events.filter((e) => e.type === 'node_retry').map((e) => [e.attempt, e.error, e.delayMs]), [[1, 'try 1', 1], [2, 'try 2', 2]]);
  const always = disposeAfter(t, new GraphEngine({ nodes: { f: { handler: () => { throw new Error('down'); }, retry: { attempts: 2, backoffMs: 0 } } }, edges: { f: '__end__' }, entryPoint: 'f' }));
  const failed = await always.execute({});
  assert.equal(failed.error.code, 'NODE_FAILED');
  assert.match(failed.error.message, /down/);
});

test('timeout: a node that never finishes fails with NODE_TIMEOUT and its signal is aborted', async (t) => {
  let signal;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { stuck: { handler: (s, e, ctx) => { signal = ctx.signal; return new Promise(() => {}); }, timeoutMs: 20 } },
    edges: { stuck: '__end__' },
    entryPoint: 'stuck',
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'ERROR');
  assert.equal(r.error.code, 'NODE_TIMEOUT');
  assert.equal(r.error.node, 'stuck');
  assert.match(r.error.message, /timed out after 20 ms/);
  assert.equal(signal.aborted, true);
});

test('error edge: after the last try the failure goes to a handler node with lastError', async (t) => {
  let tries = 0;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      fetch: { handler: () => { tries++; throw new Error('503'); }, retry: { attempts: 2, backoffMs: 0 }, onError: 'fallback' },
      fallback: (s) => ({ data: { used: 'cache', because: s.lastError.message } }),
      use: () => ({}),
    },
    edges: { fetch: 'use', fallback: 'use', use: '__end__' },
    entryPoint: 'fetch',
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED');
  assert.equal(tries, 2);
  assert.deepEqual(r.state.data, { used: 'cache', because: '503' });
  assert.deepEqual(r.state.lastError, { code: 'NODE_FAILED', message: '503', node: 'fetch' });
});

test('node policy typos are caught at construction', () => {
  const f = () => ({});
  assert.throws(() => new GraphEngine({ nodes: { a: { handler: f, timeout: 5 } }, edges: { a: '__end__' }, entryPoint: 'a' }), (e) => e.code === 'INVALID_DEFINITION' && /timeout/.test(e.message));
  assert.throws(() => new GraphEngine({ nodes: { a: { handler: f, retry: { attempts: 0 } } }, edges: { a: '__end__' }, entryPoint: 'a' }), (e) => e.code === 'INVALID_DEFINITION' && /retry\.attempts/.test(e.message));
  assert.throws(() => new GraphEngine({ nodes: { a: { handler: f, onError: 'nope' } }, edges: { a: '__end__' }, entryPoint: 'a' }), (e) => e.code === 'UNKNOWN_NODE' && /'nope'/.test(e.message));
});

test('subgraph: own state mapped in and out; a child pause pauses the parent; resume continues the child', async (t) => {
  const childRuns = [];
  const child = {
    nodes: {
      draft: (s) => { childRuns.push('draft'); return { data: { draft: `about ${s.data.topic}` }, pendingAskUser: { question: 'Approve the draft?' } }; },
      finalize: (s) => { childRuns.push('finalize'); return { data: { final: `${s.data.draft} (${s.messages.at(-1).content})` } }; },
    },
    edges: { draft: 'finalize', finalize: '__end__' },
    entryPoint: 'draft',
  };
  const parent = () => disposeAfter(t, new GraphEngine({
    nodes: {
      prepare: () => ({ data: { topic: 'wasm' } }),
      write: { kind: 'subgraph', graph: child, input: (s) => ({ data: { topic: s.data.topic } }), output: (childState) => ({ data: { article: childState.data.final } }) },
      publish: (s) => ({ logs: [`published: ${s.data.article}`] }),
    },
    edges: { prepare: 'write', write: 'publish', publish: '__end__' },
    entryPoint: 'prepare',
  }));
  const paused = await parent().execute({});
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(paused.state.pendingAskUser, { question: 'Approve the draft?' });
  assert.equal(paused.state.data.draft, undefined, 'the child keeps its own state');
  const done = await parent().resume(JSON.parse(JSON.stringify(paused.state)), { role: 'user', content: 'approved' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.logs, ['published: about wasm (approved)']);
  assert.deepEqual(childRuns, ['draft', 'finalize'], 'the child resumed where it stopped');
  assert.equal(done.state.subgraphs.write, null);
});

test('retry.retryOn: an error it refuses fails the node at once; others are tried again', async (t) => {
  const tries = [];
  const statusOf = (n) => Object.assign(new Error(`status ${n}`), { status: n });
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { call: { handler: (s, e, ctx) => { tries.push(ctx.attempt); throw statusOf(ctx.attempt === 1 ? 503 : 400); }, retry: { attempts: 5, backoffMs: 0, retryOn: (err) => err.status >= 500 } } },
    edges: { call: '__end__' }, entryPoint: 'call',
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'ERROR');
  assert.equal(r.error.code, 'NODE_FAILED');
  assert.match(r.error.message, /status 400/);
  assert.deepEqual(tries, [1, 2]);   // the 503 is tried again, the 400 is not
});

test('a parallel step stopped by one task\'s timeout: the resume runs that task again, not its sibling that finished (its side effect happened once)', async (t) => {
  const { MemoryStore } = await import('edgegraph');
  let hang = true, sideEffects = 0;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      s: () => ({}),
      slow: { handler: () => (hang ? new Promise(() => {}) : { logs: ['slow'] }), timeoutMs: 20 },
      send: () => { sideEffects++; return { logs: ['sent'] }; },
    },
    edges: { s: ['slow', 'send'], slow: '__end__', send: '__end__' },
    entryPoint: 's',
    state: { reducers: { logs: 'concat' } },
  }, { checkpointer: new MemoryStore() }));
  const failed = await engine.execute({}, { threadId: 'timeout' });
  assert.deepEqual([failed.status, failed.error?.code, sideEffects], ['ERROR', 'NODE_TIMEOUT', 1]);
  hang = false;
  const done = await engine.resume({ threadId: 'timeout' });
  assert.deepEqual([done.status, [...done.state.logs].sort(), sideEffects], ['FINISHED', ['sent', 'slow'], 1]);
});

test('a node waiting to retry makes no further try once a sibling of its step has failed, or the run was aborted: its last error stands', async (t) => {
  for (const how of ['sibling', 'abort']) {
    const tries = [];
    let failed;
    const siblingFails = new Promise((resolve) => { failed = resolve; });
    const controller = new AbortController();
    const engine = disposeAfter(t, new GraphEngine({
      nodes: {
        start: () => ({}),
        flaky: { handler: () => { tries.push(tries.length + 1); throw new Error(`try ${tries.length}`); }, retry: { attempts: 3, backoffMs: 1000 } },
        // (In the abort case it waits for nothing, and succeeds.)
        bad: async () => { if (how === 'sibling') { await siblingFails; throw new Error('sibling down'); } return {}; },
      },
      edges: { start: ['flaky', 'bad'], flaky: '__end__', bad: '__end__' },
      entryPoint: 'start',
    }));
    // Its first try failed and it waits (1 s): the sibling fails now, or the run is aborted.
    const onEvent = (e) => { if (e.type === 'node_retry') { if (how === 'sibling') failed(); else controller.abort(new Error('stop')); } };
    const r = await engine.execute({}, { onEvent, signal: controller.signal });
    assert.equal(r.status, how === 'sibling' ? 'ERROR' : 'INTERRUPTED', how);
    assert.deepEqual(tries, [1], how);
  }
});

test('a node with an error edge that a sibling\'s failure cancels is no failure of its own: no error edge, and the resume runs it again; a retry\'s wait ends when the sibling fails', async (t) => {
  const calls = [];
  let down = true, started;
  const waiting = new Promise((resolve) => { started = resolve; });
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      start: () => ({}),
      // Waits on its signal the first time (a slow call), as the sibling fails.
      r: { handler: async (s, e, ctx) => { calls.push('r'); if (down) { started(); await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true })); throw ctx.signal.reason; } return { data: { r: 1 } }; }, onError: 'fallback' },
      // Tries again after a 60 s wait, which the sibling's failure cuts short.
      slow: { handler: () => { calls.push('slow'); if (down) throw new Error('flaky'); return { data: { slow: 1 } }; }, retry: { attempts: 2, backoffMs: 60_000 } },
      f: async () => { await waiting; calls.push('f'); if (down) throw new Error('f broke'); return { data: { f: 1 } }; },
      fallback: () => { calls.push('fallback'); return {}; },
    },
    edges: { start: ['r', 'slow', 'f'], r: '__end__', slow: '__end__', f: '__end__', fallback: '__end__' },
    entryPoint: 'start',
    state: { shape: 'frame' },
  }, { checkpointer: new MemoryStore() }));
  const failed = await engine.execute({}, { threadId: 't' });
  assert.equal(failed.status, 'ERROR');
  assert.match(failed.error.message, /f broke/);
  assert.deepEqual(calls.sort(), ['f', 'r', 'slow']);
  down = false;
  calls.length = 0;
  const done = await engine.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED', done.error?.message);
  assert.deepEqual(done.state.data, { r: 1, slow: 1, f: 1 });
  assert.deepEqual(calls.sort(), ['f', 'r', 'slow']);
});

test('a node that throws an error of code ABORTED of its own (a nested run it aborted) goes to its error edge: only a sibling\'s cancellation does not', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      start: () => ({}),
      call: { handler: () => { throw Object.assign(new Error('the nested run was aborted'), { code: 'ABORTED' }); }, onError: 'fallback' },
      other: () => ({ data: { other: 1 } }),
      fallback: (s) => ({ data: { fellBack: s.lastError.message } }),
    },
    edges: { start: ['call', 'other'], call: '__end__', other: '__end__', fallback: '__end__' },
    entryPoint: 'start',
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED', r.error?.message);
  assert.deepEqual(r.state.data, { other: 1, fellBack: 'the nested run was aborted' });
});
