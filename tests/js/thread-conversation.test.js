// A thread is a conversation: execute(input, { threadId }) on a thread that
// has state continues from it, the input through the reducers, whatever the
// thread's status; two at once are one run and one THREAD_BUSY; a failed
// parallel step still shows its finished task's writes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

/** One node that answers the last user message (and fails on "fail"). */
const echo = (effects = []) => ({
  nodes: {
    reply: (s) => {
      const last = s.messages.at(-1).content;
      effects.push(last);
      if (last === 'fail') throw new Error('cannot answer "fail"');
      return { messages: [{ role: 'assistant', content: `you said ${last}` }], data: { turns: (s.data.turns ?? 0) + 1 } };
    },
  },
  edges: { reply: '__end__' },
  entryPoint: 'reply',
});
const user = (content) => ({ messages: [{ role: 'user', content }] });
const contents = (state) => state.messages.map((m) => `${m.role}: ${m.content}`);

test('a second execute on a thread continues it: the new message is appended, the history is one chain', async (t) => {
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(echo(), { checkpointer: store }));
  const first = await engine.execute(user('hi'), { threadId: 'chat' });
  assert.equal(first.status, 'FINISHED');
  const firstLast = (await engine.getState('chat')).checkpointId;
  const second = await engine.execute(user('and again'), { threadId: 'chat' });
  assert.equal(second.status, 'FINISHED');
  assert.deepEqual(contents(second.state), ['user: hi', 'assistant: you said hi', 'user: and again', 'assistant: you said and again']);
  assert.equal(second.state.data.turns, 2);
  const history = await engine.getStateHistory('chat');
  const secondFirst = history.filter((h) => h.checkpointId > firstLast).at(-1);
  assert.equal(secondFirst.parentId, firstLast, 'the second run follows the first');
  assert.deepEqual((await engine.getState('chat')).state, second.state);
  // In a new engine (another request), the same.
  const third = await disposeAfter(t, new GraphEngine(echo(), { checkpointer: store })).execute(user('three'), { threadId: 'chat' });
  assert.equal(third.state.data.turns, 3);
});

test('an ERROR thread and a PAUSED thread accept new input the same way (not NOT_RESUMABLE)', async (t) => {
  const effects = [];
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine(echo(effects), { checkpointer: store }));
  const failed = await engine.execute(user('fail'), { threadId: 'e' });
  assert.equal(failed.status, 'ERROR');
  const ok = await engine.execute(user('fine'), { threadId: 'e' });
  assert.equal(ok.status, 'FINISHED', ok.error?.message);
  assert.deepEqual(contents(ok.state), ['user: fail', 'user: fine', 'assistant: you said fine']);
  const asking = disposeAfter(t, new GraphEngine({
    nodes: { ask: (s) => (s.messages.length < 2 ? { pendingAskUser: { question: 'name?' } } : { data: { name: s.messages.at(-1).content } }) },
    edges: { ask: '__end__' }, entryPoint: 'ask',
  }, { checkpointer: store }));
  assert.equal((await asking.execute(user('hello'), { threadId: 'a' })).status, 'PAUSED');
  const answered = await asking.execute(user('Ada'), { threadId: 'a' });
  assert.equal(answered.status, 'FINISHED');
  assert.equal(answered.state.data.name, 'Ada');
  assert.equal(answered.state.pendingAskUser ?? null, null);
});

test('two executes on one thread at once (new and existing): one runs, the other is THREAD_BUSY', async (t) => {
  for (const existing of [false, true]) {
    const effects = [];
    const store = new MemoryStore();
    if (existing) await disposeAfter(t, new GraphEngine(echo(), { checkpointer: store })).execute(user('first'), { threadId: 'x' });
    let release;
    const gate = new Promise((r) => { release = r; });
    const slow = { nodes: { reply: async (s) => { effects.push(s.messages.at(-1).content); await gate; return {}; } }, edges: { reply: '__end__' }, entryPoint: 'reply' };
    const runs = ['a', 'b'].map((m) => disposeAfter(t, new GraphEngine(slow, { checkpointer: store })).execute(user(m), { threadId: 'x' }));
    const lost = await Promise.race(runs.map((p) => p.then(() => null, (e) => e)));
    assert.equal(lost?.code, 'THREAD_BUSY', `existing ${existing}`);
    assert.match(lost.message, /'x'/);
    release();
    const settled = await Promise.allSettled(runs);
    assert.deepEqual(settled.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
    assert.equal(effects.length, 1, 'one run ran its node');
  }
});

test('a parallel step where one task failed: getState shows the finished task\'s writes and the failed task\'s error', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { fan: () => ({}), l: () => ({ data: { l: 1 } }), r: async () => { await null; throw new Error('r broke'); }, done: () => ({}) },
    edges: { fan: ['l', 'r'], l: 'done', r: 'done', done: '__end__' },
    entryPoint: 'fan',
  }, { checkpointer: new MemoryStore() }));
  const r = await engine.execute({}, { threadId: 'p' });
  assert.equal(r.status, 'ERROR');
  const now = await engine.getState('p');
  assert.equal(now.status, 'ERROR');
  const l = now.tasks.find((t) => t.node === 'l');
  assert.deepEqual([l.status, l.writes], ['done', { data: { l: 1 } }]);
  const rt = now.tasks.find((t) => t.node === 'r');
  assert.equal(rt.status, 'failed');
  assert.match(JSON.stringify(rt.error), /r broke/);
});
