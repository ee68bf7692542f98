// An abort while a subgraph node runs its child: the child stops at a step and
// is kept with the parent's step, so a resume goes on inside the child and its
// finished nodes (their side effects) do not run again; on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore } from 'edgegraph';

test('an abort inside a subgraph node keeps the child\'s finished steps: the resume runs only what had not run', async () => {
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
      order: { kind: 'subgraph', graph: child, output: (c) => ({ data: c.data }) },
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
