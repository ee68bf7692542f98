// Redeploys: a thread written by one engine is resumed by another built from
// an edited definition (a node added, an edge changed, a node renamed or
// removed, a version bumped with a migration), from the same store.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Checkpointer } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const ask = () => ({ pendingAskUser: { question: 'go on?' } });

/** Run `definition` on thread `id` in `store` until it pauses; the stored checkpoint is all that is kept. */
async function pausedThread(definition, store, id, input = {}) {
  const engine = new GraphEngine(definition, { checkpointer: store });
  const paused = await engine.execute(input, { threadId: id });
  assert.equal(paused.status, 'PAUSED');
  engine.dispose();
  return paused;
}

/** The edited definition, deployed: a new engine over the same store. */
const redeploy = (t, definition, store) => disposeAfter(t, new GraphEngine(definition, { checkpointer: new Checkpointer(store) }));

test('a node added after the pause runs when the thread resumes', async (t) => {
  const store = new MemoryStore();
  await pausedThread({ nodes: { ask, send: () => ({ data: { sent: true } }) }, edges: { ask: 'send', send: '__end__' }, entryPoint: 'ask' }, store, 't');
  const edited = redeploy(t, {
    nodes: { ask, review: () => ({ data: { reviewed: true } }), send: (s) => ({ data: { sent: true, afterReview: s.data.reviewed === true } }) },
    edges: { ask: 'review', review: 'send', send: '__end__' },
    entryPoint: 'ask',
  }, store);
  const done = await edited.resume({ threadId: 't' }, { role: 'user', content: 'yes' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.data, { reviewed: true, sent: true, afterReview: true });
});

test('a changed edge routes the resumed thread the new way', async (t) => {
  const store = new MemoryStore();
  const nodes = { ask, draft: () => ({ logs: ['draft'] }), send: () => ({ logs: ['send'] }) };
  await pausedThread({ nodes, edges: { ask: 'draft', draft: 'send', send: '__end__' }, entryPoint: 'ask' }, store, 't');
  const edited = redeploy(t, { nodes, edges: { ask: 'send', send: 'draft', draft: '__end__' }, entryPoint: 'ask' }, store);
  const done = await edited.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.logs, ['send', 'draft']);
});

test('a renamed node with a migration: the thread continues at the new name, in the new state shape', async (t) => {
  const store = new MemoryStore();
  const v1 = { nodes: { confirm: ask, greet: (s) => ({ data: { text: `hi ${s.data.name}` } }) }, edges: { confirm: 'greet', greet: '__end__' }, entryPoint: 'confirm' };
  await pausedThread(v1, store, 't', { data: { name: 'Ada' } });
  const seen = [];
  const v2 = {
    version: 2,
    renamedNodes: { confirm: 'approve' },
    migrate(state, fromVersion) {
      seen.push(fromVersion);
      const { name, ...data } = state.data;
      return { ...state, currentNode: 'approve', data: { ...data, person: { name } } };
    },
    nodes: { approve: ask, greet: (s) => ({ data: { text: `hi ${s.data.person.name}` } }) },
    edges: { approve: 'greet', greet: 'ask2', ask2: '__end__' },
    entryPoint: 'approve',
  };
  v2.nodes.ask2 = ask;
  const engine = redeploy(t, v2, store);
  const again = await engine.resume({ threadId: 't' });
  assert.deepEqual(seen, [0], 'migrated once, from the version the checkpoint was written under');
  assert.equal(again.status, 'PAUSED');
  assert.equal(again.state.data.text, 'hi Ada');
  assert.equal(again.state.data.name, undefined);
  // The records after the migration rebuild to the migrated state (a snapshot,
  // not a patch on the old shape): another deploy of v2 resumes them, without migrating again.
  const later = redeploy(t, v2, store);
  const done = await later.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.data, { person: { name: 'Ada' }, text: 'hi Ada' });
  assert.deepEqual(seen, [0]);
});

test('removing the node a thread is paused on is CHECKPOINT_GRAPH_MISMATCH naming it; the thread is kept', async (t) => {
  const store = new MemoryStore();
  const v1 = { nodes: { ask, send: () => ({}) }, edges: { ask: 'send', send: '__end__' }, entryPoint: 'ask' };
  await pausedThread(v1, store, 't');
  const edited = redeploy(t, { nodes: { start: () => ({}), send: () => ({}) }, edges: { start: 'send', send: '__end__' }, entryPoint: 'start' }, store);
  await assert.rejects(edited.resume({ threadId: 't' }), (e) => e.code === 'CHECKPOINT_GRAPH_MISMATCH' && /'ask'/.test(e.message) && /renamedNodes/.test(e.message));
  // The old definition still resumes it.
  const done = await redeploy(t, v1, store).resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
});

