// updateState(saved, values, asNode, { restartTasks: true }): a fork of a paused step whose
// unfinished tasks run again from the top (their interrupts, answers and a paused subgraph's
// child dropped), and an answer a node took is kept with it when it fails or is retried. On the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Command } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

/** s -> [p, q, sub, done] -> END: p and q ask, sub's child asks after a first node, done finishes. */
function forkable(calls) {
  const asker = (name) => (state, engine, ctx) => { calls.push(name); return { logs: [`${name}:${ctx.interrupt(`${name}?`)}:${state.data?.note ?? '-'}`] }; };
  const child = {
    nodes: {
      c1: (state) => { calls.push('c1'); return { data: { seen: state.data?.note ?? '-' } }; },
      c2: (state, engine, ctx) => ({ data: { child: `${ctx.interrupt('c?')}:${state.data?.seen}` } }),
    },
    edges: { c1: 'c2', c2: '__end__' },
    entryPoint: 'c1',
  };
  return {
    nodes: {
      s: () => ({}),
      p: asker('p'),
      q: asker('q'),
      sub: { kind: 'subgraph', graph: child, input: (state) => ({ data: { note: state.data?.note } }), output: (c) => ({ logs: [`sub:${c.data.child}`] }) },
      done: () => { calls.push('done'); return { logs: ['done'] }; },
    },
    edges: { s: ['p', 'q', 'sub', 'done'], p: '__end__', q: '__end__', sub: '__end__', done: '__end__' },
    entryPoint: 's',
    state: { reducers: { logs: 'concat' } },
  };
}

