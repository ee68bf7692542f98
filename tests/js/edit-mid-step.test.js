// An edit of a run stopped in the middle of a step (updateState, or a resume's
// Command update) comes after what the step's finished tasks wrote: nothing of
// either is lost when the step commits, whatever the reducer (built in, JS, or
// none), and the finished tasks do not run again. On the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Command } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

/** s -> [ask, done]: ask asks, done writes a built-in append, a JS-reduced list and a last value. */
function step(ran) {
  return {
    nodes: {
      s: () => ({}),
      ask: (state, engine, ctx) => { const answer = ctx.interrupt('ok?'); ran.push(`ask:${answer}`); return { logs: [`ask:${answer}`], tags: [`ask:${answer}`] }; },
      done: () => { ran.push('done'); return { logs: ['done'], tags: ['done'], data: { status: 'done' } }; },
    },
    edges: { s: ['ask', 'done'], ask: '__end__', done: '__end__' },
    entryPoint: 's',
    state: { reducers: { logs: 'concat', tags: (a = [], b) => a.concat(b) } },
  };
}

test('updateState on a step paused in one task while another finished: the edit stands beside the finished task\'s writes, then the answer\'s', async (t) => {
  const ran = [];
  const engine = disposeAfter(t, new GraphEngine(step(ran), { checkpointer: new MemoryStore() }));
  assert.equal((await engine.execute({}, { threadId: 'e' })).status, 'PAUSED');
  await engine.updateState({ threadId: 'e' }, { logs: ['edit'], tags: ['edit'], data: { status: 'edited' } });
  const edited = (await engine.getState('e')).state;
  assert.deepEqual([edited.logs, edited.tags, edited.data.status], [['done', 'edit'], ['done', 'edit'], 'edited']);
  const done = await engine.resume({ threadId: 'e' }, new Command({ resume: 'yes' }));
  assert.deepEqual([done.status, done.state.logs, done.state.tags, done.state.data.status, ran],
    ['FINISHED', ['done', 'edit', 'ask:yes'], ['done', 'edit', 'ask:yes'], 'edited', ['done', 'ask:yes']]);
});

test('a resume\'s Command update on such a step: the same, in one call', async (t) => {
  const ran = [];
  const engine = disposeAfter(t, new GraphEngine(step(ran), { checkpointer: new MemoryStore() }));
  await engine.execute({}, { threadId: 'u' });
  const done = await engine.resume({ threadId: 'u' }, new Command({ resume: 'yes', update: { logs: ['note'], tags: ['note'], data: { status: 'noted' } } }));
  assert.deepEqual([done.state.logs, done.state.tags, done.state.data.status, ran],
    [['done', 'note', 'ask:yes'], ['done', 'note', 'ask:yes'], 'noted', ['done', 'ask:yes']]);
});
