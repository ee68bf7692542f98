// Command: a node's result that routes and updates at once (goto: names,
// lists, Sends; graph: Command.PARENT from a subgraph), and resume's Command
// (resume, update, goto); on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, Command, send } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

test('a node returns a Command: update and goto in one result, overriding the edges', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      // goto: where its Commands may go (for validation and diagrams, like LangGraph's `ends`)
      triage: { handler: (s) => new Command({ update: { data: { level: s.data.level + 1 } }, goto: s.data.level > 0 ? 'urgent' : 'normal' }), goto: ['urgent', 'normal'] },
      urgent: () => ({ logs: ['urgent'] }),
      normal: () => ({ logs: ['normal'] }),
    },
    edges: { triage: '__end__', urgent: '__end__', normal: '__end__' },
    entryPoint: 'triage',
    state: { shape: 'frame' },
  }));
  // The edges say __end__: urgent and normal are reached only by goto.
  assert.match(engine.toMermaid(), /n0 -\.->\|"goto"\| n1/, 'drawn from triage (n0) to urgent (n1)');
  const urgent = await engine.execute({ data: { level: 1 } });
  assert.equal(urgent.status, 'FINISHED');
  assert.deepEqual([urgent.state.data.level, urgent.state.logs], [2, ['urgent']]);
  const normal = await engine.execute({ data: { level: 0 } });
  assert.deepEqual(normal.state.logs, ['normal']);
});

test('goto a list of names and Sends: plain targets run before Sends in one step; the Sends get their arg', async (t) => {
  const order = [];
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      plan: { handler: () => new Command({ goto: [send('work', { n: 1 }), 'audit', send('work', { n: 2 })] }), goto: ['work', 'audit'] },
      work: (s, e, ctx) => { order.push(`work${ctx.arg.n}`); return { done: [ctx.arg.n] }; },
      audit: () => { order.push('audit'); return { done: ['audit'] }; },
    },
    edges: { plan: '__end__', work: '__end__', audit: '__end__' },
    entryPoint: 'plan',
    state: { reducers: { done: 'concat' } },
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED');
  assert.deepEqual(order, ['audit', 'work1', 'work2']);
  assert.deepEqual(r.state.done, ['audit', 1, 2]);
});

test('a goto to an unknown node is UNKNOWN_ROUTE_TARGET naming it, with the state so far', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: () => ({ data: { kept: true } }), b: () => new Command({ goto: ['a', 'nowhere'] }) },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'ERROR');
  assert.equal(r.error.code, 'UNKNOWN_ROUTE_TARGET');
  assert.match(r.error.message, /node 'b' set nextNodeOverride \(goto\) to 'nowhere', which is not a node/);
  assert.equal(r.state.data.kept, true);
});

test('Command.PARENT: a subgraph node hands off to the parent graph: the child ends, the parent applies the update and goes to goto', async (t) => {
  const child = {
    nodes: {
      check: (s) => (s.data.ok ? { data: { checked: true } } : new Command({ graph: Command.PARENT, goto: 'escalate', update: { data: { reason: 'not ok' } } })),
      after: () => ({ data: { after: true } }),
    },
    edges: { check: 'after', after: '__end__' },
    entryPoint: 'check',
  };
  const ran = [];
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      sub: { kind: 'subgraph', graph: child, input: (s) => ({ data: { ok: s.data.ok } }), output: (c) => ({ data: { child: c.data } }) },
      next: () => { ran.push('next'); return {}; },
      escalate: { handler: (s) => { ran.push(`escalate: ${s.data.reason}`); return {}; }, jumpTarget: true },
    },
    edges: { sub: 'next', next: '__end__', escalate: '__end__' },
    entryPoint: 'sub',
    state: { shape: 'frame' },
  }, {}));
  const fine = await engine.execute({ data: { ok: true } });
  assert.deepEqual(ran, ['next']);
  assert.equal(fine.state.data.child.after, true);
  ran.length = 0;
  const handed = await engine.execute({ data: { ok: false } });
  assert.equal(handed.status, 'FINISHED');
  assert.deepEqual(ran, ['escalate: not ok']);
  assert.equal(handed.state.data.child, undefined, 'the output mapping is for a child that finished its work');
  assert.equal(handed.state.data.reason, 'not ok');
});

test('resume with a Command: update written through the reducers, goto replacing what runs next; bad gotos are typed errors and the thread is unchanged', async (t) => {
  const { MemoryStore } = await import('edgegraph');
  const store = new MemoryStore();
  const definition = {
    nodes: {
      draft: () => ({ shouldPause: true, logs: ['draft'] }),
      publish: () => ({ logs: ['publish'] }),
      rewrite: (s) => ({ logs: [`rewrite: ${s.data.note}`] }),
    },
    edges: { draft: 'publish', publish: '__end__', rewrite: '__end__' },
    entryPoint: 'draft',
  };
  const engine = disposeAfter(t, new GraphEngine({ ...definition, nodes: { ...definition.nodes, rewrite: { handler: definition.nodes.rewrite, jumpTarget: true } } }, { checkpointer: store }));
  const paused = await engine.execute({}, { threadId: 't' });
  assert.equal(paused.status, 'PAUSED');
  await assert.rejects(engine.resume({ threadId: 't' }, new Command({ goto: 'nowhere' })), (e) => e.code === 'UNKNOWN_ROUTE_TARGET' && /'nowhere'/.test(e.message));
  await assert.rejects(engine.resume({ threadId: 't' }, { goto: 42 }), (e) => e.code === 'INVALID_INPUT');
  assert.equal((await engine.getState('t')).status, 'PAUSED');
  const done = await engine.resume({ threadId: 't' }, { update: { data: { note: 'shorter' } }, goto: 'rewrite' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.logs, ['draft', 'rewrite: shorter']);
  assert.deepEqual(done.state.messages, [], 'a Command is not a message');
});

test('resume with a Command whose goto comes with the answer to a pending interrupt(): refused (INVALID_RUN_STATE naming the node), nothing written; the answer alone then goes to the node', async (t) => {
  const { MemoryStore } = await import('edgegraph');
  const ran = [];
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      ask: (s, e, ctx) => { const answer = ctx.interrupt('ok?'); ran.push(`ask:${answer}`); return { logs: [`ask:${answer}`] }; },
      next: () => { ran.push('next'); return {}; },
      other: { handler: () => { ran.push('other'); return {}; }, jumpTarget: true },
    },
    edges: { ask: 'next', next: '__end__', other: '__end__' },
    entryPoint: 'ask',
  }, { checkpointer: new MemoryStore() }));
  assert.equal((await engine.execute({}, { threadId: 'g' })).status, 'PAUSED');
  const before = await engine.getState('g');
  await assert.rejects(engine.resume({ threadId: 'g' }, new Command({ resume: 'yes', goto: 'other' })),
    (e) => e.code === 'INVALID_RUN_STATE' && /node 'ask' has an interrupt pending/.test(e.message));
  assert.deepEqual([(await engine.getState('g')).checkpointId, ran], [before.checkpointId, []]);
  const done = await engine.resume({ threadId: 'g' }, new Command({ resume: 'yes' }));
  assert.deepEqual([done.status, ran], ['FINISHED', ['ask:yes', 'next']]);
});
