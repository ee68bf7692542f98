// A thread's records are written in the order the run asked for them, one id
// each, even when a parallel step asks for the next record (a task finished)
// right as an earlier write ends and another one waits its turn: the waiting
// write must not be overtaken (both would take the same id, and the run would
// fail on its own thread as THREAD_BUSY). The web demo's map-reduce example on
// IndexedDB hit this under load.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Checkpointer } from '../../js/checkpointer.js';
import { MemoryStore } from '../../js/stores.js';
import { openThread } from '../../js/thread.js';

const meta = (step) => JSON.stringify({ format: 'edgegraph-checkpoint/1', graph: 'g', status: 'RUNNING', step });

test('a record asked for while another write waits its turn is written after it, with the next id', async () => {
  const store = new MemoryStore();
  const writer = openThread(new Checkpointer(store), 't');
  let third;
  // The first write's checkpoint event asks for a third record on the next
  // microtask: after the first write ends, before the queued second one starts.
  const first = writer.save(meta(1), () => '{}', () => { third = Promise.resolve().then(() => writer.save(meta(3), () => '{}')); });
  const second = writer.save(meta(2), () => '{}');
  await first;
  await second;
  await third;
  await writer.close();
  assert.equal(writer.error, null, `the run's own writes collided: ${writer.error?.message}`);
  const keys = (await store.list('t/r/')).sort();
  assert.deepEqual(keys, ['t/r/0000000001', 't/r/0000000002', 't/r/0000000003']);
  assert.equal(writer.parentId, 3);
});
