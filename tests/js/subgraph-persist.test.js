// A subgraph node with persist: true keeps its child's state in the parent's, across calls and checkpoints; on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore } from 'edgegraph';

const child = () => ({
  nodes: { count: (s) => ({ data: { calls: (s.data.calls ?? 0) + 1, last: s.data.input } }) },
  edges: { count: '__end__' },
  entryPoint: 'count',
});

const parent = (persist) => ({
  nodes: {
    tally: { kind: 'subgraph', graph: child(), persist, input: (s) => ({ data: { input: s.data.input } }), output: (c) => ({ data: { calls: c.data.calls, last: c.data.last } }) },
  },
  edges: { tally: '__end__' },
  entryPoint: 'tally',
});

test('persist: true: the child starts from its last state on each call of a thread (the input written through its reducers); without it, afresh', async () => {
  const store = new MemoryStore();
  const kept = new GraphEngine(parent(true), { checkpointer: store });
  assert.deepEqual((await kept.execute({ data: { input: 'a' } }, { threadId: 't' })).state.data, { input: 'a', calls: 1, last: 'a' });
  const second = await kept.execute({ data: { input: 'b' } }, { threadId: 't' });
  assert.deepEqual(second.state.data, { input: 'b', calls: 2, last: 'b' });
  assert.equal(second.state.subgraphs.tally.finished.data.calls, 2);
  // Another engine over the same store (another process) goes on from the checkpoint.
  const again = new GraphEngine(parent(true), { checkpointer: store });
  assert.equal((await again.execute({ data: { input: 'c' } }, { threadId: 't' })).state.data.calls, 3);
  assert.equal((await again.execute({ data: { input: 'd' } }, { threadId: 'other' })).state.data.calls, 1);
  const fresh = new GraphEngine(parent(false), { checkpointer: new MemoryStore() });
  await fresh.execute({ data: { input: 'a' } }, { threadId: 't' });
  const r = await fresh.execute({ data: { input: 'b' } }, { threadId: 't' });
  assert.equal(r.state.data.calls, 1);
  assert.equal(r.state.subgraphs.tally, null);
  for (const e of [kept, again, fresh]) e.dispose();
});