test('every missing node is named: a paused parallel step whose branches are both gone', async (t) => {
  const store = new MemoryStore();
  const v1 = { nodes: { split: () => ({}), left: ask, right: () => ({ data: { r: 1 } }), join: () => ({}) }, edges: { split: ['left', 'right'], left: 'join', right: 'join', join: '__end__' }, entryPoint: 'split' };
  await pausedThread(v1, store, 't');
  const edited = redeploy(t, { nodes: { split: () => ({}), join: () => ({}) }, edges: { split: 'join', join: '__end__' }, entryPoint: 'split' }, store);
  await assert.rejects(edited.resume({ threadId: 't' }), (e) => e.code === 'CHECKPOINT_GRAPH_MISMATCH' && /'left', 'right'/.test(e.message));
});

test('a version bump with migrate reshapes a kept checkpoint; no migrate keeps the state as it was', async (t) => {
  const v1 = { version: 1, nodes: { ask, count: (s) => ({ data: { count: s.data.count + 1 } }) }, edges: { ask: 'count', count: '__end__' }, entryPoint: 'ask' };
  const paused = await disposeAfter(t, new GraphEngine(v1)).execute({ data: { count: 3 } });
  assert.equal(JSON.parse(paused.checkpoint).graphVersion, 1);
  const v2 = {
    version: 2,
    migrate: async (state, from) => ({ ...state, data: { counter: { value: state.data.count, migratedFrom: from } } }),
    nodes: { ask, count: (s) => ({ data: { counter: { ...s.data.counter, value: s.data.counter.value + 1 } } }) },
    edges: { ask: 'count', count: '__end__' },
    entryPoint: 'ask',
  };
  const done = await disposeAfter(t, new GraphEngine(v2)).resume(paused.checkpoint);
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.data, { counter: { value: 4, migratedFrom: 1 } });
  // A version bump alone changes nothing.
  const plain = await disposeAfter(t, new GraphEngine({ ...v1, version: 3 })).resume(paused.checkpoint);
  assert.deepEqual(plain.state.data, { count: 4 });
});

test('a migrate that throws is MIGRATION_FAILED naming the thread; nothing ran and the thread still resumes', async (t) => {
  const store = new MemoryStore();
  const ran = [];
  const v1 = { nodes: { ask, next: () => { ran.push('next'); return {}; } }, edges: { ask: 'next', next: '__end__' }, entryPoint: 'ask' };
  await pausedThread(v1, store, 'th-9');
  const broken = redeploy(t, { ...v1, version: 2, migrate: () => { throw new Error('bad field'); } }, store);
  await assert.rejects(broken.resume({ threadId: 'th-9' }), (e) => e.code === 'MIGRATION_FAILED' && /th-9/.test(e.message) && /bad field/.test(e.message) && /version 2/.test(e.message));
  const wrong = redeploy(t, { ...v1, version: 2, migrate: () => [1] }, store);
  await assert.rejects(wrong.resume({ threadId: 'th-9' }), (e) => e.code === 'MIGRATION_FAILED' && /an array/.test(e.message));
  assert.deepEqual(ran, []);
  assert.throws(() => new GraphEngine({ ...v1, migrate: 'yes' }), (e) => e.code === 'INVALID_DEFINITION' && /migrate/.test(e.message));
  const fixed = redeploy(t, { ...v1, version: 2, migrate: (s) => s }, store);
  assert.equal((await fixed.resume({ threadId: 'th-9' })).status, 'FINISHED');
  assert.deepEqual(ran, ['next']);
});

