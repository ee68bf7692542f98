// A node's config.signal (LangGraph's RunnableConfig.signal): the run's
// signal, aborted with the caller's, in the config itself and in a copy of it
// ({ ...config }, as a node passes it on to a model call). Runs against both
// implementations.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END } = impl;

  test(named(impl, "a node's config.signal is aborted with the caller's signal, also in a copy of the config"), async () => {
    const caller = new AbortController();
    const seen = [];
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('work', (state, config) => {
        const copy = { ...config };
        seen.push({ own: config.signal, copied: copy.signal, abortedBefore: config.signal.aborted });
        caller.abort(new Error('stop'));
        seen.push({ ownAfter: config.signal.aborted, copiedAfter: copy.signal.aborted });
        return { n: 1 };
      })
      .addEdge(START, 'work')
      .addEdge('work', END)
      .compile();
    await graph.invoke({ n: 0 }, { signal: caller.signal }).catch(() => {});
    assert.ok(seen[0].own instanceof AbortSignal);
    assert.equal(seen[0].copied, seen[0].own);
    assert.equal(seen[0].abortedBefore, false);
    assert.deepEqual(seen[1], { ownAfter: true, copiedAfter: true });
  });

  test(named(impl, "leaving a stream() loop aborts the config.signal of the node in flight, with or without the caller's signal, and no later node runs"), async () => {
    for (const caller of [undefined, new AbortController()]) {
      const log = [];
      let waiting;
      const inFlight = new Promise((resolve) => { waiting = resolve; });
      const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
        .addNode('first', () => ({ n: 1 }))
        .addNode('wait', (state, config) => new Promise((resolve) => {
          config.signal.addEventListener('abort', () => { log.push('wait aborted'); resolve({ n: 2 }); }, { once: true });
          waiting();
        }))
        .addNode('after', () => { log.push('after ran'); return { n: 3 }; })
        .addEdge(START, 'first')
        .addEdge('first', 'wait')
        .addEdge('wait', 'after')
        .addEdge('after', END)
        .compile();
      for await (const chunk of await graph.stream({ n: 0 }, caller ? { signal: caller.signal } : {})) {
        if (chunk.first) { await inFlight; break; }
      }
      // The run's own work is promise callbacks: one macrotask turn lets all of it happen.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(log, ['wait aborted']);
      assert.equal(caller?.signal.aborted ?? false, false);
    }
  });
}

test("edgegraph: config.interrupt(value) pauses after an await and answers on resume, also from a copy of the config; each call of the node asks again", async () => {
  const { StateGraph, Annotation, START, END, MemorySaver, Command } = implementations.find((i) => i.name === 'edgegraph');
  const asked = [];
  const graph = new StateGraph(Annotation.Root({ answer: Annotation() }))
    .addNode('ask', async (state, config) => {
      await Promise.resolve();
      const copy = { ...config };
      asked.push(copy.interrupt === config.interrupt);
      return { answer: copy.interrupt('which city?') };
    })
    .addEdge(START, 'ask').addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'config-interrupt' } };
  const paused = await graph.invoke({}, config);
  assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['which city?']);
  assert.deepEqual(await graph.invoke(new Command({ resume: 'Oslo' }), config), { answer: 'Oslo' });
  assert.deepEqual(asked, [true, true]);
});
