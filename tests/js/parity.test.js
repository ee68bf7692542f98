// LangGraph parity details: a node returning its state as given, plain
// targets before Sends, interruptBefore / interruptAfter, updateState (as a
// node), per-run configurable values. On the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, send } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

test('a node may return the state it was given: the engine\'s own keys handed back unchanged are ignored; a changed one is still RESERVED_KEY', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: (s) => ({ n: (s.n ?? 0) + 1 }), same: (s) => s, b: (s) => ({ n: s.n + 10 }) },
    edges: { a: 'same', same: 'b', b: '__end__' },
    entryPoint: 'a',
    state: { reducers: {} },
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED');
  assert.equal(r.state.n, 11);
  assert.equal(r.state.stepCount, 3);
  const cheat = disposeAfter(t, new GraphEngine({ nodes: { a: (s) => ({ ...s, stepCount: 99 }) }, edges: { a: '__end__' }, entryPoint: 'a', state: { reducers: {} } }));
  const bad = await cheat.execute({});
  assert.equal(bad.error?.code, 'RESERVED_KEY');
  assert.match(bad.error?.message ?? '', /node 'a' wrote 'stepCount'/);
});

test('a router returning Sends and names: the plain targets run first in the step', async (t) => {
  const order = [];
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { plan: () => ({}), work: (s, e, ctx) => { order.push(`work ${ctx.arg}`); return {}; }, audit: () => { order.push('audit'); return {}; } },
    edges: { plan: () => [send('work', 1), 'audit', send('work', 2)], work: '__end__', audit: '__end__' },
    entryPoint: 'plan',
  }));
  await engine.execute({});
  assert.deepEqual(order, ['audit', 'work 1', 'work 2']);
});

const pipeline = (ran) => ({
  nodes: { a: () => { ran.push('a'); return {}; }, b: () => { ran.push('b'); return {}; }, c: () => { ran.push('c'); return {}; } },
  edges: { a: 'b', b: 'c', c: '__end__' },
  entryPoint: 'a',
});

test('interruptBefore and interruptAfter (engine or run option) pause at those nodes; resume goes on; a thread resumes in a new engine', async (t) => {
  const ran = [];
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(pipeline(ran), { interruptBefore: ['b'], checkpointer: store }));
  const before = await engine.execute({}, { threadId: 't' });
  assert.equal(before.status, 'PAUSED');
  assert.deepEqual(ran, ['a']);
  assert.equal(before.state.nextNode, 'b');
  const after = await disposeAfter(t, new GraphEngine(pipeline(ran), { checkpointer: store })).resume({ threadId: 't' }, undefined, { interruptAfter: ['b'] });
  assert.equal(after.status, 'PAUSED');
  assert.deepEqual(ran, ['a', 'b']);
  const done = await disposeAfter(t, new GraphEngine(pipeline(ran), { checkpointer: store })).resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(ran, ['a', 'b', 'c']);
  await assert.rejects(disposeAfter(t, new GraphEngine(pipeline([]))).execute({}, { interruptBefore: ['nope'] }), (e) => e.code === 'INVALID_OPTIONS' && /interruptBefore names 'nope'/.test(e.message));
});

test('updateState: values through the reducers, as a node (its edge decides what runs next), written to the thread; from a checkpoint it returns a new one', async (t) => {
  const ran = [];
  const store = new MemoryStore();
  const definition = {
    nodes: {
      draft: () => { ran.push('draft'); return { shouldPause: true, logs: ['draft'] }; },
      review: (s) => { ran.push('review'); return { logs: [`review ${s.data.note}`] }; },
      publish: (s) => { ran.push('publish'); return { logs: [`publish ${s.data.note}`] }; },
    },
    edges: { draft: 'review', review: 'publish', publish: '__end__' },
    entryPoint: 'draft',
  };
  const engine = disposeAfter(t, new GraphEngine(definition, { checkpointer: store }));
  await engine.execute({}, { threadId: 'u' });
  const updated = await engine.updateState({ threadId: 'u' }, { data: { note: 'edited' }, logs: ['by hand'] }, 'review');
  assert.equal(typeof updated.checkpointId, 'number');
  const now = await engine.getState('u');
  assert.deepEqual([now.status, now.checkpointId, now.state.logs], ['PAUSED', updated.checkpointId, ['draft', 'by hand']]);
  const done = await disposeAfter(t, new GraphEngine(definition, { checkpointer: store })).resume({ threadId: 'u' });
  assert.deepEqual(ran, ['draft', 'publish'], 'as if review had run: its edge goes to publish');
  assert.deepEqual(done.state.logs, ['draft', 'by hand', 'publish edited']);

  // A finished thread continues as a node too.
  const again = await engine.updateState({ threadId: 'u' }, { data: { note: 'v2' } }, 'review');
  assert.equal(again.state.status, 'PAUSED');
  assert.deepEqual((await engine.resume({ threadId: 'u' })).state.logs.at(-1), 'publish v2');

  // From a checkpoint: a new checkpoint, the old one untouched.
  const paused = await disposeAfter(t, new GraphEngine(definition)).execute({});
  const edited = await engine.updateState(paused.checkpoint, { data: { note: 'cp' } });
  const resumed = await engine.resume(edited.checkpoint);
  assert.deepEqual(resumed.state.logs, ['draft', 'review cp', 'publish cp']);
  await assert.rejects(engine.updateState(paused.checkpoint, {}, 'nowhere'), (e) => e.code === 'UNKNOWN_NODE' && /'nowhere'/.test(e.message));
  await assert.rejects(engine.updateState(paused.checkpoint, { stepCount: 1 }), (e) => e.code === 'RESERVED_KEY');
});