test('the checksum still catches an edited or truncated checkpoint after many steps', async (t) => {
  const nodes = {}, edges = {};
  for (let i = 0; i < 20; i++) { nodes[`n${i}`] = () => ({ data: { [`k${i}`]: i }, messages: [{ role: 'assistant', content: `step ${i}` }] }); edges[`n${i}`] = `n${i + 1}`; }
  nodes.n20 = ask;
  edges.n20 = '__end__';
  const store = new MemoryStore();
  const engine = disposeAfter(t, new GraphEngine({ nodes, edges, entryPoint: 'n0' }, { checkpointer: store }));
  const paused = await engine.execute({ data: { big: 'x'.repeat(10000) } }, { threadId: 't' });
  const edited = JSON.parse(paused.checkpoint);
  edited.state.data.k7 = 8;
  await assert.rejects(engine.resume(JSON.stringify(edited)), (e) => e.code === 'INVALID_CHECKPOINT' && /checksum/.test(e.message));
  const cut = JSON.parse(paused.checkpoint);
  cut.state.messages.pop();
  await assert.rejects(engine.resume(JSON.stringify(cut)), (e) => e.code === 'INVALID_CHECKPOINT' && /checksum/.test(e.message));
  await assert.rejects(engine.resume(paused.checkpoint.slice(0, -40)), (e) => e.code === 'INVALID_CHECKPOINT');
  // Untouched, it restores, and so does the thread it was stored in.
  assert.equal((await engine.resume(paused.checkpoint)).status, 'FINISHED');
  assert.equal((await engine.resume({ threadId: 't' })).status, 'FINISHED');
});

test('a conversation on a thread written under an older version: execute migrates its state first', async (t) => {
  const store = new MemoryStore();
  const v1 = { nodes: { reply: (s) => ({ data: { turns: (s.data.turns ?? 0) + 1 } }) }, edges: { reply: '__end__' }, entryPoint: 'reply' };
  const first = await disposeAfter(t, new GraphEngine(v1, { checkpointer: store })).execute({}, { threadId: 'chat' });
  assert.equal(first.state.data.turns, 1);
  const v2 = {
    version: 2,
    migrate: (state) => ({ ...state, data: { count: { turns: state.data.turns } } }),
    nodes: { reply: (s) => ({ data: { count: { turns: s.data.count.turns + 1 } } }) },
    edges: { reply: '__end__' },
    entryPoint: 'reply',
  };
  const engine = redeploy(t, v2, store);
  const second = await engine.execute({ messages: [{ role: 'user', content: 'again' }] }, { threadId: 'chat' });
  assert.equal(second.status, 'FINISHED');
  assert.deepEqual(second.state.data, { count: { turns: 2 } });
  // The migrated thread reads back, and continues under v2 without migrating twice.
  const third = await redeploy(t, v2, store).execute({}, { threadId: 'chat' });
  assert.deepEqual(third.state.data, { count: { turns: 3 } });
});

test('a thread paused while a join waits resumes into a graph that renamed the join and a branch that arrived (renamedNodes)', async (t) => {
  const store = new MemoryStore();
  const ran = [];
  const node = (name, out = {}) => () => { ran.push(name); return out; };
  await pausedThread({
    nodes: { a: node('a'), b: node('b'), c: node('c'), e: node('e', { shouldPause: true }), d: { handler: node('d'), join: ['b', 'e'] } },
    edges: { a: ['b', 'c'], b: 'd', c: 'e', e: 'd', d: '__end__' },
    entryPoint: 'a',
  }, store, 't');
  const edited = redeploy(t, {
    renamedNodes: { d: 'merge', b: 'left' },
    nodes: { a: node('a'), left: node('left'), c: node('c'), e: node('e'), merge: { handler: node('merge'), join: ['left', 'e'] } },
    edges: { a: ['left', 'c'], left: 'merge', c: 'e', e: 'merge', merge: '__end__' },
    entryPoint: 'a',
  }, store);
  const done = await edited.resume({ threadId: 't' });
  assert.equal(done.status, 'FINISHED');
  // The join ran once, under its new name, after the branch that had paused; no branch ran again.
  assert.deepEqual(ran, ['a', 'b', 'c', 'e', 'merge']);
});

test('a thread paused while a join waits, restored into a graph without that join: CHECKPOINT_GRAPH_MISMATCH naming it', async (t) => {
  const store = new MemoryStore();
  const nodes = { a: () => ({}), b: () => ({}), c: () => ({}), e: () => ({ shouldPause: true }) };
  await pausedThread({ nodes: { ...nodes, d: { handler: () => ({}), join: ['b', 'e'] } }, edges: { a: ['b', 'c'], b: 'd', c: 'e', e: 'd', d: '__end__' }, entryPoint: 'a' }, store, 't');
  const edited = redeploy(t, { nodes, edges: { a: ['b', 'c'], b: '__end__', c: 'e', e: '__end__' }, entryPoint: 'a' }, store);
  await assert.rejects(edited.resume({ threadId: 't' }), (e) => e.code === 'CHECKPOINT_GRAPH_MISMATCH' && e.message.includes("'d'"));
});
