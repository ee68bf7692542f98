// Ported from LangGraph.js libs/langgraph-core/src/tests/pregel.test.ts:
// StateGraph building, edges, Sends, sequences, config and errors. Each test
// names the test it comes from and runs against both implementations.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, collect, named } from './support/impls.js';

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, Send, MemorySaver } = impl;

  test(named(impl, 'pregel.test.ts > StateGraph: should allow a conditional edge after a send'), async () => {
    const State = Annotation.Root({ items: Annotation({ reducer: (a, b) => a.concat(b) }) });
    const graph = new StateGraph(State)
      .addNode('1', () => ({ items: ['1'] }))
      .addNode('2', () => ({ items: ['2'] }))
      .addNode('3', () => ({ items: ['3'] }))
      .addEdge('__start__', '1')
      .addConditionalEdges('1', (state) => [new Send('2', state), new Send('2', state)])
      .addConditionalEdges('2', () => '3')
      .addEdge('3', '__end__')
      .compile();
    assert.deepEqual(await graph.invoke({ items: ['0'] }), { items: ['0', '1', '2', '2', '3'] });
  });

  test(named(impl, 'pregel.test.ts > StateGraph: can invoke (agent loop; the fake LLM is a scripted function)'), async () => {
    const State = Annotation.Root({
      input: Annotation(),
      agentOutcome: Annotation(),
      steps: Annotation({ reducer: (x, y) => x.concat(y) }),
    });
    const responses = ['tool:search_api:query', 'tool:search_api:another', 'finish:answer'];
    const agent = async () => {
      const text = responses.shift();
      if (text.startsWith('finish')) return { agentOutcome: { returnValues: { answer: text.split(':')[1] }, log: text } };
      const [, tool, toolInput] = text.split(':');
      return { agentOutcome: { tool, toolInput, log: text } };
    };
    const tools = async ({ agentOutcome }) => ({ steps: [[agentOutcome, `result for ${agentOutcome.toolInput}`]] });
    const graph = new StateGraph(State)
      .addNode('agent', agent)
      .addNode('passthrough', () => ({}))
      .addNode('tools', tools)
      .addEdge(START, 'agent')
      .addEdge('agent', 'passthrough')
      .addConditionalEdges('passthrough', async (s) => ('returnValues' in s.agentOutcome ? '__end__' : 'tools'), ['tools', '__end__'])
      .addEdge('tools', 'agent')
      .compile();
    assert.deepEqual(await graph.invoke({ input: 'what is the weather in sf?' }), {
      input: 'what is the weather in sf?',
      agentOutcome: { returnValues: { answer: 'answer' }, log: 'finish:answer' },
      steps: [
        [{ log: 'tool:search_api:query', tool: 'search_api', toolInput: 'query' }, 'result for query'],
        [{ log: 'tool:search_api:another', tool: 'search_api', toolInput: 'another' }, 'result for another'],
      ],
    });
  });

  test(named(impl, 'pregel.test.ts > StateGraph: can stream (five updates, the first from the agent)'), async () => {
    const State = Annotation.Root({ input: Annotation(), agentOutcome: Annotation(), steps: Annotation({ reducer: (x, y) => x.concat(y) }) });
    const responses = ['tool:search_api:query', 'tool:search_api:another', 'finish:answer'];
    const app = new StateGraph(State)
      .addNode('agent', () => {
        const text = responses.shift();
        if (text.startsWith('finish')) return { agentOutcome: { returnValues: { answer: 'answer' }, log: text } };
        const [, tool, toolInput] = text.split(':');
        return { agentOutcome: { tool, toolInput, log: text } };
      })
      .addNode('tools', ({ agentOutcome }) => ({ steps: [[agentOutcome, `result for ${agentOutcome.toolInput}`]] }))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', (s) => ('returnValues' in s.agentOutcome ? '__end__' : 'tools'), ['tools', '__end__'])
      .addEdge('tools', 'agent')
      .compile();
    const items = await collect(app.stream({ input: 'what is the weather in sf?' }));
    assert.equal(items.length, 5);
    assert.deepEqual(items[0], { agent: { agentOutcome: { tool: 'search_api', toolInput: 'query', log: 'tool:search_api:query' } } });
  });

  test(named(impl, 'pregel.test.ts > StateGraph: can invoke a nested graph'), async () => {
    const inner = new StateGraph({ channels: { myKey: null, myOtherKey: null } })
      .addNode('up', (s) => ({ myKey: `${s.myKey} there`, myOtherKey: s.myOtherKey }))
      .addEdge(START, 'up').addEdge('up', END);
    const graph = new StateGraph({ channels: { myKey: null, neverCalled: null } })
      .addNode('inner', inner.compile())
      .addNode('side', (s) => ({ myKey: `${s.myKey} and back again` }))
      .addEdge('inner', 'side').addEdge(START, 'inner').addEdge('side', END)
      .compile();
    // LangGraph's test keeps a RunnableLambda in the state; edgegraph's state is JSON (see the migration table).
    assert.deepEqual(await graph.invoke({ myKey: 'my value', neverCalled: { kept: true } }), { myKey: 'my value there and back again', neverCalled: { kept: true } });
  });

  test(named(impl, 'pregel.test.ts > StateGraph: Conditional edges is optional'), async () => {
    const bump = (value) => (state) => { const { keys } = state; keys.value = value; return { keys }; };
    const graph = new StateGraph({ channels: { keys: null } })
      .addNode('one', bump(1)).addNode('two', bump(2)).addNode('three', bump(3))
      .addEdge(START, 'one')
      .addConditionalEdges('one', () => 'two')
      .addEdge('two', 'three').addEdge('three', END)
      .compile();
    assert.deepEqual(await graph.invoke({ keys: { value: 0 } }), { keys: { value: 3 } });
  });

  test(named(impl, 'pregel.test.ts > StateGraph: Allow map reduce flows'), async () => {
    const State = Annotation.Root({ subjects: Annotation(), jokes: Annotation({ reducer: (a, b) => a.concat(b) }) });
    const graph = new StateGraph(State)
      .addNode('generate_joke', (state) => ({ jokes: [`Joke about ${state.subjects}`] }))
      .addConditionalEdges('__start__', async (state) => state.subjects.map((subject) => new Send('generate_joke', { subjects: [subject] })))
      .addEdge('generate_joke', '__end__')
      .compile();
    assert.deepEqual(await graph.invoke({ subjects: ['cats', 'dogs'] }), { subjects: ['cats', 'dogs'], jokes: ['Joke about cats', 'Joke about dogs'] });
  });

  test(named(impl, 'pregel.test.ts > StateGraph: should allow custom configuration values'), async () => {
    const State = Annotation.Root({ hello: Annotation() });
    const seen = [];
    const graph = new StateGraph(State)
      .addNode('a', (_, config) => { seen.push(config?.configurable?.foo); return {}; })
      .addNode('b', (_, config) => { seen.push(config?.configurable?.foo); return { hello: 'again', now: 123 }; })
      .addEdge(START, 'a').addEdge('a', 'b')
      .compile();
    assert.deepEqual(await graph.invoke({ hello: 'there' }, { configurable: { foo: 'bar' } }), { hello: 'again' });
    assert.deepEqual(seen, ['bar', 'bar']);
  });

  test(named(impl, 'pregel.test.ts: StateGraph start branch then end (the branch from START, without a checkpointer)'), async () => {
    const toolTwo = new StateGraph({ channels: { my_key: { reducer: (x, y) => x + y }, market: null } })
      .addNode('tool_two_slow', () => ({ my_key: ' slow' }))
      .addNode('tool_two_fast', () => ({ my_key: ' fast' }))
      .addConditionalEdges({ source: START, path: (s) => (s.market === 'DE' ? 'tool_two_slow' : 'tool_two_fast') })
      .compile();
    assert.deepEqual(await toolTwo.invoke({ my_key: 'value', market: 'DE' }), { my_key: 'value slow', market: 'DE' });
    assert.deepEqual(await toolTwo.invoke({ my_key: 'value', market: 'US' }), { my_key: 'value fast', market: 'US' });
  });

  test(named(impl, 'pregel.test.ts: StateGraph branch then node (without getGraph().toJSON())'), async () => {
    const channels = () => ({ channels: { my_key: { reducer: (x, y) => x + y }, market: null } });
    const nodes = (b) => b
      .addNode('prepare', () => ({ my_key: ' prepared' }))
      .addNode('tool_two_slow', () => ({ my_key: ' slow' }))
      .addNode('tool_two_fast', () => ({ my_key: ' fast' }))
      .addNode('finish', () => ({ my_key: ' finished' }))
      .addEdge(START, 'prepare');
    const path = (s) => (s.market === 'DE' ? 'tool_two_slow' : 'tool_two_fast');
    // With a path map, nothing leads to 'finish': the graph does not compile.
    const invalid = nodes(new StateGraph(channels())).addConditionalEdges({ source: 'prepare', path, pathMap: ['tool_two_slow', 'tool_two_fast'] }).addEdge('finish', END);
    assert.throws(() => invalid.compile(), /not reachable/);
    // A branch without a path map reaches every node but its own source.
    const selfOnly = nodes(new StateGraph(channels())).addConditionalEdges('finish', () => END).addEdge('prepare', 'tool_two_slow').addEdge('prepare', 'tool_two_fast');
    assert.throws(() => selfOnly.compile(), /Node `finish` is not reachable/);
    const tool = nodes(new StateGraph(channels())).addConditionalEdges({ source: 'prepare', path })
      .addEdge('tool_two_fast', 'finish').addEdge('tool_two_slow', 'finish').addEdge('finish', END).compile();
    assert.deepEqual(await tool.invoke({ my_key: 'value', market: 'DE' }), { my_key: 'value prepared slow finished', market: 'DE' });
    assert.deepEqual(await tool.invoke({ my_key: 'value', market: 'FR' }), { my_key: 'value prepared fast finished', market: 'FR' });
  });

  test(named(impl, 'pregel.test.ts: Can have three graphs with different keys'), async () => {
    const one = Annotation.Root({ inputOne: Annotation() });
    const two = Annotation.Root({ inputOne: Annotation(), inputTwo: Annotation() });
    const three = Annotation.Root({ inputTwo: Annotation(), inputThree: Annotation() });
    const graphThree = new StateGraph(three).addNode('returns', () => ({ inputThree: 'one' })).addEdge(START, 'returns').compile();
    const graphTwo = new StateGraph(two).addNode('one', () => ({ inputTwo: 'one' })).addNode('callGraphThree', graphThree, { input: three })
      .addEdge(START, 'one').addEdge('one', 'callGraphThree').addEdge('callGraphThree', END).compile();
    const graphOne = new StateGraph(one).addNode('one', () => ({ inputOne: 'one' })).addNode('callGraphTwo', graphTwo, { input: two })
      .addEdge(START, 'one').addEdge('one', 'callGraphTwo').addEdge('callGraphTwo', END).compile();
    assert.deepEqual(await graphOne.invoke({ inputOne: 'one' }), { inputOne: 'one' });
  });

  test(named(impl, 'pregel.test.ts: persist a falsy value'), async () => {
    const graph = new StateGraph(Annotation.Root({ ...impl.MessagesAnnotation.spec, number: Annotation(), boolean: Annotation(), string: Annotation() }))
      .addNode('node', (state) => state)
      .addEdge('__start__', 'node')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'thread_id' } };
    await collect(graph.stream({ number: 0, boolean: false, string: '' }, config));
    const { values } = await graph.getState(config);
    assert.equal(values.number, 0);
    assert.equal(values.boolean, false);
    assert.equal(values.string, '');
  });

  const SequenceState = () => Annotation.Root({ foo: Annotation({ default: () => [], reducer: (a, b) => [...a, ...b] }), bar: Annotation() });
  const step1 = () => ({ foo: ['step1'], bar: 'baz' });
  const step2 = () => ({ foo: ['step2'] });

  test(named(impl, 'pregel.test.ts > add sequence: should raise error if less than 1 step'), () => {
    assert.throws(() => new StateGraph(SequenceState()).addSequence([]));
  });

  test(named(impl, 'pregel.test.ts > add sequence: should raise error if duplicate step names'), () => {
    assert.throws(() => new StateGraph(SequenceState()).addSequence([['foo', step1], ['foo', step1]]));
  });

  test(named(impl, 'pregel.test.ts > add sequence: should work with dictionary'), async () => {
    const graph = new StateGraph(SequenceState()).addSequence({ step1, step2 }).addEdge('__start__', 'step1').compile();
    assert.deepEqual(await graph.invoke({ foo: [] }), { foo: ['step1', 'step2'], bar: 'baz' });
    assert.deepEqual(await collect(graph.stream({ foo: [] })), [{ step1: { foo: ['step1'], bar: 'baz' } }, { step2: { foo: ['step2'] } }]);
  });

  test(named(impl, 'pregel.test.ts > add sequence: should work with list of tuples'), async () => {
    const graph = new StateGraph(SequenceState()).addSequence([['meow1', step1], ['meow2', step2]]).addEdge('__start__', 'meow1').compile();
    assert.deepEqual(await graph.invoke({ foo: [] }), { foo: ['step1', 'step2'], bar: 'baz' });
    assert.deepEqual(await collect(graph.stream({ foo: [] })), [{ meow1: { foo: ['step1'], bar: 'baz' } }, { meow2: { foo: ['step2'] } }]);
  });

  test(named(impl, 'pregel.test.ts > add sequence: should work with two sequences'), async () => {
    const a = () => ({ foo: ['a'] });
    const b = () => ({ foo: ['b'] });
    const graph = new StateGraph(SequenceState()).addSequence({ a }).addSequence({ b }).addEdge('__start__', 'a').addEdge('a', 'b').compile();
    assert.deepEqual(await graph.invoke({ foo: [] }), { foo: ['a', 'b'] });
    assert.deepEqual(await collect(graph.stream({ foo: [] })), [{ a: { foo: ['a'] } }, { b: { foo: ['b'] } }]);
  });

  test(named(impl, 'pregel.test.ts > add sequence: should work with mixed nodes and sequences'), async () => {
    const n = (x) => () => ({ foo: [x] });
    const graph = new StateGraph(SequenceState())
      .addSequence({ a: n('a'), b: n('b') })
      .addConditionalEdges('b', (state) => (state.foo[0] === 'a' ? 'd' : 'c'))
      .addNode('c', n('c'))
      .addSequence([['d', n('d')], ['e', n('e')]])
      .addEdge('__start__', 'a')
      .compile();
    assert.deepEqual(await graph.invoke({ foo: [] }), { foo: ['a', 'b', 'd', 'e'] });
    assert.deepEqual(await graph.invoke({ foo: ['start'] }), { foo: ['start', 'a', 'b', 'c'] });
    assert.deepEqual(await collect(graph.stream({ foo: [] })), [{ a: { foo: ['a'] } }, { b: { foo: ['b'] } }, { d: { foo: ['d'] } }, { e: { foo: ['e'] } }]);
  });

  test(named(impl, 'pregel.test.ts: should raise InvalidUpdateError when the same LastValue channel is updated twice in one iteration (as a StateGraph)'), async () => {
    const graph = new StateGraph(Annotation.Root({ input: Annotation(), output: Annotation() }))
      .addNode('one', (s) => ({ output: s.input + 1 }))
      .addNode('two', (s) => ({ output: s.input + 2 }))
      .addEdge(START, 'one').addEdge(START, 'two')
      .compile();
    await assert.rejects(graph.invoke({ input: 2 }), (e) => e.name === 'InvalidUpdateError' && e instanceof impl.InvalidUpdateError);
    // LangGraph's test writes the same value twice: LangGraph refuses that too; edgegraph
    // accepts two equal writes (documented in the migration guide's differences).
    const same = new StateGraph(Annotation.Root({ input: Annotation(), output: Annotation() }))
      .addNode('one', (s) => ({ output: s.input + 1 }))
      .addNode('two', (s) => ({ output: s.input + 1 }))
      .addEdge(START, 'one').addEdge(START, 'two')
      .compile();
    if (impl.name === 'langgraph') await assert.rejects(same.invoke({ input: 2 }), (e) => e.name === 'InvalidUpdateError');
    else assert.deepEqual(await same.invoke({ input: 2 }), { input: 2, output: 3 });
  });

  test(named(impl, 'pregel.test.ts: should process two inputs to two outputs validly (parallel writes through a reducer)'), async () => {
    const graph = new StateGraph(Annotation.Root({ input: Annotation(), output: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode('one', (s) => ({ output: [s.input + 1] }))
      .addNode('two', (s) => ({ output: [s.input + 1] }))
      .addEdge(START, 'one').addEdge(START, 'two')
      .compile();
    assert.deepEqual((await graph.invoke({ input: 2 })).output, [3, 3]);
  });
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END } = impl;
  test(named(impl, 'getGraph().drawMermaid() draws the nodes and edges, also through withConfig()'), () => {
    const graph = new StateGraph(Annotation.Root({ v: Annotation() }))
      .addNode('draft', () => ({})).addNode('review', () => ({}))
      .addEdge(START, 'draft').addEdge('draft', 'review').addEdge('review', END).compile();
    for (const g of [graph, graph.withConfig({ recursionLimit: 5 })]) {
      const text = g.getGraph().drawMermaid();
      // (Each draws its own ids: the labels and the arrows are what both have.)
      assert.match(text, /draft/);
      assert.match(text, /review/);
      assert.ok(text.match(/-->/g).length >= 3, text);
      assert.doesNotMatch(text, /^\s*(\S+) --> \1;?\s*$/m, 'no arrow from the start to itself');
    }
  });

  test(named(impl, 'drawMermaid() draws a conditional edge to each destination of its path map (an object or a list)'), () => {
    const graph = new StateGraph(Annotation.Root({ v: Annotation() }))
      .addNode('agent', () => ({})).addNode('tools', () => ({})).addNode('other', () => ({}))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', () => END, { go: 'tools', stop: END })
      .addConditionalEdges('tools', () => 'agent', ['agent', 'other'])
      .addEdge('other', END)
      .compile();
    assert.deepEqual(arrowsOf(graph.getGraph().drawMermaid()), [
      '__start__ --> agent', 'agent -.-> __end__', 'agent -.-> tools', 'other --> __end__', 'tools -.-> agent', 'tools -.-> other',
    ]);
  });
}

for (const impl of implementations) {
  const { StateGraph, Annotation, START, MemorySaver, EmptyInputError } = impl;
  test(named(impl, 'invoke(null) on a thread with nothing to continue is an EmptyInputError'), async () => {
    const graph = new StateGraph(Annotation.Root({ v: Annotation() })).addNode('a', () => ({})).addEdge(START, 'a').compile({ checkpointer: new MemorySaver() });
    await assert.rejects(graph.invoke(null, { configurable: { thread_id: 'nothing' } }), (e) => e instanceof EmptyInputError && e.name === 'EmptyInputError' && e.constructor.name === 'EmptyInputError' && /Received no input/.test(e.message));
  });
}

test('edgegraph: the LangGraph error classes are EdgegraphErrors with their names, codes and lc_error_code', async () => {
  const lib = implementations.find((i) => i.name === 'edgegraph');
  const { EdgegraphError } = await import('edgegraph');
  const cases = [
    [new lib.GraphRecursionError('r'), 'GraphRecursionError', 'MAX_STEPS_EXCEEDED', 'GRAPH_RECURSION_LIMIT'],
    [new lib.InvalidUpdateError('u', { code: 'INVALID_RESULT', node: 'n' }), 'InvalidUpdateError', 'INVALID_RESULT', 'INVALID_CONCURRENT_GRAPH_UPDATE'],
    [new lib.InvalidUpdateError('u'), 'InvalidUpdateError', 'PARALLEL_CONFLICT', 'INVALID_CONCURRENT_GRAPH_UPDATE'],
    [new lib.GraphValidationError('v'), 'GraphValidationError', 'INVALID_DEFINITION', undefined],
    [new lib.EmptyInputError(), 'EmptyInputError', 'INVALID_INPUT', undefined],
  ];
  for (const [e, name, code, lcCode] of cases) {
    assert.ok(e instanceof EdgegraphError && e instanceof Error);
    assert.deepEqual([e.name, e.constructor.name, e.code, e.lc_error_code], [name, name, code, lcCode]);
    assert.deepEqual(Object.keys(e).filter((k) => k === 'name' || k === 'lc_error_code').sort(), ['lc_error_code', 'name']);   // own properties, as LangGraph's errors have them
  }
  assert.equal(cases[1][0].node, 'n');
  assert.equal(cases[4][0].message, 'Received no input for __start__');
  assert.ok(lib.isGraphRecursionError(cases[0][0]) && !lib.isGraphRecursionError(cases[3][0]));
});

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END } = impl;
  test(named(impl, 'retryPolicy: a failing node is tried again (one task in the tasks stream); a 4xx error is not (the default retryOn); a retryOn of its own decides'), async () => {
    const S = Annotation.Root({ out: Annotation() });
    const policy = (more) => ({ retryPolicy: { maxAttempts: 5, initialInterval: 1, jitter: false, logWarning: false, ...more } });
    let calls = 0;
    const flaky = new StateGraph(S).addNode('call', () => { calls++; if (calls < 3) throw Object.assign(new Error('busy'), { status: 503 }); return { out: calls }; }, policy())
      .addEdge(START, 'call').addEdge('call', END).compile();
    const chunks = await collect(flaky.stream({}, { streamMode: 'tasks' }));
    assert.equal(calls, 3);
    assert.equal(chunks.filter((c) => 'input' in c).length, 1);
    assert.deepEqual(chunks.filter((c) => 'result' in c).map((c) => c.result), [{ out: 3 }]);
    let bad = 0;
    const client = new StateGraph(S).addNode('call', () => { bad++; throw Object.assign(new Error('bad request'), { status: 400 }); }, policy())
      .addEdge(START, 'call').addEdge('call', END).compile();
    await assert.rejects(client.invoke({}), /bad request/);
    assert.equal(bad, 1);
    let own = 0;
    const custom = new StateGraph(S).addNode('call', () => { own++; throw new Error(own === 1 ? 'again' : 'stop'); }, policy({ retryOn: (e) => e.message === 'again' }))
      .addEdge(START, 'call').addEdge('call', END).compile();
    await assert.rejects(custom.invoke({}), /stop/);
    assert.equal(own, 2);
  });
}

/**
 * A Mermaid flowchart's arrows as `from --> to` (`-.->`: conditional) between node labels, sorted: each
 * implementation draws its own ids, labels and arrow captions (LangGraph `agent -. go .-> tools;`,
 * edgegraph `n1 -.->|"agent()"| n2`), and the arrows between the named nodes are what both must have.
 */
function arrowsOf(text) {
  const named = new Map();
  const canonical = (label) => ({ start: '__start__', end: '__end__' })[label] ?? label;
  for (const [, id, a, b, c] of text.matchAll(/^\s*(\w+)(?:\["([^"]*)"\]|\(\[(?:<p>)?([^<\]]*)|\(([^)]*)\))/gm)) named.set(id, canonical(a ?? b ?? c));
  const out = [];
  for (const [, from, arrow, to] of text.matchAll(/^\s*(\w+)\s+(-->|-\.->|-\..*?\.->)(?:\|[^|]*\|)?\s*(\w+);?\s*$/gm)) {
    out.push(`${named.get(from) ?? from} ${arrow === '-->' ? '-->' : '-.->'} ${named.get(to) ?? to}`);
  }
  return out.sort();
}
