// Property: every checkpoint a thread stores (not only the last) restores,
// and the run continued from it reaches the same final state as the run
// that was never interrupted. Random graphs mix static edges, list fan-out
// and Sends, and write every built-in reducer, with and without defaults and
// initial input; threads keep a full snapshot every 1 to 4 records or 100, so
// checkpoints are rebuilt from snapshots and chains of patches alike. The
// first run's events are applied to a copy and then changed by the caller.
// Each checkpoint also continues in an edited graph (a renamed node, another
// edge form, an extra node, a version bump with migrate) to the same state.
// A failure prints its seed; EDGEGRAPH_PROPERTY_SEED=<n> replays one graph.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Checkpointer, send, applyPatch } from '../../dist/node.js';

const REDUCERS = ['concat', 'merge', 'deepMerge', 'sum', 'max', 'min', 'avg', 'first', 'last', 'longest', 'appendUnique', 'messages'];

/** mulberry32: a small seeded PRNG, so every graph can be replayed. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hash = (text) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
};

/** A value a reducer accepts; `r` is seeded by the writer, so a re-run writes the same. */
function valueFor(reducer, r, tag) {
  const word = ['a', 'b', 'c', 'd'][Math.floor(r() * 4)];
  switch (reducer) {
    case 'concat': return r() < 0.5 ? [`${tag}`] : [`${tag}`, word];
    // Branch-unique keys: two branches writing one key differently is a PARALLEL_CONFLICT by design.
    case 'merge': return { [`${tag}:${word}`]: word };
    case 'deepMerge': return { nest: { [tag]: { [word]: 1 } } };
    case 'sum': case 'max': case 'min': case 'avg': return Math.floor(r() * 100) - 50;
    case 'first': case 'last': return `${tag}-${word}`;
    case 'longest': return word.repeat(1 + Math.floor(r() * 6));
    case 'appendUnique': return [word];
    case 'messages': return r() < 0.3
      ? [{ role: 'assistant', content: `edit by ${tag}`, id: `m-${word}` }]
      : [{ role: 'user', content: `from ${tag}`, id: `m-${word}` }];
    default: throw new Error(reducer);
  }
}

/** A node that writes a seeded subset of the reducer keys. */
function writer(name) {
  return (state, engine, context) => {
    const tag = context?.arg !== undefined ? `${name}/${context.arg.i}` : name;
    const r = prng(hash(tag));
    const out = {};
    for (const reducer of REDUCERS) if (r() < 0.5) out[`r_${reducer}`] = valueFor(reducer, r, tag);
    return out;
  };
}

/** A random graph: stages of one node, a list fan-out, or Sends, between start and finish. */
function randomGraph(seed) {
  const r = prng(seed);
  const nodes = { start: writer('start'), finish: writer('finish') };
  const edges = {};
  let from = ['start'];
  const stages = 1 + Math.floor(r() * 4);
  for (let s = 0; s < stages; s++) {
    const kind = ['one', 'list', 'sends'][Math.floor(r() * 3)];
    let to;
    if (kind === 'one') {
      to = [`n${s}`];
      nodes[to[0]] = writer(to[0]);
      for (const f of from) edges[f] = to[0];
    } else if (kind === 'list') {
      to = Array.from({ length: 2 + Math.floor(r() * 2) }, (_, i) => `n${s}_${i}`);
      for (const t of to) nodes[t] = writer(t);
      // One fan-out source: a join of several branches first passes one node.
      const gate = `g${s}`;
      nodes[gate] = writer(gate);
      for (const f of from) edges[f] = gate;
      edges[gate] = to;
    } else {
      const worker = `w${s}`;
      const count = 1 + Math.floor(r() * 3);
      nodes[worker] = writer(worker);
      const gate = `g${s}`;
      nodes[gate] = writer(gate);
      for (const f of from) edges[f] = gate;
      edges[gate] = () => Array.from({ length: count }, (_, i) => send(worker, { i }));
      to = [worker];
    }
    from = to;
  }
  for (const f of from) edges[f] = 'finish';
  edges.finish = '__end__';
  const reducers = {};
  const defaults = {};
  const input = {};
  for (const reducer of REDUCERS) {
    reducers[`r_${reducer}`] = reducer;
    if (r() < 0.5) defaults[`r_${reducer}`] = valueFor(reducer, r, 'default');
    if (r() < 0.25) input[`r_${reducer}`] = valueFor(reducer, r, 'input');
  }
  const snapshotEvery = [1, 2, 3, 4, 100][Math.floor(r() * 5)];
  return { definition: { nodes, edges, entryPoint: 'start', state: { reducers, defaults } }, input, snapshotEvery };
}

/** A caller changing what an event gave it: every array grows, every object gains a key. */
function scribble(value) {
  if (Array.isArray(value)) { value.forEach(scribble); value.push('scribbled'); } else if (value && typeof value === 'object') { Object.values(value).forEach(scribble); value.scribbled = true; }
}

/**
 * The same graph as redeployed with edits that change its hash but not what
 * it computes: 'finish' renamed to 'finish2' (renamedNodes), edges into it in
 * the seed's { default } form, an extra node only a jump could reach, and a
 * version bump with a migrate that keeps the state.
 */
