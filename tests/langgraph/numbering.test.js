// getState's numbering (metadata.step, parentConfig, what is shown) on a thread that
// grows: pauses and their resumes, a failure and its rerun, updateState, a fork. Each
// operation is followed by getState, so edgegraph numbers the records since from the
// index it keeps (js/langgraph/numbering.js), and every checkpoint then reads as the
// whole thread's history shows it, on both libraries. Then, edgegraph's alone: getState
// reads the same few records on a long thread as on a short one, and a thread without an
// index (written before it), or with one that does not belong to it, still reads right.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore, FileStore } from 'edgegraph';
import * as edgegraph from 'edgegraph/langgraph';
import { implementations, named } from './support/impls.js';

const log = (lib) => lib.Annotation({ reducer: (a, b) => a.concat(b), default: () => [] });

/** What a snapshot says of where it is: the history's and getState's must agree. */
const place = (s) => ({ values: s.values, next: s.next, metadata: s.metadata, id: s.config.configurable.checkpoint_id, parent: s.parentConfig?.configurable.checkpoint_id });

/** getState of the thread and of each of its checkpoints agree with the whole history. */
async function agrees(graph, config) {
  const history = [];
  for await (const s of graph.getStateHistory(config)) history.push(place(s));
  const latest = await graph.getState(config);
  assert.deepEqual([latest.metadata, latest.config.configurable.checkpoint_id, latest.parentConfig?.configurable.checkpoint_id], [history[0].metadata, history[0].id, history[0].parent]);
  for (const h of history) {
    assert.deepEqual(place(await graph.getState({ configurable: { ...config.configurable, checkpoint_id: h.id } })), h);
  }
  return history.map((h) => [h.metadata.step, h.metadata.source, h.next]);
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = impl;

  test(named(impl, 'getState after each pause, resume, failure, rerun, updateState and fork: each checkpoint as the history numbers it'), async () => {
    let fail = true;
    const graph = new StateGraph(Annotation.Root({ log: log(impl) }))
      .addNode('ask', () => ({ log: [`${interrupt('first?')}${interrupt('second?')}`] }))
      .addNode('work', () => { if (fail) throw new Error('boom!'); return { log: ['work'] }; })
      .addEdge(START, 'ask').addEdge('ask', 'work').addEdge('work', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'grows' } };
    const steps = async () => (await graph.getState(config)).metadata.step;
    const seen = [];
    await graph.invoke({ log: ['in'] }, config);
    seen.push(await steps());
    await graph.invoke(new Command({ resume: 'A' }), config);
    seen.push(await steps());
    await assert.rejects(graph.invoke(new Command({ resume: 'B' }), config), /boom!/);
    seen.push(await steps());
    fail = false;
    assert.deepEqual(await graph.invoke(null, config), { log: ['in', 'AB', 'work'] });
    seen.push(await steps());
    await graph.updateState(config, { log: ['edit'] });
    seen.push(await steps());
    await graph.updateState(config, { log: ['as ask'] }, 'ask');
    seen.push(await steps());
    await graph.invoke(null, config);
    seen.push(await steps());
    // A second run's input, on the thread as it is now: it asks again.
    await graph.invoke({ log: ['again'] }, config);
    seen.push(await steps());
    await graph.invoke(new Command({ resume: 'C' }), config);
    seen.push(await steps());
    // A fork: an edit of the checkpoint before the first run's work, then run from there.
    let before;
    for await (const s of graph.getStateHistory(config)) if (s.next[0] === 'work') before = s.config;
    const fork = await graph.updateState(before, { log: ['forked'] });
    seen.push(await steps());
    await graph.invoke(null, fork);
    seen.push(await steps());
    assert.deepEqual(seen, [0, 0, 1, 2, 3, 4, 5, 7, 7, 2, 3]);
    assert.deepEqual(await agrees(graph, config), [
      [3, 'loop', []], [2, 'update', ['work']],
      [7, 'loop', ['ask']], [6, 'input', ['__start__']], [5, 'loop', []], [4, 'update', ['work']], [3, 'update', []],
      [2, 'loop', []], [1, 'loop', ['work']], [0, 'loop', ['ask']], [-1, 'input', ['__start__']],
    ]);
  });
}

/** A store that counts the records it is asked for, and its lists. */
class Counting extends MemoryStore {
  records = 0;
  lists = 0;
  async get(key) { if (key.includes('/r/')) this.records++; return super.get(key); }
  async list(prefix) { this.lists++; return super.list(prefix); }
  /** What `fn` read. */
  async reads(fn) {
    const [records, lists] = [this.records, this.lists];
    const out = await fn();
    return { records: this.records - records, lists: this.lists - lists, out };
  }
}

