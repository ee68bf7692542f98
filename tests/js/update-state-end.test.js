// updateState(thread, values, '__end__'): a stopped run ends there, on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const definition = (log) => ({
  nodes: {
    fan: () => ({}),
    quick: () => { log.push('quick'); return { logs: ['quick'] }; },
    ask: (state, engine, ctx) => { log.push('ask'); return { data: { answer: ctx.interrupt('ok?') } }; },
    after: () => { log.push('after'); return { logs: ['after'] }; },
  },
  edges: { fan: ['quick', 'ask'], quick: '__end__', ask: 'after', after: '__end__' },
  entryPoint: 'fan',
});

test('updateState as END on a thread paused by interrupt(): the update is applied, a finished sibling keeps its writes, nothing else runs, the thread is FINISHED', async (t) => {
  const log = [];
  const engine = disposeAfter(t, new GraphEngine(definition(log), { checkpointer: new MemoryStore() }));
  const paused = await engine.execute({}, { threadId: 't' });
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(paused.interrupts.map((i) => i.value), ['ok?']);
  const ended = await engine.updateState({ threadId: 't' }, { data: { answer: 'skipped' } }, '__end__');
  assert.deepEqual(ended.state.data, { answer: 'skipped' });
  assert.deepEqual(ended.state.logs, ['quick']);
  const saved = await engine.getState('t');
  assert.equal(saved.status, 'FINISHED');
  assert.deepEqual(saved.interrupts, []);
  assert.equal(saved.checkpointId, ended.checkpointId);
  await assert.rejects(engine.resume({ threadId: 't' }, 'yes'), (e) => e.code === 'INVALID_INPUT' && /no interrupt is pending/.test(e.message));
  assert.deepEqual(log, ['quick', 'ask']);
});

test('updateState as END from a checkpoint (no thread) returns a finished checkpoint; asNode of another name is still checked (UNKNOWN_NODE)', async (t) => {
  const log = [];
  const engine = disposeAfter(t, new GraphEngine(definition(log)));
  const paused = await engine.execute({});
  const ended = await engine.updateState(paused.checkpoint, null, '__end__');
  assert.equal(JSON.parse(typeof ended.checkpoint === 'string' ? ended.checkpoint : JSON.stringify(ended.checkpoint)).status, 'FINISHED');
  await assert.rejects(engine.updateState(ended.checkpoint, null, 'nope'), (e) => e.code === 'UNKNOWN_NODE' && /'nope'/.test(e.message));
});
