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
  // Each Send's child kept where it stopped, with its own task: no child's first node ran twice.
  assert.deepEqual(ran.filter((r) => r.startsWith('first')).sort(), ['first 1', 'first 2', 'first 3']);
  parent.dispose();
});

/** A checkout child whose `charge` stops the run as it finishes (`stop`), and `ship`; `ran` lists them. */
function checkout(stop, ran) {
  return {
    nodes: {
      charge: (s) => { ran.push(`charge ${s.data.order}`); stop(); return { data: { charged: s.data.order } }; },
      ship: (s) => { ran.push(`ship ${s.data.order}`); return { data: { shipped: s.data.order } }; },
    },
    edges: { charge: 'ship', ship: '__end__' },
    entryPoint: 'charge',
  };
}

test('a new execute on a thread after an abort inside a subgraph node starts the child afresh with its own input: the stopped child stays with the stopped run', async () => {
  const controller = new AbortController();
  const ran = [];
  const child = checkout(() => controller.abort(new Error('stop')), ran);
  const parent = new GraphEngine({
    nodes: { order: { kind: 'subgraph', graph: child, input: (s) => ({ data: { order: s.data.order } }), output: (c) => ({ data: { shipped: c.data.shipped } }) } },
    edges: { order: '__end__' },
    entryPoint: 'order',
  }, { checkpointer: new MemoryStore() });
  const stopped = await parent.execute({ data: { order: 'A' } }, { threadId: 't', signal: controller.signal });
  assert.equal(stopped.status, 'INTERRUPTED');
  assert.equal(stopped.state.subgraphs?.order ?? null, null);
  const next = await parent.execute({ data: { order: 'B' } }, { threadId: 't' });
  assert.equal(next.status, 'FINISHED');
  assert.equal(next.state.data.shipped, 'B');
  assert.deepEqual(ran, ['charge A', 'charge B', 'ship B']);
  parent.dispose();
});

test('an abort inside a subgraph node is no finished task: no updates chunk for it, and the resume does not pause at its interruptBefore again', async () => {
  const controller = new AbortController();
  const ran = [];
  let stopNow = false;
  const child = checkout(() => { if (stopNow) controller.abort(new Error('stop')); }, ran);
  const parent = new GraphEngine({
    nodes: { order: { kind: 'subgraph', graph: child, input: () => ({ data: { order: 'A' } }), output: (c) => ({ data: { shipped: c.data.shipped } }) } },
    edges: { order: '__end__' },
    entryPoint: 'order',
  }, { checkpointer: new MemoryStore(), interruptBefore: ['order'] });
  assert.equal((await parent.execute({}, { threadId: 't' })).status, 'PAUSED');
  stopNow = true;
  const chunks = [];
  await assert.rejects(async () => {
    for await (const chunk of parent.streamResume({ threadId: 't' }, undefined, { streamMode: 'updates', signal: controller.signal })) chunks.push(chunk);
  }, /ABORTED|interrupted/);
  assert.deepEqual(chunks, []);
  assert.equal((await parent.getState('t')).status, 'INTERRUPTED');
  stopNow = false;
  const done = await parent.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(ran, ['charge A', 'ship A']);
  parent.dispose();
});

test('an abort in a step with a subgraph task and Sends to the same node stops the run (INTERRUPTED, no conflict over the children), and the resume runs each child on', async () => {
  const controller = new AbortController();
  const ran = [];
  const child = checkout(() => { if (ran.filter((r) => r.startsWith('charge')).length === 3) controller.abort(new Error('stop')); }, ran);
  const parent = new GraphEngine({
    nodes: {
      plan: () => ({}),
      order: { kind: 'subgraph', graph: child, input: (s, ctx) => ({ data: { order: ctx.arg ?? 'plain' } }), output: (c) => ({ shipped: [c.data.shipped] }) },
    },
    edges: { plan: () => ['order', send('order', 'x'), send('order', 'y')], order: '__end__' },
    entryPoint: 'plan',
    state: { reducers: { shipped: 'concat' } },
  }, { checkpointer: new MemoryStore() });
  const stopped = await parent.execute({}, { threadId: 't', signal: controller.signal });
  assert.equal(stopped.status, 'INTERRUPTED', stopped.error?.message);
  const done = await parent.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED', done.error?.message);
  assert.deepEqual(done.state.shipped.sort(), ['plain', 'x', 'y']);
  assert.deepEqual(ran.filter((r) => r.startsWith('charge')).sort(), ['charge plain', 'charge x', 'charge y']);
  parent.dispose();
});