test('updateState with restartTasks on a paused step: its tasks ask again from the top (a subgraph\'s child from the fork\'s values), the finished task does not run again, and the step it forked from keeps its interrupts', async (t) => {
  const store = new MemoryStore();
  const calls = [];
  const engine = disposeAfter(t, new GraphEngine(forkable(calls), { checkpointer: store }));
  const paused = await engine.execute({}, { threadId: 'fork' });
  assert.deepEqual(paused.interrupts.map((i) => i.id), ['p:2.0:0', 'q:2.1:0', 'sub:2.2/c2:2.0:0']);
  const pausedAt = (await engine.getState('fork')).checkpointId;
  // The first run's answers, given and then forked away: the fork's tasks have none of them.
  const answered = await engine.resume({ threadId: 'fork' }, { 'p:2.0:0': 'P', 'q:2.1:0': 'Q', 'sub:2.2/c2:2.0:0': 'C' });
  assert.equal(answered.status, 'FINISHED');
  calls.length = 0;

  const fork = await engine.updateState({ threadId: 'fork', checkpointId: pausedAt }, { data: { note: 'edited' } }, undefined, { restartTasks: true });
  assert.equal(fork.state.status, 'PAUSED');
  // Nothing is pending: an answer is refused (GraphEngine's resume answers only what is asked).
  await assert.rejects(engine.resume({ threadId: 'fork' }, new Command({ resume: 'x' })), { code: 'UNKNOWN_INTERRUPT' });
  const asked = await engine.resume({ threadId: 'fork' });
  assert.equal(asked.status, 'PAUSED');
  assert.deepEqual(asked.interrupts.map((i) => [i.id, i.value]), [['p:2.0:0', 'p?'], ['q:2.1:0', 'q?'], ['sub:2.2/c2:2.0:0', 'c?']]);
  assert.deepEqual(calls, ['p', 'q', 'c1'], 'done kept its result; the child ran from its first node');
  const done = await engine.resume({ threadId: 'fork' }, { 'p:2.0:0': 'p2', 'q:2.1:0': 'q2', 'sub:2.2/c2:2.0:0': 'c2' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.logs, ['done', 'p:p2:edited', 'q:q2:edited', 'sub:c2:edited']);

  // The checkpoint forked from is unchanged: it still waits for its three answers.
  const again = await engine.resume({ threadId: 'fork', checkpointId: pausedAt }, { 'p:2.0:0': 'P', 'q:2.1:0': 'Q', 'sub:2.2/c2:2.0:0': 'C' });
  assert.deepEqual(again.state.logs, ['done', 'p:P:-', 'q:Q:-', 'sub:C:-']);
});

test('updateState without restartTasks keeps the pending interrupts (the answer goes on from the edit); restartTasks on a checkpoint returns one whose tasks ask again; an unknown option is INVALID_OPTIONS', async (t) => {
  const calls = [];
  const engine = disposeAfter(t, new GraphEngine(forkable(calls)));
  const paused = await engine.execute({});
  const answers = { 'p:2.0:0': 'P', 'q:2.1:0': 'Q', 'sub:2.2/c2:2.0:0': 'C' };
  const edited = await engine.updateState(paused.checkpoint, { data: { note: 'kept' } });
  const kept = await engine.resume(edited.checkpoint, answers);
  assert.deepEqual(kept.state.logs, ['done', 'p:P:kept', 'q:Q:kept', 'sub:C:-'], 'the child resumed where it paused');

  const forked = await engine.updateState(paused.checkpoint, null, undefined, { restartTasks: true });
  await assert.rejects(engine.resume(forked.checkpoint, new Command({ resume: answers })), { code: 'UNKNOWN_INTERRUPT' });
  const asked = await engine.resume(forked.checkpoint);
  assert.deepEqual(asked.interrupts.map((i) => i.value), ['p?', 'q?', 'c?']);

  await assert.rejects(engine.updateState(paused.checkpoint, null, undefined, { restartTask: true }), { code: 'INVALID_OPTIONS', message: /'restartTask'/ });
});

test('an answer a node took while none was pending (edgegraph/langgraph\'s resume of a fork), then the node failed: a resume of the failed run (from its checkpoint, in a new engine) runs it again with that answer', async (t) => {
  let fail = true;
  const seen = [];
  const definition = {
    nodes: { ask: (state, engine, ctx) => { const answer = ctx.interrupt('q?'); seen.push(answer); if (fail) throw new Error('down'); return { data: { answer } }; } },
    edges: { ask: '__end__' },
    entryPoint: 'ask',
  };
  // interrupt.js's NEXT_ANSWER: the answer for the first interrupt() of the tasks about to run.
  const failed = await disposeAfter(t, new GraphEngine(definition)).execute({}, { [Symbol.for('edgegraph.nextAnswer')]: { value: 'v', steps: 1 } });
  assert.equal(failed.status, 'ERROR');
  assert.equal(failed.error.message.includes('down'), true);
  assert.equal(JSON.stringify(failed.state).includes('answers'), false, 'the kept answer is not part of the error or the state');
  fail = false;
  const done = await disposeAfter(t, new GraphEngine(definition)).resume(JSON.parse(JSON.stringify(failed.checkpoint)));
  assert.deepEqual([done.status, done.state.data, done.interrupts, seen], ['FINISHED', { answer: 'v' }, undefined, ['v', 'v']]);
});

test('an answer a node took while none was pending, then a retry (retry policy): the retry gets it at the same interrupt(), a later interrupt() pauses, and the resume answers that one', async (t) => {
  let tries = 0;
  const definition = {
    nodes: {
      ask: {
        handler: (state, engine, ctx) => {
          tries++;
          const first = ctx.interrupt('1?');
          if (tries === 1) throw new Error('flaky');
          return { data: { both: `${first}:${ctx.interrupt('2?')}` } };
        },
        retry: { attempts: 2, backoffMs: 1 },
      },
    },
    edges: { ask: '__end__' },
    entryPoint: 'ask',
  };
  const engine = disposeAfter(t, new GraphEngine(definition));
  const paused = await engine.execute({}, { [Symbol.for('edgegraph.nextAnswer')]: { value: 'v', steps: 1 } });
  assert.deepEqual([paused.status, paused.interrupts?.map((i) => [i.id, i.value]), tries], ['PAUSED', [['ask:1.0:1', '2?']], 2]);
  const done = await engine.resume(JSON.parse(JSON.stringify(paused.checkpoint)), 'w');
  assert.deepEqual([done.status, done.state.data, tries], ['FINISHED', { both: 'v:w' }, 3]);
});
