// LangGraph parity of forks of a paused step (updateState on its checkpoint) and of an answer
// taken while no interrupt was pending: each program was run on @langchain/langgraph first,
// and its behaviour is what both implementations are held to. The first three tests are
// review2's (branch review2-open-cases, tests/langgraph/parity-review.test.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, collect, named } from './support/impls.js';

const threadOf = (id) => ({ configurable: { thread_id: id } });
const interruptsOf = (result) => result.__interrupt__?.map((i) => i.value);

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, Send, interrupt } = impl;
  const Log = () => Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  /** The first config of the thread's history whose next is `next` (newest first). */
  const configAt = async (graph, config, next) =>
    (await collect(graph.getStateHistory(config))).find((s) => s.next.join() === next).config;

  test(named(impl, 'a Command({ update }) from an older checkpoint of a finished thread writes the update there, and the run goes on from it'), async () => {
    const State = Annotation.Root({ a: Annotation(), log: Annotation({ reducer: (x, y) => x.concat(y), default: () => [] }) });
    const graph = new StateGraph(State)
      .addNode('x', () => ({ log: ['x'] })).addNode('y', (s) => ({ log: [`y saw ${s.a}`] }))
      .addEdge(START, 'x').addEdge('x', 'y').addEdge('y', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('fork-update');
    await graph.invoke({ a: 1 }, config);
    assert.deepEqual(await graph.invoke(new Command({ update: { a: 9 } }), await configAt(graph, config, 'y')), { a: 9, log: ['x', 'y saw 9'] });
    assert.deepEqual((await graph.getState(config)).values, { a: 9, log: ['x', 'y saw 9'] });
  });

  // From review2.
  test(named(impl, 'a resume while no interrupt is pending, with two tasks about to run that each call interrupt(): both take it (parallel edges, Send)'), async () => {
    const asker = (name) => (s) => ({ log: [`${name}${s.n ?? ''}:${interrupt(`${name}?`)}`] });
    const parallel = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('p', asker('p')).addNode('q', asker('q'))
      .addEdge(START, 'a').addEdge('a', 'p').addEdge('a', 'q').addEdge('p', END).addEdge('q', END)
      .compile({ checkpointer: new MemorySaver() });
    const sent = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('w', asker('w'))
      .addEdge(START, 'a').addConditionalEdges('a', () => [new Send('w', { n: 1 }), new Send('w', { n: 2 })]).addEdge('w', END)
      .compile({ checkpointer: new MemorySaver() });
    for (const [graph, next, expected] of [[parallel, 'p,q', ['a', 'forked', 'p:v', 'q:v']], [sent, 'w,w', ['a', 'forked', 'w1:v', 'w2:v']]]) {
      const config = threadOf(next);
      assert.equal(interruptsOf(await graph.invoke({ log: [] }, config)).length, 2);
      const fork = await graph.updateState(await configAt(graph, config, next), { log: ['forked'] });
      // The fork is a new checkpoint: its tasks have no interrupt pending (the paused step's were not copied into it).
      assert.deepEqual((await graph.getState(fork)).tasks.map((t) => [t.name, t.interrupts]), next.split(',').map((name) => [name, []]));
      const resumed = await graph.invoke(new Command({ resume: 'v' }), fork);
      assert.deepEqual([resumed.log, interruptsOf(resumed)], [expected, undefined]);
    }
  });

  // From review2.
  test(named(impl, 'an answer a node took without a pending interrupt, then the node failed: invoke(null) runs it again with that answer, not asking'), async () => {
    let fail = true;
    let calls = 0;
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] }), { ends: ['ask'] })
      .addNode('ask', () => { calls++; const answer = interrupt('q?'); if (fail) throw new Error('down'); return { log: [`ask:${answer}`] }; })
      .addEdge(START, 'a').addEdge('a', END).addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('failed-after-answer');
    await graph.invoke({ log: [] }, config);
    await assert.rejects(graph.invoke(new Command({ goto: 'ask', resume: 'v' }), config), /down/);
    fail = false;
    const again = await graph.invoke(null, config);
    assert.deepEqual([again.log, interruptsOf(again), calls], [['a', 'ask:v'], undefined, 2]);
  });

  test(named(impl, 'a node with a retryPolicy that took an answer without a pending interrupt, then threw: its retry gets the answer at the same interrupt(), and a later interrupt() asks'), async () => {
    let tries = 0;
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] }), { ends: ['ask'] })
      .addNode('ask', () => {
        tries++;
        const first = interrupt('1?');
        if (tries === 1) throw new Error('flaky');
        return { log: [`ask:${first}:${interrupt('2?')}`] };
      }, { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false } })
      .addEdge(START, 'a').addEdge('a', END).addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('retry-took');
    await graph.invoke({ log: [] }, config);
    const asked = await graph.invoke(new Command({ goto: 'ask', resume: 'v' }), config);
    assert.deepEqual([asked.log, interruptsOf(asked), tries], [['a'], ['2?'], 2]);
  });

  // From review2.
  test(named(impl, 'a fork of the step where a subgraph node paused runs the child again from the fork\'s values: its interrupt() asks again, and the answer goes to it'), async () => {
    for (const childSteps of [['c1', 'c2'], ['c2']]) {
      const builder = new StateGraph(Log()).addNode('c2', () => ({ log: [`c2:${interrupt('c?')}`] })).addEdge('c2', END);
      if (childSteps.length === 2) builder.addNode('c1', () => ({ log: ['c1'] })).addEdge('c1', 'c2');
      const child = builder.addEdge(START, childSteps[0]).compile();
      const graph = new StateGraph(Log())
        .addNode('a', () => ({ log: ['a'] })).addNode('sub', child)
        .addEdge(START, 'a').addEdge('a', 'sub').addEdge('sub', END)
        .compile({ checkpointer: new MemorySaver() });
      const config = threadOf(childSteps.join());
      assert.deepEqual(interruptsOf(await graph.invoke({ log: [] }, config)), ['c?']);
      const fork = await graph.updateState(await configAt(graph, config, 'sub'), { log: ['f'] });
      const asked = await graph.invoke(new Command({ resume: 'v' }), fork);
      assert.deepEqual([asked.log, interruptsOf(asked)], [['a', 'f'], ['c?']]);
      // The child's input is the fork's values (with 'f'), not the first run's.
      assert.deepEqual(await graph.invoke(new Command({ resume: 'w' }), config), { log: ['a', 'f', 'a', 'f', ...childSteps.slice(0, -1), 'c2:w'] });
    }
  });

  test(named(impl, 'a goto to a subgraph node on a finished thread, with a resume: the child\'s interrupt() asks (the resume is for the parent\'s tasks)'), async () => {
    const child = new StateGraph(Log()).addNode('c', () => ({ log: [`c:${interrupt('c?')}`] })).addEdge(START, 'c').addEdge('c', END).compile();
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] }), { ends: ['sub'] }).addNode('sub', child)
      .addEdge(START, 'a').addEdge('a', END).addEdge('sub', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('goto-sub');
    await graph.invoke({ log: [] }, config);
    const asked = await graph.invoke(new Command({ goto: 'sub', resume: 'v' }), config);
    assert.deepEqual([asked.log, interruptsOf(asked)], [['a'], ['c?']]);
  });

  test(named(impl, 'updateState on a thread paused at an interrupt(), then a resume: the node asks nothing pending, runs again from the top and takes the answer, after the edit'), async () => {
    let calls = 0;
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('ask', () => { calls++; return { log: [`ask:${interrupt('q?')}`] }; })
      .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('edit-then-answer');
    await graph.invoke({ log: [] }, config);
    await graph.updateState(config, { log: ['f'] });
    const state = await graph.getState(config);
    assert.deepEqual([state.next, state.tasks.map((t) => t.interrupts)], [['ask'], [[]]]);
    assert.deepEqual([await graph.invoke(new Command({ resume: 'v' }), config), calls], [{ log: ['a', 'f', 'ask:v'] }, 2]);
  });

  test(named(impl, 'updateState on a paused thread, then a resume with a map of the first pause\'s interrupt ids: it answers nothing, and the node asks again'), async () => {
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('ask', () => ({ log: [`ask:${JSON.stringify(interrupt('q?'))}`] }))
      .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('edit-then-map');
    const [{ id }] = (await graph.invoke({ log: [] }, config)).__interrupt__;
    await graph.updateState(config, { log: ['f'] });
    const asked = await graph.invoke(new Command({ resume: { [id]: 'v' } }), config);
    assert.deepEqual([asked.log, interruptsOf(asked)], [['a', 'f'], ['q?']]);
    const [{ id: again }] = asked.__interrupt__;
    assert.deepEqual(await graph.invoke(new Command({ resume: { [again]: 'w' } }), config), { log: ['a', 'f', 'ask:"w"'] });
  });
}