const chat = (store) => new edgegraph.StateGraph(edgegraph.Annotation.Root({ log: log(edgegraph) }))
  .addNode('agent', () => ({ log: ['agent'] }))
  .addNode('tools', () => ({ log: ['tools'] }))
  .addEdge(edgegraph.START, 'agent').addConditionalEdges('agent', (s) => (s.log.length % 3 ? 'tools' : edgegraph.END), ['tools', edgegraph.END]).addEdge('tools', edgegraph.END)
  .compile({ checkpointer: store });

test('edgegraph: getState reads as many records on a thread of thousands of checkpoints as on one of a few dozen (the index holds the numbering)', async () => {
  const reads = [];
  for (const turns of [10, 600]) {
    const store = new Counting();
    const graph = chat(store);
    const config = { configurable: { thread_id: 'long' } };
    for (let i = 0; i < turns; i++) await graph.invoke({ log: ['user'] }, config);
    // Each run keeps the index as it starts (it reads the step it goes on from): the first read is a few records too.
    const first = await store.reads(() => graph.getState(config));
    assert.ok(first.records < 20, `${first.records}`);
    await graph.invoke({ log: ['user'] }, config);
    // A fresh graph over the same store (another worker): the index is in the store.
    const { records, lists, out } = await store.reads(() => chat(store).getState(config));
    reads.push([records, lists]);
    let whole;
    for await (const s of graph.getStateHistory(config)) { whole = s; break; }
    assert.deepEqual([out.metadata, out.next, out.values, out.config, out.parentConfig], [whole.metadata, whole.next, whole.values, whole.config, whole.parentConfig]);
  }
  // (Records: the top's, and those its state is rebuilt from: the turn's, back to its snapshot.)
  assert.deepEqual(reads[1], reads[0]);
  assert.ok(reads[0][0] < 20, `${reads[0]}`);
});

test('edgegraph: a thread without an index, or with one that is not its own (another thread\'s, a block of another write), reads whole, and right', async () => {
  const store = new Counting();
  const graph = chat(store);
  const a = { configurable: { thread_id: 'a' } }, b = { configurable: { thread_id: 'b' } };
  // (Thread b first: its records have the ids of a's, written earlier.)
  for (const config of [b, a]) for (let i = 0; i < 100; i++) await graph.invoke({ log: ['user'] }, config);
  const right = JSON.stringify(await graph.getState(a));
  const copy = async (from, to) => { for (const key of await store.list(`${from}/lg`)) await store.put(`${to}${key.slice(from.length)}`, await store.get(key)); };
  await graph.getState(b);
  await copy('b', 'a');   // thread b's index under thread a's name: a's record n is not the one numbered (its createdAt)
  let read = await store.reads(() => graph.getState(a));
  assert.equal(JSON.stringify(read.out), right);
  assert.ok(read.records > 300, `${read.records}`);
  // Indexed now: a read or two.
  read = await store.reads(() => graph.getState(a));
  assert.equal(JSON.stringify(read.out), right);
  assert.ok(read.records < 20, `${read.records}`);
  // A block written by another reader than the head's (its token differs): not trusted.
  const head = JSON.parse(await store.get('a/lg'));
  const last = `a/lg/${head.b.length - 1}`;
  await store.put(last, (await store.get(last)).replace(/^\{"w":\d+/, '{"w":1'));
  read = await store.reads(() => graph.getState(a));
  assert.equal(JSON.stringify(read.out), right);
  assert.ok(read.records > 300, `${read.records}`);
  // No index at all (a thread written before it): the same.
  for (const key of await store.list('a/lg')) await store.delete(key);
  read = await store.reads(() => graph.getState(a));
  assert.equal(JSON.stringify(read.out), right);
});

test('edgegraph: in a FileStore, a fresh graph (another process) reads the numbering a first one kept, and numbers the runs since', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'eg-numbering-'));
  try {
    const config = { configurable: { thread_id: 'file' } };
    const first = chat(new FileStore(dir));
    for (let i = 0; i < 5; i++) await first.invoke({ log: ['user'] }, config);
    await first.getState(config);
    await first.invoke({ log: ['user'] }, config);
    const second = chat(new FileStore(dir));
    const after = await second.getState(config);
    let whole;
    for await (const s of second.getStateHistory(config)) { whole = s; break; }
    assert.deepEqual(after, whole);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