test('a sibling\'s failure stops the Sends to a subgraph node beside it: the resume runs the failed node again and each child on from where it stopped', async () => {
  const ran = [];
  let down = true, shipping = 0;
  let release;
  const failed = new Promise((resolve) => { release = resolve; });
  const child = {
    nodes: {
      charge: (s) => { ran.push(`charge ${s.data.order}`); return {}; },
      // Waits, as a slow call does, until the step's signal tells it to stop (the sibling failed).
      // (The second to get here lets `bad` fail: both children are then in flight.)
      ship: async (s, engine, ctx) => {
        if (down) {
          if (++shipping === 2) release();
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
          throw ctx.signal.reason;
        }
        ran.push(`ship ${s.data.order}`);
        return { data: { shipped: s.data.order } };
      },
    },
    edges: { charge: 'ship', ship: '__end__' },
    entryPoint: 'charge',
  };
  const parent = new GraphEngine({
    nodes: {
      plan: () => ({}),
      bad: async () => { await failed; ran.push('bad'); if (down) throw new Error('boom'); return {}; },
      order: { kind: 'subgraph', graph: child, input: (s, ctx) => ({ data: { order: ctx.arg } }), output: (c) => ({ shipped: [c.data.shipped] }) },
    },
    edges: { plan: () => ['bad', send('order', 'x'), send('order', 'y')], bad: '__end__', order: '__end__' },
    entryPoint: 'plan',
    state: { reducers: { shipped: 'concat' } },
  }, { checkpointer: new MemoryStore() });
  const first = await parent.execute({}, { threadId: 't' });
  assert.equal(first.status, 'ERROR');
  assert.match(first.error.message, /boom/);
  down = false;
  const done = await parent.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED', done.error?.message);
  assert.deepEqual(done.state.shipped.sort(), ['x', 'y']);
  assert.deepEqual(ran.filter((r) => r.startsWith('charge')).sort(), ['charge x', 'charge y']);
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

test('a sibling\'s failure beside a subgraph node with a retry policy: the stopped child is not tried again, and the resume runs its finished nodes once', async () => {
  const ran = [];
  let down = true, waiting;
  const started = new Promise((resolve) => { waiting = resolve; });
  const child = {
    nodes: {
      charge: () => { ran.push('charge'); return { data: { charged: true } }; },
      // Waits, as a slow call does, until told to stop (the sibling failed): then fails.
      wait: async (s, engine, ctx) => {
        ran.push('wait');
        if (down) { waiting(); await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true })); throw ctx.signal.reason; }
        return { data: { waited: true } };
      },
    },
    edges: { charge: 'wait', wait: '__end__' },
    entryPoint: 'charge',
  };
  const parent = new GraphEngine({
    nodes: {
      start: () => ({}),
      sub: { kind: 'subgraph', graph: child, output: (c) => ({ data: c.data }), retry: { attempts: 3, backoffMs: 1 } },
      flaky: async () => { await started; if (down) throw new Error('boom'); return { data: { flaky: true } }; },
    },
    edges: { start: ['sub', 'flaky'], sub: '__end__', flaky: '__end__' },
    entryPoint: 'start',
  }, { checkpointer: new MemoryStore() });
  const failed = await parent.execute({}, { threadId: 't' });
  assert.equal(failed.status, 'ERROR');
  assert.match(failed.error.message, /boom/);
  assert.deepEqual(ran, ['charge', 'wait']);
  down = false;
  const done = await parent.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED', done.error?.message);
  assert.deepEqual(done.state.data, { charged: true, waited: true, flaky: true });
  assert.deepEqual(ran, ['charge', 'wait', 'wait']);
  parent.dispose();
});

test('a subgraph node\'s own timeout fails the run with NODE_TIMEOUT once its child has stopped, and keeps the child: the resume runs only what had not run', async () => {
  const ran = [];
  let slow = true;
  const child = {
    nodes: {
      charge: () => { ran.push('charge'); return { data: { charged: true } }; },
      // Waits on its signal (a hung call), which the parent's timeout fires.
      ship: async (s, engine, ctx) => {
        ran.push('ship');
        if (slow) { await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true })); throw ctx.signal.reason; }
        return { data: { shipped: true } };
      },
    },
    edges: { charge: 'ship', ship: '__end__' },
    entryPoint: 'charge',
  };
  const parent = new GraphEngine({
    nodes: { order: { kind: 'subgraph', graph: child, output: (c) => ({ data: c.data }), timeoutMs: 30 } },
    edges: { order: '__end__' },
    entryPoint: 'order',
  }, { checkpointer: new MemoryStore() });
  const failed = await parent.execute({}, { threadId: 't' });
  assert.equal(failed.status, 'ERROR');
  assert.equal(failed.error.code, 'NODE_TIMEOUT');
  assert.match(failed.error.message, /node 'order' failed: timed out after 30 ms/);
  slow = false;
  const done = await parent.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED', done.error?.message);
  assert.deepEqual(done.state.data, { charged: true, shipped: true });
  assert.deepEqual(ran, ['charge', 'ship', 'ship']);
  parent.dispose();
});
