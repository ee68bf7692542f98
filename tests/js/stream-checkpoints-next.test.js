// stream({ streamMode: 'checkpoints' }): each chunk's `next` is what getStateHistory lists for that
// checkpoint (its pendingTasks), routers and a pause after them (interruptAfter) included, on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

test('checkpoints mode: each chunk\'s next is getStateHistory\'s pendingTasks for its checkpoint: parallel tasks, their routers, a pause after a router and its resume', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { fan: () => ({}), p: () => ({ logs: ['p'] }), q: () => ({ logs: ['q'] }), z: () => ({ logs: ['z'] }) },
    edges: { fan: ['p', 'q'], p: { router: () => 'z', targets: ['z', '__end__'] }, q: { router: () => 'z', targets: ['z', '__end__'] }, z: '__end__' },
    entryPoint: 'fan',
  }, { checkpointer: new MemoryStore(), interruptAfter: ['q'] }));
  const chunks = [];
  for (const start of [() => engine.stream({}, { streamMode: 'checkpoints', threadId: 'c' }), () => engine.streamResume({ threadId: 'c' }, undefined, { streamMode: 'checkpoints' })]) {
    for await (const c of start()) chunks.push([c.checkpointId, c.status, c.next]);
  }
  const history = new Map((await engine.getStateHistory('c')).map((h) => [h.checkpointId, [h.checkpointId, h.status, h.pendingTasks]]));
  assert.deepEqual(chunks, chunks.map(([id]) => history.get(id)));
  // The pause after the routers shows where they chose (z, once each), not nothing; the resume then runs z and finishes.
  const paused = chunks.find(([, status]) => status === 'PAUSED');
  assert.deepEqual(paused?.[2], ['z', 'z']);
  assert.deepEqual(chunks.at(-1).slice(1), ['FINISHED', []]);
});
