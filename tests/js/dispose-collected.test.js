// edgegraph/langgraph's compiled graphs have no dispose(): their engine
// (Symbol.for('edgegraph.freedWhenCollected')) is freed when it is collected,
// never while a run or another graph still uses it. Here the graph objects
// are really collected (WeakRefs cleared) while what uses the engine lives on:
// a stream still being read, a graph made by withConfig. (A parent graph
// keeps its child graph object in its builder: the child is not collected.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collect, withLeakWarnings } from './support/leaks.js';

const { StateGraph, Annotation, START, END, MemorySaver } = await import('../../dist/langgraph.js');

const Counter = () => Annotation.Root({ n: Annotation({ reducer: (a, b) => a + b, default: () => 0 }) });
/** a (+1) -> b (+10, once `gate` opens) -> c (+100). */
const chain = (gate = null) => new StateGraph(Counter())
  .addNode('a', () => ({ n: 1 })).addNode('b', async () => { await gate; return { n: 10 }; }).addNode('c', () => ({ n: 100 }))
  .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', 'c').addEdge('c', END);

test('a compiled graph and its withConfig graph collected while their stream is read, a node still waiting: the run goes on to the end on its engine', () => withLeakWarnings(async (warnings) => {
  let open;
  const gate = new Promise((resolve) => { open = resolve; });
  const refs = [];
  let chunks;
  await (async () => {
    const graph = chain(gate).compile({ checkpointer: new MemorySaver() });
    const configured = graph.withConfig({ tags: ['collected'] });
    refs.push(new WeakRef(graph), new WeakRef(configured));
    chunks = (await configured.stream({ n: 0 }, { configurable: { thread_id: 't' }, streamMode: ['values', 'checkpoints'] }))[Symbol.asyncIterator]();
  })();
  const seen = [(await chunks.next()).value];
  await collect();   // (no deref() meanwhile: it keeps its target alive until the job ends)
  assert.ok(refs.every((r) => r.deref() === undefined), 'both graphs were collected');
  open();
  for (let r = await chunks.next(); !r.done; r = await chunks.next()) { seen.push(r.value); await collect({ rounds: 1 }); }
  assert.deepEqual(seen.filter(([mode]) => mode === 'values').map(([, v]) => v.n), [0, 1, 11, 111]);
  assert.equal(seen.filter(([mode]) => mode === 'checkpoints').at(-1)[1].values.n, 111);
  assert.deepEqual(warnings, []);
}));

test('withConfig: the graph it came from collected, the new one runs; the new one collected, the first still runs (one engine, freed with the last)', async () => {
  let configured;
  (() => { configured = chain().compile().withConfig({ tags: ['x'] }); })();
  await collect();
  assert.equal((await configured.invoke({ n: 0 })).n, 111);
  const graph = chain().compile();
  let ref;
  (() => { ref = new WeakRef(graph.withConfig({ tags: ['y'] })); })();
  await collect();
  assert.equal(ref.deref(), undefined);
  assert.equal((await graph.invoke({ n: 0 })).n, 111);
});
