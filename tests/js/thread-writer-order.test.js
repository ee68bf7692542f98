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
import { digest } from '../../js/records.js';

const meta = (step) => JSON.stringify({ format: 'edgegraph-checkpoint/1', graph: 'g', status: 'RUNNING', step });

/** A stand-in for the core's run: record n holds meta(n) and an empty patch, sealed when asked (flag 4) as eg_run_record seals. */
function fakeCore() {
  let step = 0;
  return {
    runRecordPatches() {},
    runRecord(handle, flags, seed, parent, time, depth) {
      const body = `"m":${meta(++step)},"x":[]}`;
      if (!(flags & 4)) return body;
      const text = `{"v":2,"p":${parent < 0 ? null : parent},"t":${time},"d":${depth},${body}`;
      return digest(seed, text) + text;
    },
  };
}

test('a record asked for while another write waits its turn is written after it, with the next id', async () => {
  const store = new MemoryStore();
  const writer = openThread(new Checkpointer(store), 't');
  writer.bind(fakeCore(), 1);
  let third;
  // The first write's checkpoint event asks for a third record on the next
  // microtask: after the first write ends, before the queued second one starts.
  const first = writer.save(() => { third = Promise.resolve().then(() => writer.save()); });
  const second = writer.save();
  await first;
  await second;
  await third;
  await writer.close();
  assert.equal(writer.error, null, `the run's own writes collided: ${writer.error?.message}`);
  const keys = (await store.list('t/r/')).sort();
  assert.deepEqual(keys, ['t/r/0000000001', 't/r/0000000002', 't/r/0000000003']);
  assert.equal(writer.parentId, 3);
  // Each record holds the checkpoint asked for under its id.
  const steps = await Promise.all(keys.map(async (k) => JSON.parse((await store.get(k)).slice(16)).m.step));
  assert.deepEqual(steps, [1, 2, 3]);
});