test('configurable: per-run values reach every node (and a subgraph\'s) through the context, never the state', async (t) => {
  const seen = [];
  const child = { nodes: { c: (s, e, ctx) => { seen.push(`child ${ctx.configurable?.user}`); return {}; } }, edges: { c: '__end__' }, entryPoint: 'c' };
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: (s, e, ctx) => { seen.push(`a ${ctx.configurable?.user}`); return { shouldPause: true }; }, sub: { kind: 'subgraph', graph: child } },
    edges: { a: 'sub', sub: '__end__' },
    entryPoint: 'a',
  }));
  const paused = await engine.execute({}, { configurable: { user: 'ann' } });
  assert.equal(JSON.stringify(paused.checkpoint).includes('ann'), false, 'not in checkpoints');
  await engine.resume(paused.checkpoint, undefined, { configurable: { user: 'bob' } });
  assert.deepEqual(seen, ['a ann', 'child bob']);
});

test('updateState folds a path with a JS reducer as a node\'s write would be', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: () => ({ notes: 'a', shouldPause: true }), b: () => ({ notes: 'b' }) },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
    state: { reducers: { notes: (x, y) => `${x}+${y}` }, defaults: { notes: '>' } },
  }));
  const paused = await engine.execute({});
  const edited = await engine.updateState(paused.checkpoint, { notes: 'hand' });
  assert.equal(edited.state.notes, '>+a+hand');
  assert.equal((await engine.resume(edited.checkpoint)).state.notes, '>+a+hand+b');
});

test('interruptAfter a node whose router decides: the router answers before the pause, once, and the history shows where the run goes; updateState as that node asks the router on the state written', async (t) => {
  const asked = [];
  const definition = {
    nodes: { pick: () => ({ data: { to: 'x' } }), x: () => ({ logs: ['x'] }), y: () => ({ logs: ['y'] }) },
    edges: { pick: (s) => { asked.push(s.data.to); return s.data.to; }, x: '__end__', y: '__end__' },
    entryPoint: 'pick',
  };
  const engine = disposeAfter(t, new GraphEngine(definition, { checkpointer: new MemoryStore(), interruptAfter: ['pick'] }));
  assert.equal((await engine.execute({}, { threadId: 'r' })).status, 'PAUSED');
  const next = async () => (await engine.getStateHistory('r', { limit: 1 }))[0].pendingTasks;
  assert.deepEqual([asked, await next()], [['x'], ['x']]);
  // An edit at the pause is not a new answer: the router has answered.
  await engine.updateState({ threadId: 'r' }, { data: { to: 'y' } });
  const done = await engine.resume({ threadId: 'r' });
  assert.deepEqual([done.status, done.state.logs, asked], ['FINISHED', ['x'], ['x']]);
  // As node pick: its router answers now, on the state written, and the resume goes there without asking again.
  await engine.updateState({ threadId: 'r' }, { data: { to: 'y' } }, 'pick');
  assert.deepEqual([asked, await next()], [['x', 'y'], ['y']]);
  const again = await engine.resume({ threadId: 'r' });
  assert.deepEqual([again.status, again.state.logs, asked], ['FINISHED', ['x', 'y'], ['x', 'y']]);
});

test('interruptAfter a node that ends the run (shouldEnd, status FINISHED) pauses, and resume finishes without the next node; one that returns status ERROR stops with it, no pause', async (t) => {
  for (const [result, first, last] of [[{ shouldEnd: true }, 'PAUSED', 'FINISHED'], [{ status: 'FINISHED' }, 'PAUSED', 'FINISHED'], [{ status: 'ERROR' }, 'ERROR', 'ERROR']]) {
    const ran = [];
    const engine = disposeAfter(t, new GraphEngine({
      nodes: { a: () => { ran.push('a'); return result; }, b: () => { ran.push('b'); return {}; } },
      edges: { a: 'b', b: '__end__' },
      entryPoint: 'a',
    }, { interruptAfter: ['a'] }));
    const stopped = await engine.execute({});
    const done = stopped.status === 'PAUSED' ? await engine.resume(stopped.checkpoint) : stopped;
    assert.deepEqual([stopped.status, done.status, ran], [first, last, ['a']], JSON.stringify(result));
  }
});
