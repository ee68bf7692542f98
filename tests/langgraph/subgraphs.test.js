// A compiled graph as a node (interrupts inside it, breakpoints, Command.PARENT,
// getState with subgraphs), ported from LangGraph.js:
// libs/langgraph-core/src/tests/pregel.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, collect, named, views } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt, MessagesAnnotation, Send } = impl;

  test(named(impl, 'pregel.test.ts: should interrupt and resume with Command inside a subgraph'), async () => {
    const subgraph = new StateGraph(MessagesAnnotation)
      .addNode('one', () => {
        const answer = interrupt('<INTERRUPTED>');
        if (answer !== '<RESUMED>') throw new Error('Expected interrupt to return <RESUMED>');
        return { messages: [{ role: 'user', content: 'success' }] };
      })
      .addEdge(START, 'one').compile();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('one', () => ({}))
      .addNode('subgraph', subgraph)
      .addNode('two', (state) => { if (state.messages.length !== 1) throw new Error(`Expected 1 message, got ${state.messages.length}`); return {}; })
      .addEdge(START, 'one').addEdge('one', 'subgraph').addEdge('subgraph', 'two').addEdge('two', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'test_subgraph_interrupt_resume' } };
    const paused = await graph.invoke({ messages: [] }, config);
    assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['<INTERRUPTED>']);
    const state = await graph.getState(config);
    assert.deepEqual(state.next, ['subgraph']);
    assert.equal(state.tasks[0].interrupts.length, 1);
    assert.equal(state.tasks[0].interrupts[0].id, paused.__interrupt__[0].id);
    const result = await graph.invoke(new Command({ resume: '<RESUMED>' }), config);
    assert.equal((await graph.getState(config)).tasks.length, 0);
    assert.deepEqual(views(result.messages).map((m) => m.content), ['success']);
  });

  /** parent1 -> child (child1: grandchild1 -> [breakpoint] grandchild2) -> parent2: the doubly nested tests' graph. */
  const doublyNested = () => {
    const State = () => Annotation.Root({ myKey: Annotation() });
    const grandchild = new StateGraph(State())
      .addNode('grandchild1', async (s) => ({ myKey: `${s.myKey} here` }))
      .addNode('grandchild2', async (s) => ({ myKey: `${s.myKey} and there` }))
      .addEdge('__start__', 'grandchild1').addEdge('grandchild1', 'grandchild2');
    const child = new StateGraph(State()).addNode('child1', grandchild.compile({ interruptBefore: ['grandchild2'] })).addEdge('__start__', 'child1');
    return new StateGraph(State())
      .addNode('parent1', (s) => ({ myKey: `hi ${s.myKey}` }))
      .addNode('child', child.compile())
      .addNode('parent2', (s) => ({ myKey: `${s.myKey} and back again` }))
      .addEdge('__start__', 'parent1').addEdge('parent1', 'child').addEdge('child', 'parent2')
      .compile({ checkpointer: new MemorySaver() });
  };

  test(named(impl, 'pregel.test.ts: doubly nested graph interrupts'), async () => {
    const app = doublyNested();

    const config = { configurable: { thread_id: '1' } };
    assert.deepEqual(await app.invoke({ myKey: 'my value' }, config), { myKey: 'hi my value', __interrupt__: [] });
    assert.deepEqual((await app.getState(config)).next, ['child']);
    assert.deepEqual(await app.invoke(null, config), { myKey: 'hi my value here and there and back again' });

    const config2 = { configurable: { thread_id: '2' } };
    assert.deepEqual(await collect(app.stream({ myKey: 'my value' }, config2)), [{ parent1: { myKey: 'hi my value' } }, { __interrupt__: [] }]);
    assert.deepEqual(await collect(app.stream(null, config2)), [
      { child: { myKey: 'hi my value here and there' } },
      { parent2: { myKey: 'hi my value here and there and back again' } },
    ]);
  });

  test(named(impl, 'pregel.test.ts: doubly nested graph state (stream with subgraphs, each level\'s state by its namespace)'), async () => {
    const app = doublyNested();
    const config = { configurable: { thread_id: '1' } };
    const chunks = await collect(app.stream({ myKey: 'my value' }, { ...config, subgraphs: true }));
    assert.equal(chunks.length, 3);
    assert.deepEqual(chunks[0], [[], { parent1: { myKey: 'hi my value' } }]);
    assert.equal(chunks[1][0].length, 2);
    assert.match(chunks[1][0][0], /^child:/);
    assert.match(chunks[1][0][1], /^child1:/);
    assert.deepEqual(chunks[1][1], { grandchild1: { myKey: 'hi my value here' } });
    assert.deepEqual(chunks[2], [[], { __interrupt__: [] }]);

    const outerState = await app.getState(config);
    assert.deepEqual(outerState.values, { myKey: 'hi my value' });
    assert.deepEqual(outerState.next, ['child']);
    assert.deepEqual(outerState.tasks.map((t) => [t.name, t.interrupts]), [['child', []]]);
    assert.equal(outerState.tasks[0].state.configurable.checkpoint_ns, chunks[1][0][0]);   // the stream's namespace
    const childState = await app.getState(outerState.tasks[0].state);
    assert.deepEqual(childState.tasks.map((t) => [t.name, t.interrupts]), [['child1', []]]);
    assert.deepEqual(Object.keys(childState.tasks[0].state), ['configurable']);
    const grandchildState = await app.getState(childState.tasks[0].state);
    assert.deepEqual(grandchildState.values, { myKey: 'hi my value here' });
    assert.deepEqual(grandchildState.next, ['grandchild2']);
    assert.deepEqual(grandchildState.tasks.map((t) => [t.name, t.interrupts]), [['grandchild2', []]]);

    const nested = await app.getState(config, { subgraphs: true });
    assert.deepEqual(nested.tasks[0].state.values, { myKey: 'hi my value' });
    assert.deepEqual(nested.tasks[0].state.tasks[0].state.values, { myKey: 'hi my value here' });
    assert.deepEqual(nested.tasks[0].state.tasks[0].state.next, ['grandchild2']);

    // An edit two levels down, as the grandchild's node would have written it.
    await app.updateState(childState.tasks[0].state, { myKey: 'edited' });
    assert.deepEqual((await app.getState(childState.tasks[0].state)).values, { myKey: 'edited' });
    assert.deepEqual(await collect(app.stream(null, { ...config, subgraphs: true })), [
      [[chunks[1][0][0], chunks[1][0][1]], { grandchild2: { myKey: 'edited and there' } }],
      [[chunks[1][0][0]], { child1: { myKey: 'edited and there' } }],
      [[], { child: { myKey: 'edited and there' } }],
      [[], { parent2: { myKey: 'edited and there and back again' } }],
    ]);
  });

  test(named(impl, 'pregel.test.ts: nested graph state (getState with subgraphs: true, right after the interrupt)'), async () => {
    const inner = new StateGraph(Annotation.Root({ myKey: Annotation(), myOtherKey: Annotation() }))
      .addNode({
        inner1: (s) => ({ myKey: `${s.myKey} here`, myOtherKey: s.myKey }),
        inner2: (s) => ({ myKey: `${s.myKey} and there`, myOtherKey: s.myKey }),
      })
      .addEdge('__start__', 'inner1').addEdge('inner1', 'inner2');
    const app = new StateGraph(Annotation.Root({ myKey: Annotation(), otherParentKey: Annotation() }))
      .addNode({
        outer1: (s) => ({ myKey: `hi ${s.myKey}` }),
        outer2: (s) => ({ myKey: `${s.myKey} and back again` }),
        inner: inner.compile({ interruptBefore: ['inner2'] }),
      })
      .addEdge('__start__', 'outer1').addEdge('outer1', 'inner').addEdge('inner', 'outer2')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: '1' } };
    await app.invoke({ myKey: 'my value' }, config);

    const plain = await app.getState(config);
    assert.deepEqual(plain.values, { myKey: 'hi my value' });
    assert.deepEqual(plain.next, ['inner']);
    assert.equal(plain.tasks[0].name, 'inner');
    assert.equal(plain.tasks[0].state.configurable.thread_id, '1');
    assert.match(plain.tasks[0].state.configurable.checkpoint_ns, /^inner/);
    assert.equal(plain.tasks[0].state.values, undefined);

    const nested = await app.getState(config, { subgraphs: true });
    assert.deepEqual(nested.values, { myKey: 'hi my value' });
    const childState = nested.tasks[0].state;
    assert.deepEqual(childState.values, { myKey: 'hi my value here', myOtherKey: 'hi my value' });
    assert.deepEqual(childState.next, ['inner2']);
    assert.deepEqual(childState.tasks.map((t) => [t.name, t.interrupts]), [['inner2', []]]);
    assert.match(childState.config.configurable.checkpoint_ns, /^inner/);

    assert.deepEqual(await app.invoke(null, config), { myKey: 'hi my value here and there and back again' });
    assert.deepEqual((await app.getState(config, { subgraphs: true })).tasks, []);
  });

  test(named(impl, 'pregel.test.ts: test_parent_command (a node in place of the tool)'), async () => {
    const subgraph = new StateGraph(MessagesAnnotation)
      .addNode('tool', async () => new Command({ update: { user_name: 'Meow' }, graph: Command.PARENT }))
      .addEdge('__start__', 'tool').compile();
    const graph = new StateGraph(Annotation.Root({ ...MessagesAnnotation.spec, user_name: Annotation() }))
      .addNode('alice', subgraph).addEdge('__start__', 'alice')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: '1' } };
    const res = await graph.invoke({ messages: [{ role: 'user', content: 'get user name' }] }, config);
    assert.deepEqual(views(res.messages).map((m) => [m.role, m.content]), [['user', 'get user name']]);
    assert.equal(res.user_name, 'Meow');
    const state = await graph.getState(config);
    assert.equal(state.values.user_name, 'Meow');
    assert.deepEqual(state.next, []);
    assert.deepEqual(state.tasks, []);
    assert.equal(state.metadata.step, 1);
  });

  test(named(impl, 'pregel.test.ts: test_parent_command with goto with double updates'), async () => {
    const State = Annotation.Root({ ...MessagesAnnotation.spec, user_name: Annotation({ reducer: (_, b) => b }) });
    const subgraph = new StateGraph(State)
      .addNode('init', async () => ({ user_name: 'Woof' }))
      .addNode('tool', async () => [new Command({ update: { user_name: 'Meow' }, goto: 'bob', graph: Command.PARENT })], { ends: ['__end__'] })
      .addEdge('__start__', 'init').addEdge('init', 'tool').compile();
    let bobRuns = 0;
    const graph = new StateGraph(State)
      .addNode('init', async () => ({}))
      .addNode('alice', subgraph)
      .addNode('bob', async (state) => {
        bobRuns++;
        if (state.user_name !== 'Meow') throw new Error('failed to update state from child');
        return { messages: [{ role: 'assistant', content: 'bob' }] };
      })
      .addEdge('__start__', 'init').addConditionalEdges('init', async () => 'alice').addEdge('alice', 'bob')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: '1' } };
    const res = await graph.invoke({ messages: [{ role: 'user', content: 'get user name' }] }, config);
    assert.deepEqual(views(res.messages).map((m) => [m.role, m.content]), [['user', 'get user name'], ['assistant', 'bob']]);
    assert.equal(res.user_name, 'Meow');
    assert.equal(bobRuns, 1);
    const state = await graph.getState(config);
    assert.deepEqual(state.next, []);
    assert.equal(state.metadata.step, 3);
  });

  test(named(impl, 'pregel.test.ts: test_parent_command from grandchild graph'), async () => {
    const State = Annotation.Root({ ...MessagesAnnotation.spec, user_name: Annotation() });
    const grandchild = new StateGraph(State)
      .addNode('tool', async () => new Command({ update: { messages: [{ role: 'assistant', content: 'grandkid' }], user_name: 'jeffrey' }, goto: 'robert', graph: Command.PARENT }))
      .addEdge('__start__', 'tool').compile();
    const childGraph = new StateGraph(State)
      .addNode('bob', grandchild)
      .addNode('robert', async (state) => {
        if (state.user_name !== 'jeffrey') throw new Error('failed to update state from grandchild');
        return { messages: [{ role: 'assistant', content: 'robert' }] };
      })
      .addEdge('__start__', 'bob').addEdge('bob', 'robert').compile();
    const graph = new StateGraph(State).addNode('alice', childGraph).addEdge('__start__', 'alice')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: '1' } };
    const res = await graph.invoke({ messages: [{ role: 'user', content: 'get user name' }] }, config);
    assert.deepEqual(views(res.messages).map((m) => m.content), ['get user name', 'grandkid', 'robert']);
    assert.equal(res.user_name, 'jeffrey');
    const state = await graph.getState(config);
    assert.deepEqual(state.next, []);
    assert.equal(state.metadata.step, 1);
  });

  test(named(impl, 'pregel.test.ts: should handle Command.PARENT as described in the docs'), async () => {
    const State = Annotation.Root({ foo: Annotation({ reducer: (_, b) => b, default: () => '' }) });
    const callLog = [];
    let goto = '';
    const subgraph = new StateGraph(State)
      .addNode('nodeA', async () => { callLog.push('Called A'); return new Command({ update: { foo: 'a' }, goto, graph: Command.PARENT }); })
      .addEdge('__start__', 'nodeA').compile();
    const parentGraph = new StateGraph(State)
      .addNode('subgraph', subgraph, { ends: ['nodeB', 'nodeC'] })
      .addNode('nodeB', async (s) => { callLog.push('Called B'); return { foo: `${s.foo}|b` }; })
      .addNode('nodeC', async (s) => { callLog.push('Called C'); return { foo: `${s.foo}|c` }; })
      .addEdge('__start__', 'subgraph').compile();
    goto = 'nodeB';
    assert.deepEqual(await parentGraph.invoke({}), { foo: 'a|b' });
    assert.deepEqual(callLog, ['Called A', 'Called B']);
    callLog.length = 0;
    goto = 'nodeC';
    assert.deepEqual(await parentGraph.invoke({}), { foo: 'a|c' });
    assert.deepEqual(callLog, ['Called A', 'Called C']);
  });

  test(named(impl, 'pregel.test.ts: should handle non-overlapping parent command updates'), async () => {
    const State = Annotation.Root({ uniqueStrings: Annotation({ reducer: (a, b) => Array.from(new Set([...a, ...b])) }) });
    const subgraph = new StateGraph(State)
      .addNode('subgraph_node_1', () => new Command({ goto: 'subgraph_node_2', update: { uniqueStrings: ['bar'], visitedNodes: ['subgraph_node_1'] } }), { ends: ['subgraph_node_2'] })
      .addNode('subgraph_node_2', () => new Command({ goto: 'node_3', update: { visitedNodes: ['subgraph_node_2'] }, graph: 'PARENT' }))
      .addEdge(START, 'subgraph_node_1').compile();
    const mainGraph = new StateGraph(State)
      .addNode('node_1', () => new Command({ goto: 'node_2', update: { uniqueStrings: ['foo'] } }), { ends: ['node_2'] })
      .addNode('node_2', subgraph)
      .addNode('node_3', () => new Command({ update: { uniqueStrings: ['baz'] } }))
      .addEdge(START, 'node_1').addEdge('node_2', 'node_3').compile();
    assert.deepEqual(await mainGraph.invoke({ uniqueStrings: [] }), { uniqueStrings: ['foo', 'bar', 'baz'] });
  });

  test(named(impl, 'pregel.test.ts: Can have three graphs with different keys (only the keys in common pass in and out)'), async () => {
    const inner = new StateGraph(Annotation.Root({ shared: Annotation(), innerOnly: Annotation() }))
      .addNode('work', (s) => ({ shared: `${s.shared} + inner`, innerOnly: `saw ${s.shared}` }))
      .addEdge(START, 'work').compile();
    const graph = new StateGraph(Annotation.Root({ shared: Annotation(), outerOnly: Annotation() }))
      .addNode('inner', inner).addNode('after', (s) => ({ outerOnly: `${s.outerOnly} / ${s.shared}` }))
      .addEdge(START, 'inner').addEdge('inner', 'after').compile();
    assert.deepEqual(await graph.invoke({ shared: 'x', outerOnly: 'o' }), { shared: 'x + inner', outerOnly: 'o / x + inner' });
  });

  test(named(impl, 'a subgraph interrupt answered by id with a map: the parent resumes inside the child, side effects before it run once per call'), async () => {
    const calls = [];
    const child = new StateGraph(Annotation.Root({ answer: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('prepare', () => { calls.push('prepare'); return { log: ['prepared'] }; })
      .addNode('ask', () => { calls.push('ask'); return { answer: interrupt({ question: 'name?' }) }; })
      .addEdge(START, 'prepare').addEdge('prepare', 'ask').compile();
    const graph = new StateGraph(Annotation.Root({ answer: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('child', child).addNode('done', (s) => ({ log: [`done: ${s.answer}`] }))
      .addEdge(START, 'child').addEdge('child', 'done').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'map' } };
    const paused = await graph.invoke({ log: [] }, config);
    assert.deepEqual(paused.__interrupt__.map((i) => i.value), [{ question: 'name?' }]);
    const [{ id }] = paused.__interrupt__;
    const nested = await graph.getState(config, { subgraphs: true });
    assert.deepEqual(nested.tasks[0].state.values.log, ['prepared']);
    assert.deepEqual(nested.tasks[0].state.next, ['ask']);
    const out = await graph.invoke(new Command({ resume: { [id]: 'Ada' } }), config);
    assert.equal(out.answer, 'Ada');
    assert.deepEqual(out.log.at(-1), 'done: Ada');
    assert.deepEqual(calls, ['prepare', 'ask', 'ask']);
  });

  test(named(impl, 'an error thrown in a subgraph\'s node (two levels down) reaches the caller as thrown'), async () => {
    class BoomError extends Error {}
    const grandchild = new StateGraph(Annotation.Root({ v: Annotation() })).addNode('boom', () => { throw new BoomError('boom'); }).addEdge(START, 'boom').compile();
    const child = new StateGraph(Annotation.Root({ v: Annotation() })).addNode('grandchild', grandchild).addEdge(START, 'grandchild').compile();
    const graph = new StateGraph(Annotation.Root({ v: Annotation() })).addNode('child', child).addEdge(START, 'child').compile();
    await assert.rejects(graph.invoke({ v: 1 }), (e) => e instanceof BoomError && e.message === 'boom');
  });

  test(named(impl, 'pregel.test.ts: send to nested graphs'), async () => {
    const Overall = Annotation.Root({ subjects: Annotation(), jokes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const subgraph = new StateGraph({ input: Annotation.Root({ subject: Annotation() }), output: Overall })
      .addNode({ edit: ({ subject }) => ({ subject: `${subject} - hohoho` }), generate: (s) => ({ jokes: [`Joke about ${s.subject}`] }) })
      .addEdge('__start__', 'edit').addEdge('edit', 'generate');
    const graph = new StateGraph(Overall)
      .addNode('generateJoke', subgraph.compile({ interruptBefore: ['generate'] }))
      .addConditionalEdges('__start__', (s) => s.subjects.map((subject) => new Send('generateJoke', { subject })))
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: '1' } };
    assert.deepEqual(await graph.invoke({ subjects: ['cats', 'dogs'] }, config), { subjects: ['cats', 'dogs'], jokes: [], __interrupt__: [] });
    const outer = await graph.getState(config);
    assert.deepEqual(outer.values, { subjects: ['cats', 'dogs'], jokes: [] });
    assert.deepEqual(outer.next, ['generateJoke', 'generateJoke']);
    assert.deepEqual(outer.tasks.map((t) => t.interrupts), [[], []]);
    for (const [i, subject] of [[0, 'cats - hohoho'], [1, 'dogs - hohoho']]) {
      assert.match(outer.tasks[i].state.configurable.checkpoint_ns, /^generateJoke:/);
      const inner = await graph.getState(outer.tasks[i].state);
      assert.deepEqual(inner.values, { subject, jokes: [] });
      assert.deepEqual(inner.next, ['generate']);
    }
    // Edit the dogs' child before it goes on.
    const edited = await graph.updateState(outer.tasks[1].state, { subject: 'turtles - hohoho' });
    assert.equal(edited.configurable.thread_id, '1');
    assert.deepEqual((await graph.getState(outer.tasks[1].state)).values, { subject: 'turtles - hohoho', jokes: [] });
    const results = await collect(graph.stream(null, config));
    assert.equal(results.length, 2);
    assert.deepEqual(results.map((r) => r.generateJoke.jokes[0]).sort(), ['Joke about cats - hohoho', 'Joke about turtles - hohoho']);
    const done = await graph.getState(config);
    assert.deepEqual([...done.values.jokes].sort(), ['Joke about cats - hohoho', 'Joke about turtles - hohoho']);
    assert.deepEqual(done.next, []);
  });

  test(named(impl, 'pregel.test.ts: send to nested graphs (with interrupt() in the child instead of a breakpoint: each Send\'s child pauses and resumes on its own)'), async () => {
    const Joke = Annotation.Root({ subject: Annotation(), jokes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const subgraph = new StateGraph(Joke)
      .addNode('edit', (s) => ({ subject: `${s.subject} - hohoho` }))
      .addNode('generate', (s) => ({ jokes: [`Joke about ${interrupt(s.subject)}`] }))
      .addEdge(START, 'edit').addEdge('edit', 'generate').compile();
    const graph = new StateGraph(Annotation.Root({ subjects: Annotation(), jokes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('generateJoke', subgraph)
      .addConditionalEdges(START, (s) => s.subjects.map((subject) => new Send('generateJoke', { subject })))
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: '1' } };
    const paused = await graph.invoke({ subjects: ['cats', 'dogs'] }, config);
    assert.deepEqual(paused.__interrupt__.map((i) => i.value).sort(), ['cats - hohoho', 'dogs - hohoho']);
    const state = await graph.getState(config, { subgraphs: true });
    assert.deepEqual(state.next, ['generateJoke', 'generateJoke']);
    assert.deepEqual(state.tasks.map((t) => t.state.values.subject).sort(), ['cats - hohoho', 'dogs - hohoho']);
    const answers = Object.fromEntries(paused.__interrupt__.map((i) => [i.id, i.value.startsWith('dogs') ? 'turtles - hohoho' : i.value]));
    const done = await graph.invoke(new Command({ resume: answers }), config);
    assert.deepEqual([...done.jokes].sort(), ['Joke about cats - hohoho', 'Joke about turtles - hohoho']);
  });

  test(named(impl, 'updateState by a paused child\'s namespace: the edit holds for that pause only; the child goes on from it and pauses again'), async () => {
    const State = () => Annotation.Root({ name: Annotation(), city: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const child = new StateGraph(State())
      .addNode('askName', (s) => ({ name: interrupt('name?'), log: [`name after ${s.city ?? '-'}`] }))
      .addNode('askCity', (s) => ({ city: interrupt(`city of ${s.name}?`), log: ['city'] }))
      .addEdge(START, 'askName').addEdge('askName', 'askCity').compile();
    const graph = new StateGraph(State()).addNode('form', child).addEdge(START, 'form').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'form' } };
    await graph.invoke({}, config);
    const first = (await graph.getState(config)).tasks[0].state;
    await graph.updateState(first, { city: 'Oslo' });
    let paused = await graph.invoke(new Command({ resume: 'Ann' }), config);
    assert.deepEqual(paused.__interrupt__.map((i) => i.value), ['city of Ann?']);
    const second = (await graph.getState(config)).tasks[0].state;
    assert.deepEqual((await graph.getState(second)).values, { name: 'Ann', city: 'Oslo', log: ['name after Oslo'] });
    const done = await graph.invoke(new Command({ resume: 'Bergen' }), config);
    assert.deepEqual(done, { name: 'Ann', city: 'Bergen', log: ['name after Oslo', 'city'] });
  });

  test(named(impl, 'stream with subgraphs: true: a child with an output schema streams its output keys only (its private keys stay inside)'), async () => {
    const question = Annotation(), answer = Annotation(), scratch = Annotation({ reducer: (a, b) => a.concat(b), default: () => [] });
    const child = new StateGraph(Annotation.Root({ question, answer, scratch }), { input: Annotation.Root({ question }), output: Annotation.Root({ answer }) })
      .addNode('think', (s) => ({ scratch: [`secret notes on ${s.question}`] }))
      .addNode('reply', () => ({ answer: 'because', scratch: ['done'] }))
      .addEdge(START, 'think').addEdge('think', 'reply').addEdge('reply', END).compile();
    const graph = new StateGraph(Annotation.Root({ question, answer })).addNode('qa', child).addEdge(START, 'qa').addEdge('qa', END).compile();
    const chunks = await collect(graph.stream({ question: 'why' }, { streamMode: ['values', 'updates'], subgraphs: true }));
    assert.deepEqual(chunks.filter(([ns]) => ns.length).map(([, mode, chunk]) => [mode, chunk]), [
      ['updates', { think: {} }],
      ['updates', { reply: { answer: 'because' } }],
      ['values', { answer: 'because' }],
    ]);
    assert.deepEqual(chunks.at(-1), [[], 'values', { question: 'why', answer: 'because' }]);
  });

  test(named(impl, 'getState with subgraphs: true: a child\'s snapshot config names its checkpoint, so getState of it is the child as it was then, after an updateState of it too'), async () => {
    const State = () => Annotation.Root({ docs: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }), ok: Annotation() });
    const child = new StateGraph(State())
      .addNode('search', () => ({ docs: ['web'] }))
      .addNode('approve', () => ({ ok: interrupt('ok?') }))
      .addEdge(START, 'search').addEdge('search', 'approve').addEdge('approve', END).compile();
    const graph = new StateGraph(State()).addNode('research', child).addEdge(START, 'research').addEdge('research', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'pinned-child' } };
    await graph.invoke({}, config);
    const then = (await graph.getState(config, { subgraphs: true })).tasks[0].state.config;
    assert.equal(typeof then.configurable.checkpoint_id, 'string');
    assert.match(then.configurable.checkpoint_ns, /^research:/);
    const edited = await graph.updateState(then, { docs: ['manual'] });
    assert.deepEqual((await graph.getState(then)).values.docs, ['web']);
    assert.deepEqual((await graph.getState(edited)).values.docs, ['web', 'manual']);
    assert.deepEqual((await graph.getState(config, { subgraphs: true })).tasks[0].state.values.docs, ['web', 'manual']);
    // Without subgraphs, a task's state is the namespace alone (the latest child), as LangGraph's.
    assert.deepEqual(Object.keys((await graph.getState(config)).tasks[0].state.configurable).sort(), ['checkpoint_ns', 'thread_id']);
  });

  test(named(impl, 'stream with subgraphs: true: a child\'s interrupt comes in its namespace first, then the parent\'s, with the same ids'), async () => {
    const child = new StateGraph(Annotation.Root({ v: Annotation() })).addNode('ask', () => ({ v: interrupt('q') })).addEdge(START, 'ask').compile();
    const graph = new StateGraph(Annotation.Root({ v: Annotation() })).addNode('child', child).addEdge(START, 'child').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 't' }, subgraphs: true, streamMode: ['updates', 'values'] };
    const chunks = await collect(graph.stream({ v: 1 }, config));
    const ns = chunks[1][0];
    assert.equal(ns.length, 1);
    assert.match(ns[0], /^child:/);
    const [{ id }] = chunks.at(-1)[2].__interrupt__;
    assert.deepEqual(chunks, [
      [[], 'values', { v: 1 }],
      [ns, 'values', { v: 1 }],
      [ns, 'updates', { __interrupt__: [{ id, value: 'q' }] }],
      [ns, 'values', { __interrupt__: [{ id, value: 'q' }] }],
      [[], 'updates', { __interrupt__: [{ id, value: 'q' }] }],
      [[], 'values', { __interrupt__: [{ id, value: 'q' }] }],
    ]);
    // The resume streams the values it goes on from first, the parent's and then the child's (which
    // goes on inside the child: no input step of its own).
    const resumed = await collect(graph.stream(new Command({ resume: 'a' }), config));
    assert.deepEqual(resumed, [
      [[], 'values', { v: 1 }],
      [ns, 'values', { v: 1 }],
      [ns, 'updates', { ask: { v: 'a' } }],
      [ns, 'values', { v: 'a' }],
      [[], 'updates', { child: { v: 'a' } }],
      [[], 'values', { v: 'a' }],
    ]);
  });

  test(named(impl, 'a compiled graph as a node with a retryPolicy is run again when it fails; a cachePolicy on it: LangGraph applies it, edgegraph refuses it (INVALID_DEFINITION naming the node)'), async () => {
    let tries = 0;
    const child = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('flaky', (s) => { if (++tries < 3) throw new Error(`try ${tries}`); return { n: s.n + 1 }; }).addEdge(START, 'flaky').compile();
    const retried = new StateGraph(Annotation.Root({ n: Annotation() }))
      .addNode('child', child, { retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false } }).addEdge(START, 'child').compile();
    assert.deepEqual(await retried.invoke({ n: 1 }), { n: 2 });
    assert.equal(tries, 3);
    const cached = new StateGraph(Annotation.Root({ n: Annotation() })).addNode('child', child, { cachePolicy: true }).addEdge(START, 'child');
    if (impl.name === 'edgegraph') assert.throws(() => cached.compile(), (e) => e.code === 'INVALID_DEFINITION' && /node 'child' is a compiled graph/.test(e.message));
    else assert.deepEqual(await cached.compile().invoke({ n: 1 }), { n: 2 });
    // An errorHandler on it too (LangGraph 1.7's); setNodeDefaults' errorHandler passes it by.
    const handled = new StateGraph(Annotation.Root({ n: Annotation() })).addNode('child', child, { errorHandler: () => ({ n: 0 }) }).addEdge(START, 'child');
    if (impl.name === 'edgegraph') assert.throws(() => handled.compile(), (e) => e.code === 'INVALID_DEFINITION' && /node 'child' is a compiled graph: give its nodes cachePolicy and errorHandler/.test(e.message));
    tries = 0;
    const defaulted = new StateGraph(Annotation.Root({ n: Annotation() })).setNodeDefaults({ errorHandler: () => ({ n: 0 }) }).addNode('child', child).addEdge(START, 'child').compile();
    if (impl.name === 'edgegraph') await assert.rejects(defaulted.invoke({ n: 1 }), /try 1/);
  });

  test(named(impl, 'a subgraph node as a Send target runs the child with the Send\'s argument'), async () => {
    const child = new StateGraph(Annotation.Root({ subject: Annotation(), jokes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('generate', (s) => ({ jokes: [`Joke about ${s.subject}`] })).addEdge(START, 'generate').compile();
    const graph = new StateGraph(Annotation.Root({ subjects: Annotation(), jokes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('generateJoke', child)
      .addConditionalEdges(START, (s) => s.subjects.map((subject) => new Send('generateJoke', { subject })))
      .compile();
    const out = await graph.invoke({ subjects: ['cats', 'dogs'] });
    assert.deepEqual([...out.jokes].sort(), ['Joke about cats', 'Joke about dogs']);
  });
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = impl;

  test(named(impl, 'a subgraph\'s namespace config: getState reads the paused child by it (also two levels down)'), async () => {
    const child = new StateGraph(Annotation.Root({ v: Annotation() }))
      .addNode('ask', () => ({ v: interrupt('v?') })).addEdge(START, 'ask').compile();
    const graph = new StateGraph(Annotation.Root({ v: Annotation() })).addNode('child', child).addEdge(START, 'child')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'ns' } };
    await graph.invoke({ v: 'start' }, config);
    const { tasks } = await graph.getState(config);
    const childConfig = tasks[0].state;
    assert.equal(childConfig.configurable.thread_id, 'ns');
    assert.match(childConfig.configurable.checkpoint_ns, /^child:/);
    const childState = await graph.getState(childConfig);
    assert.deepEqual(childState.next, ['ask']);
    assert.deepEqual(childState.values, { v: 'start' });
    assert.deepEqual(childState.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value)]), [['ask', ['v?']]]);
    assert.deepEqual(await graph.invoke(new Command({ resume: 'done' }), config), { v: 'done' });

    // Two levels: the grandchild's namespace is found through the child's.
    const outer = new StateGraph(Annotation.Root({ v: Annotation() }))
      .addNode('middle', new StateGraph(Annotation.Root({ v: Annotation() })).addNode('child', child).addEdge(START, 'child').compile())
      .addEdge(START, 'middle').compile({ checkpointer: new MemorySaver() });
    const deep = { configurable: { thread_id: 'ns2' } };
    await outer.invoke({ v: 'deep' }, deep);
    const nested = await outer.getState(deep, { subgraphs: true });
    const grandConfig = nested.tasks[0].state.tasks[0].state.config;
    assert.match(grandConfig.configurable.checkpoint_ns, /^middle:.*\|child:/);
    assert.deepEqual((await outer.getState(grandConfig)).next, ['ask']);
  });

  test(named(impl, 'checkpointer: true: the child\'s state lasts across invokes of one thread, and another thread starts afresh'), async () => {
    // The child's `seen` is its own (the parent has no such key): only `turn` goes in, `summary` comes out.
    const child = new StateGraph(Annotation.Root({ turn: Annotation(), summary: Annotation(), seen: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('remember', (s) => ({ seen: [s.turn], summary: [...s.seen, s.turn].join(',') })).addEdge(START, 'remember').compile({ checkpointer: true });
    const graph = new StateGraph(Annotation.Root({ turn: Annotation(), summary: Annotation() }))
      .addNode('memory', child).addEdge(START, 'memory').compile({ checkpointer: new MemorySaver() });
    const a = { configurable: { thread_id: 'a' } };
    assert.equal((await graph.invoke({ turn: 1 }, a)).summary, '1');
    assert.equal((await graph.invoke({ turn: 2 }, a)).summary, '1,2');
    assert.equal((await graph.invoke({ turn: 3 }, { configurable: { thread_id: 'b' } })).summary, '3');
    assert.equal((await graph.invoke({ turn: 4 }, a)).summary, '1,2,4');
  });

  test(named(impl, 'pregel.test.ts: checkpointer: true (the child keeps its state across calls, streamed under its node\'s name)'), async () => {
    const inner = new StateGraph(Annotation.Root({ myKey: Annotation({ reducer: (a, b) => a + b }), myOtherKey: Annotation() }))
      .addSequence({ inner_1: (s) => ({ myKey: ' got here', myOtherKey: s.myKey }), inner_2: () => ({ myKey: ' and there' }) })
      .addEdge(START, 'inner_1');
    const graph = new StateGraph(Annotation.Root({ myKey: Annotation() }))
      .addNode('inner', inner.compile({ checkpointer: true }))
      .addEdge(START, 'inner')
      .addConditionalEdges('inner', ({ myKey }) => (myKey.split('there').length - 1 < 2 ? 'inner' : END))
      .compile({ checkpointer: new MemorySaver() });
    assert.deepEqual(await collect(graph.stream({ myKey: '' }, { configurable: { thread_id: '1' }, subgraphs: true })), [
      [['inner'], { inner_1: { myKey: ' got here', myOtherKey: '' } }],
      [['inner'], { inner_2: { myKey: ' and there' } }],
      [[], { inner: { myKey: ' got here and there' } }],
      [['inner'], { inner_1: { myKey: ' got here', myOtherKey: ' got here and there got here and there' } }],
      [['inner'], { inner_2: { myKey: ' and there' } }],
      [[], { inner: { myKey: ' got here and there got here and there got here and there' } }],
    ]);
  });
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, MemorySaver, interrupt, Command } = impl;
  test(named(impl, 'updateState by a paused grandchild\'s namespace (two levels down): the resumed run reads the edit'), async () => {
    const S = Annotation.Root({ city: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const grandchild = new StateGraph(S).addNode('ask', (s) => ({ log: [`ask ${interrupt('where?')} ${s.city}`] })).addEdge(START, 'ask').compile();
    const child = new StateGraph(S).addNode('inner', grandchild).addEdge(START, 'inner').compile();
    const graph = new StateGraph(S).addNode('outer', child).addEdge(START, 'outer').compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'nested-edit' } };
    await graph.invoke({ city: 'Rome' }, config);
    const low = (await graph.getState(config, { subgraphs: true })).tasks[0].state.tasks[0].state;
    assert.match(low.config.configurable.checkpoint_ns, /^outer:[^|]+\|inner:/);
    assert.deepEqual(low.values, { city: 'Rome', log: [] });
    // By the child's namespace, without subgraphs: the grandchild shows as its namespace.
    const mid = await graph.getState({ configurable: { thread_id: 'nested-edit', checkpoint_ns: low.config.configurable.checkpoint_ns.split('|')[0] } });
    assert.deepEqual(mid.next, ['inner']);
    assert.equal(mid.tasks[0].state.configurable.checkpoint_ns, low.config.configurable.checkpoint_ns);
    await graph.updateState(low.config, { city: 'Oslo' });
    assert.deepEqual(await graph.invoke(new Command({ resume: 'here' }), config), { city: 'Oslo', log: ['ask here Oslo'] });
  });
}

// edgegraph's own: a child's config of an earlier checkpoint is read (getState), not edited.
test('edgegraph: updateState by a child\'s config of an earlier checkpoint is refused (INVALID_INPUT naming both checkpoints); the thread is unchanged', async () => {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = implementations.find((i) => i.name === 'edgegraph');
  const State = () => Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const child = new StateGraph(State()).addNode('ask', () => ({ log: [`ask:${interrupt('q')}`] })).addEdge(START, 'ask').compile();
  const graph = new StateGraph(State()).addNode('sub', child).addNode('after', () => ({ log: ['after'] }))
    .addEdge(START, 'sub').addEdge('sub', 'after').addEdge('after', END).compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'old-child' } };
  await graph.invoke({ log: ['in'] }, config);
  const then = (await graph.getState(config, { subgraphs: true })).tasks[0].state.config;
  await graph.invoke(new Command({ resume: 'A' }), config);
  const before = await graph.getState(config);
  await assert.rejects(graph.updateState(then, { log: ['edited'] }), (e) => e.code === 'INVALID_INPUT' && e.message.includes(`checkpoint ${then.configurable.checkpoint_id} of thread 'old-child'`));
  const now = await graph.getState(config);
  assert.deepEqual([now.values, now.next, now.config.configurable.checkpoint_id], [before.values, before.next, before.config.configurable.checkpoint_id]);
  assert.deepEqual((await graph.getState(then)).values.log, ['in']);
});
