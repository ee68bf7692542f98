// getStateHistory's `update: true`: the checkpoints updateState wrote say so (edgegraph/langgraph shows
// them with metadata source 'update', as LangGraph does), on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Checkpointer } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const definition = {
  nodes: {
    draft: () => ({ logs: ['draft'] }),
    review: () => ({ logs: ['review'] }),
    publish: () => ({ logs: ['publish'] }),
  },
  edges: { draft: 'review', review: 'publish', publish: '__end__' },
  entryPoint: 'draft',
};

/** The thread's history, oldest first, as [checkpointId, status, whether it has `update`, its value]. */
const marks = async (engine, threadId) => (await engine.getStateHistory(threadId)).reverse().map((h) => [h.checkpointId, h.status, 'update' in h, h.update]);

test('getStateHistory marks the checkpoints updateState wrote (update: true), and no others; another engine on the store reads the marks, and a resume from them goes on unmarked', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(definition, { interruptBefore: ['review'], checkpointer: store }));
  assert.equal((await engine.execute({}, { threadId: 'doc' })).status, 'PAUSED');
  const before = await marks(engine, 'doc');
  assert.ok(before.every(([, , has]) => !has));
  const plain = await engine.updateState({ threadId: 'doc' }, { logs: ['note'] });
  const asReview = await engine.updateState({ threadId: 'doc' }, { logs: ['reviewed by hand'] }, 'review');
  const after = await marks(engine, 'doc');
  assert.deepEqual(after.slice(0, before.length), before);
  assert.deepEqual(after.slice(before.length).map(([id, , has, update]) => [id, has, update]), [[plain.checkpointId, true, true], [asReview.checkpointId, true, true]]);
  // The mark is the record's: an engine in another process reads it from the store.
  const later = disposeAfter(t, new GraphEngine(definition, { checkpointer: new Checkpointer(store) }));
  assert.deepEqual(await marks(later, 'doc'), after);
  const done = await later.resume({ threadId: 'doc' });
  assert.deepEqual(done.state.logs, ['draft', 'note', 'reviewed by hand', 'publish']);
  const resumed = (await marks(later, 'doc')).slice(after.length);
  assert.ok(resumed.length > 0 && resumed.every(([, , has]) => !has));
  assert.equal(resumed.at(-1)[1], 'FINISHED');
});

test('the mark is covered by the record\'s checksum: an edited one does not read (INVALID_CHECKPOINT), and the history leaves it out', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(definition, { interruptBefore: ['review'], checkpointer: store }));
  await engine.execute({}, { threadId: 'doc' });
  const { checkpointId } = await engine.updateState({ threadId: 'doc' }, { logs: ['note'] });
  const key = (await store.list('doc/r/')).at(-1);
  const text = await store.get(key);
  assert.ok(text.includes('"u":1,"m":'));
  await store.put(key, text.replace('"u":1,', '"u":0,'));
  await assert.rejects(engine.getState('doc', checkpointId), (e) => e.code === 'INVALID_CHECKPOINT' && e.message.includes(`record ${checkpointId} of thread 'doc'`));
  assert.ok((await engine.getStateHistory('doc')).every((h) => h.checkpointId !== checkpointId && !('update' in h)));
});
