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
