// An abort while a subgraph node runs its child: the child stops at a step and
// is kept with the parent's step, so a resume goes on inside the child and its
// finished nodes (their side effects) do not run again; on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, send } from 'edgegraph';

for (const [how, policy] of [['', {}], [' (with a retry policy)', { retry: { attempts: 2 } }]]) test(`an abort inside a subgraph node${how} keeps the child's finished steps: the resume runs only what had not run`, async () => {
  const controller = new AbortController();
  const ran = [];
  // charge aborts the run as it finishes (a Stop button pressed while it ran): its write is in hand.
  const child = {
    nodes: {
      charge: () => { ran.push('charge'); controller.abort(new Error('stop')); return { data: { charged: true } }; },
      ship: () => { ran.push('ship'); return { data: { shipped: true } }; },
    },
    edges: { charge: 'ship', ship: '__end__' },
    entryPoint: 'charge',
  };
  const parent = new GraphEngine({
    nodes: {
      order: { kind: 'subgraph', graph: child, output: (c) => ({ data: c.data }), ...policy },
      notify: () => { ran.push('notify'); return {}; },
    },
    edges: { order: 'notify', notify: '__end__' },
    entryPoint: 'order',
  }, { checkpointer: new MemoryStore() });
  const stopped = await parent.execute({}, { threadId: 't', signal: controller.signal });
  assert.equal(stopped.status, 'INTERRUPTED');
  assert.deepEqual(ran, ['charge']);
  const done = await parent.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.data, { charged: true, shipped: true });
  assert.deepEqual(ran, ['charge', 'ship', 'notify']);
  parent.dispose();
});

test('an abort while a Send fans out to a subgraph node stops the run (INTERRUPTED), and the resume runs the children', async () => {
  const controller = new AbortController();
  const ran = [];
  const child = {
    nodes: {
      first: (s) => { ran.push(`first ${s.data.n}`); if (s.data.n === 3) controller.abort(new Error('stop')); return {}; },
      second: (s) => { ran.push(`second ${s.data.n}`); return { data: { done: true } }; },
    },
    edges: { first: 'second', second: '__end__' },
    entryPoint: 'first',
  };
  const parent = new GraphEngine({
    nodes: {
      plan: () => ({}),
      work: { kind: 'subgraph', graph: child, input: (s, ctx) => ({ data: { n: ctx.arg.n } }), output: (c) => ({ data: { [`r${c.data.n}`]: true } }) },
    },
    edges: { plan: () => [1, 2, 3].map((n) => send('work', { n })), work: '__end__' },
    entryPoint: 'plan',
  }, { checkpointer: new MemoryStore() });
  const stopped = await parent.execute({}, { threadId: 't', signal: controller.signal });
  assert.equal(stopped.status, 'INTERRUPTED');
  const done = await parent.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual([done.state.data.r1, done.state.data.r2, done.state.data.r3], [true, true, true]);
  parent.dispose();
});

test('a subgraph node\'s run that rejects (a listener that throws) rejects the call, and leaves no unhandled rejection', async () => {
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  const child = { nodes: { c: async () => ({ data: { x: 1 } }) }, edges: { c: '__end__' }, entryPoint: 'c' };
  const parent = new GraphEngine({ nodes: { order: { kind: 'subgraph', graph: child, output: (c) => ({ data: c.data }) } }, edges: { order: '__end__' }, entryPoint: 'order' });
  await assert.rejects(parent.execute({}, { onEvent: (e) => { if (e.type === 'node_end' && e.node === 'order') throw new Error('listener failed'); } }), /listener failed/);
  // (an unhandled rejection is reported after the turn it happened in)
  await new Promise((resolve) => setImmediate(resolve));
  process.off('unhandledRejection', onUnhandled);
  assert.deepEqual(unhandled.map((e) => e.message), []);
  parent.dispose();
});

test('a subgraph node whose child failed keeps the child\'s finished steps: the resume runs its failed node again, not the ones before', async () => {
  let down = true;
  const ran = [];
  const child = {
    nodes: {
      charge: () => { ran.push('charge'); return { data: { paid: true } }; },
      email: () => { ran.push('email'); if (down) throw new Error('SMTP down'); return { data: { sent: true } }; },
    },
    edges: { charge: 'email', email: '__end__' },
    entryPoint: 'charge',
  };
  const parent = new GraphEngine({
    nodes: { checkout: { kind: 'subgraph', graph: child, output: (c) => ({ data: c.data }) } },
    edges: { checkout: '__end__' },
    entryPoint: 'checkout',
  }, { checkpointer: new MemoryStore() });
  const failed = await parent.execute({}, { threadId: 't' });
  assert.equal(failed.status, 'ERROR');
  assert.match(failed.error.message, /subgraph 'checkout': .*SMTP down/);
  down = false;
  const done = await parent.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual([done.state.data, ran], [{ paid: true, sent: true }, ['charge', 'email', 'email']]);
  parent.dispose();
});
