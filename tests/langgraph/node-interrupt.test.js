// NodeInterrupt (a node throws it: a dynamic breakpoint), GraphInterrupt, ParentCommand,
// isGraphBubbleUp, isParentCommand. Ported from LangGraph.js libs/langgraph-core/src/tests/pregel.test.ts
// ("should not cancel node on other node interrupted") and its dynamic breakpoints how-to
// (step1 -> step2, which throws NodeInterrupt for a long input -> step3).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, named } from './support/impls.js';

const values = (list) => list.map((i) => i.value);

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, NodeInterrupt, GraphInterrupt, ParentCommand, Command, isGraphInterrupt, isGraphBubbleUp, isParentCommand } = impl;

  test(named(impl, 'dynamic breakpoints how-to: NodeInterrupt pauses; getState shows it; updateState then invoke(null) runs the node again'), async () => {
    let runs = 0;
    const graph = new StateGraph(Annotation.Root({ input: Annotation(), out: Annotation() }))
      .addNode('step1', () => ({ out: 'one' }))
      .addNode('step2', (s) => {
        runs++;
        if (s.input.length > 5) throw new NodeInterrupt(`Received input that is longer than 5 characters: ${s.input}`);
        return { out: `two:${s.input}` };
      })
      .addNode('step3', (s) => ({ out: `${s.out}+3` }))
      .addEdge(START, 'step1').addEdge('step1', 'step2').addEdge('step2', 'step3').addEdge('step3', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: '1' } };
    const paused = await graph.invoke({ input: 'hello world' }, config);
    assert.deepEqual(values(paused.__interrupt__), ['Received input that is longer than 5 characters: hello world']);
    assert.equal(paused.out, 'one');
    let state = await graph.getState(config);
    assert.deepEqual(state.next, ['step2']);
    assert.deepEqual(values(state.tasks[0].interrupts), ['Received input that is longer than 5 characters: hello world']);
    // Run again as it is: the node throws again.
    assert.deepEqual(values((await graph.invoke(null, config)).__interrupt__), ['Received input that is longer than 5 characters: hello world']);
    assert.equal(runs, 2);
    await graph.updateState(config, { input: 'foo' });
    state = await graph.getState(config);
    assert.deepEqual([state.next, state.tasks[0].interrupts], [['step2'], []]);
    assert.deepEqual(await graph.invoke(null, config), { input: 'foo', out: 'two:foo+3' });
    assert.equal(runs, 3);
  });

  test(named(impl, 'pregel.test.ts > should not cancel node on other node interrupted'), async () => {
    let awhiles = 0, awhileReturns = 0;
    const graph = new StateGraph(Annotation.Root({ hello: Annotation() }))
      .addNode('agent', async () => { awhiles += 1; await new Promise((resolve) => setTimeout(resolve, 20)); awhileReturns += 1; return { hello: 'again' }; })
      .addNode('bad', async (input) => { if (input.hello !== 'bye') throw new NodeInterrupt('I am bad'); return {}; })
      .addConditionalEdges(START, () => ['agent', 'bad'])
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: '1' } };
    const first = await graph.invoke({ hello: 'world' }, thread);
    assert.equal(first.hello, 'again');
    assert.deepEqual(values(first.__interrupt__), ['I am bad']);
    assert.deepEqual([awhileReturns, awhiles], [1, 1]);
    const again = await graph.invoke(null, thread);
    assert.equal(again.hello, 'again');
    assert.deepEqual(values(again.__interrupt__), ['I am bad']);
    assert.deepEqual([awhileReturns, awhiles], [1, 1]);
  });

  test(named(impl, 'NodeInterrupt streams as a pause: updates then { __interrupt__ }'), async () => {
    const graph = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('a', () => ({ n: 1 }))
      .addNode('b', () => { throw new NodeInterrupt({ reason: 'review' }); })
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END)
      .compile({ checkpointer: new MemorySaver() });
    const chunks = [];
    for await (const chunk of await graph.stream({ n: 0 }, { configurable: { thread_id: 's' }, streamMode: 'updates' })) chunks.push(chunk);
    assert.deepEqual(chunks[0], { a: { n: 1 } });
    assert.deepEqual(values(chunks[1].__interrupt__), [{ reason: 'review' }]);
  });

  test(named(impl, 'errors.ts: NodeInterrupt is a GraphInterrupt and a bubble-up; ParentCommand carries its command'), () => {
    const e = new NodeInterrupt('v');
    assert.equal(e.name, 'NodeInterrupt');
    assert.ok(e instanceof GraphInterrupt && e instanceof Error);
    assert.deepEqual(values(e.interrupts), ['v']);
    assert.equal(e.message, JSON.stringify([{ value: 'v' }], null, 2));
    assert.deepEqual([isGraphInterrupt(e), isGraphBubbleUp(e), isParentCommand(e)], [true, true, false]);
    const command = new Command({ graph: Command.PARENT, goto: 'b' });
    const p = new ParentCommand(command);
    assert.equal(p.name, 'ParentCommand');
    assert.equal(p.command, command);
    assert.deepEqual([isParentCommand(p), isGraphBubbleUp(p), isGraphInterrupt(p)], [true, true, false]);
    assert.deepEqual([isGraphBubbleUp(new Error('x')), isGraphBubbleUp(undefined), isParentCommand(undefined)], [false, false, false]);
  });

  test(named(impl, 'a subgraph node throwing ParentCommand(Command.PARENT) routes the parent; for another graph, it writes nothing'), async () => {
    const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    for (const [graph, log] of [[Command.PARENT, ['c', 'b']], [undefined, []]]) {
      const child = new StateGraph(State).addNode('c', () => { throw new ParentCommand(new Command({ graph, goto: 'b', update: { log: ['c'] } })); }).addEdge(START, 'c').compile();
      const parent = new StateGraph(State).addNode('sub', child, { ends: ['b'] }).addNode('b', () => ({ log: ['b'] })).addEdge(START, 'sub').compile();
      assert.deepEqual((await parent.invoke({ log: [] })).log, log);
    }
  });

  test(named(impl, 'a node\'s catch-all rethrows what isGraphBubbleUp says: a graph it invokes handing off to the parent (isParentCommand, .command)'), async () => {
    const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const child = new StateGraph(State).addNode('c', () => new Command({ graph: Command.PARENT, goto: 'b', update: { log: ['c'] } })).addEdge(START, 'c').compile();
    const caught = [];
    const parent = new StateGraph(State)
      .addNode('sub', async (s) => {
        try { return await child.invoke(s); } catch (e) {
          caught.push([isParentCommand(e), isGraphBubbleUp(e), [e.command?.goto].flat()]);
          if (isGraphBubbleUp(e)) throw e;
          return {};
        }
      }, { ends: ['b'] })
      .addNode('b', () => ({ log: ['b'] }))
      .addEdge(START, 'sub').compile();
    assert.deepEqual((await parent.invoke({ log: [] })).log, ['c', 'b']);
    assert.deepEqual(caught, [[true, true, ['b']]]);
  });
}