function editedDefinition(definition) {
  const { finish, ...nodes } = definition.nodes;
  nodes.finish2 = finish;
  nodes.extra = { handler: writer('extra'), jumpTarget: true };
  const rename = (n) => (n === 'finish' ? 'finish2' : n);
  const edges = Object.fromEntries(Object.entries(definition.edges).map(([from, to]) => [rename(from), to === 'finish' ? { default: 'finish2' } : to]));
  edges.extra = '__end__';
  return { ...definition, nodes, edges, renamedNodes: { finish: 'finish2' }, version: 1, migrate: (state) => state };
}

const reducerKeys = (state) => Object.fromEntries(Object.entries(state).filter(([k]) => k.startsWith('r_')));

async function checkGraph(seed) {
  const { definition, input, snapshotEvery } = randomGraph(seed);
  const checkpointer = new Checkpointer(new MemoryStore(), { snapshotEvery });
  const engine = new GraphEngine(definition, { checkpointer });
  const edited = new GraphEngine(editedDefinition(definition), { checkpointer });
  try {
    // The state_update events rebuild the state on a copy; the caller then
    // changes what it was given, which must reach neither the run nor its checkpoints.
    const copy = structuredClone(input);
    const onEvent = (e) => { if (e.type === 'state_update') { applyPatch(copy, e.patch); scribble(e.patch); } };
    const first = await engine.execute(input, { threadId: 't', onEvent });
    assert.equal(first.status, 'FINISHED', `seed ${seed}: ${first.error?.message}`);
    const expected = reducerKeys(first.state);
    assert.deepEqual(reducerKeys(copy), expected, `seed ${seed}: the events rebuild the state`);
    const history = await engine.getStateHistory('t');
    assert.ok(history.length >= 3, `seed ${seed}: a checkpoint per step`);
    for (const { checkpointId, parentId, status } of history) {
      const where = `seed ${seed}, checkpoint ${checkpointId}`;
      assert.ok(parentId === null || parentId < checkpointId, `${where}: follows an earlier checkpoint (${parentId})`);
      const saved = await engine.getState('t', checkpointId);
      assert.ok(saved, `${where}: readable`);
      if (status === 'FINISHED') {
        assert.deepEqual(reducerKeys(saved.state), expected, `${where}: the finished state`);
        continue;
      }
      // A checkpoint that does not restore rejects (INVALID_CHECKPOINT): the seed goes with it.
      const continued = await engine.resume({ threadId: 't', checkpointId }).catch((e) => assert.fail(`${where}: ${e.code} ${e.message}`));
      assert.equal(continued.status, 'FINISHED', `${where}: ${continued.error?.code} ${continued.error?.message}`);
      assert.deepEqual(reducerKeys(continued.state), expected, `${where}: continues to the same final state`);
      // And in the edited graph: a redeploy that keeps every node the checkpoint's work needs.
      const redeployed = await edited.resume({ threadId: 't', checkpointId }).catch((e) => assert.fail(`${where}, edited graph: ${e.code} ${e.message}`));
      assert.equal(redeployed.status, 'FINISHED', `${where}, edited graph: ${redeployed.error?.code} ${redeployed.error?.message}`);
      assert.deepEqual(reducerKeys(redeployed.state), expected, `${where}, edited graph: continues to the same final state`);
    }
    // The forks wrote checkpoints of their own: the latest one reads too.
    const latest = await engine.resume({ threadId: 't' }).catch((e) => e);
    assert.equal(latest.code, 'NOT_RESUMABLE', `seed ${seed}: the latest checkpoint restores (${latest.message})`);
  } finally {
    engine.dispose();
    edited.dispose();
  }
}

const only = process.env.EDGEGRAPH_PROPERTY_SEED;
const seeds = only !== undefined ? [Number(only)] : Array.from({ length: 60 }, (_, i) => 1000 + i * 7919);

test('every stored checkpoint of random fan-out/Send graphs restores and continues to the same final state', async () => {
  for (const seed of seeds) {
    try {
      await checkGraph(seed);
    } catch (e) {
      if (!String(e.message).includes(`seed ${seed}`)) e.message = `seed ${seed}: ${e.message}`;
      throw e;
    }
  }
});

test('the Sends sample of docs/parallel-branches.md with a checkpointer: every checkpoint restores', async () => {
  const engine = new GraphEngine({
    nodes: { plan: () => ({}), write: (s, e, context) => ({ sections: [`## ${context.arg.title}`] }), done: () => ({}) },
    edges: { plan: () => [send('write', { title: 'Intro' }), send('write', { title: 'Results' })], write: 'done', done: '__end__' },
    entryPoint: 'plan',
    state: { shape: 'frame', reducers: { sections: 'concat' } },
  }, { checkpointer: new MemoryStore() });
  const done = await engine.execute({}, { threadId: 'sends' });
  assert.deepEqual(done.state.sections, ['## Intro', '## Results']);
  for (const { checkpointId, status } of await engine.getStateHistory('sends')) {
    const saved = await engine.getState('sends', checkpointId);
    if (status === 'FINISHED') { assert.deepEqual(saved.state.sections, ['## Intro', '## Results']); continue; }
    const again = await engine.resume({ threadId: 'sends', checkpointId });
    assert.equal(again.status, 'FINISHED', `checkpoint ${checkpointId}: ${again.error?.message}`);
    assert.deepEqual(again.state.sections, ['## Intro', '## Results']);
  }
  engine.dispose();
});
