// A review of the LangGraph parity of resumes given while no interrupt is pending,
// getStateHistory's one checkpoint a step, and resumed streams: each program was run on
// @langchain/langgraph first, and its behaviour is what both implementations are held to.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryCache as LangGraphCache } from '@langchain/langgraph-checkpoint';
import { implementations, collect, named } from './support/impls.js';

const threadOf = (id) => ({ configurable: { thread_id: id } });
const interruptsOf = (result) => result.__interrupt__?.map((i) => i.value);

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, Send, interrupt } = impl;
  const Log = () => Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  /** Each of the thread's checkpoints, newest first, as [step, next, values.log]. */
  const historyOf = async (graph, config, options) =>
    (await collect(graph.getStateHistory(config, options))).map((s) => [s.metadata.step, s.next, s.values.log]);
  /** The first config of the thread's history whose next is `next` (newest first). */
  const configAt = async (graph, config, next) =>
    (await collect(graph.getStateHistory(config))).find((s) => s.next.join() === next).config;

  // a -> ask -> END, `ask` asking once
  const askGraph = (extra = {}) => new StateGraph(Log())
    .addNode('a', () => ({ log: ['a'] }))
    .addNode('ask', extra.ask ?? (() => ({ log: [`ask:${interrupt('q?')}`] })), extra.askOptions)
    .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });

  // a -> ask -> z -> END; z asks too with `zAsks`
  const askThenZ = (options = {}, zAsks = false) => new StateGraph(Log())
    .addNode('a', () => ({ log: ['a'] })).addNode('ask', () => ({ log: [`ask:${interrupt('q?')}`] }))
    .addNode('z', () => ({ log: [zAsks ? `z:${interrupt('z?')}` : 'z'] }))
    .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', 'z').addEdge('z', END)
    .compile({ checkpointer: new MemorySaver(), ...options });

  test(named(impl, 'a goto to two asking nodes on a finished thread, with a resume: both take it'), async () => {
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] }), { ends: ['p', 'q'] })
      .addNode('p', () => ({ log: [`p:${interrupt('p?')}`] })).addNode('q', () => ({ log: [`q:${interrupt('q?')}`] }))
      .addEdge(START, 'a').addEdge('a', END).addEdge('p', END).addEdge('q', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('goto-two');
    await graph.invoke({ log: [] }, config);
    const resumed = await graph.invoke(new Command({ goto: ['p', 'q'], resume: 'v' }), config);
    assert.deepEqual([resumed.log, interruptsOf(resumed)], [['a', 'p:v', 'q:v'], undefined]);
  });

  test(named(impl, 'one resume value while two interrupts are pending: LangGraph.js gives it to both; edgegraph refuses it (MISSING_RESUME_ANSWER), the thread unchanged'), async () => {
    const graph = new StateGraph(Log())
      .addNode('p', () => ({ log: [`p:${interrupt('p?')}`] })).addNode('q', () => ({ log: [`q:${interrupt('q?')}`] }))
      .addEdge(START, 'p').addEdge(START, 'q').addEdge('p', END).addEdge('q', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('two');
    const asked = await graph.invoke({ log: [] }, config);
    if (impl.name === 'langgraph') {
      assert.deepEqual(await graph.invoke(new Command({ resume: 'v' }), config), { log: ['p:v', 'q:v'] });
      return;
    }
    await assert.rejects(graph.invoke(new Command({ resume: 'v' }), config), { code: 'MISSING_RESUME_ANSWER' });
    const answers = Object.fromEntries(asked.__interrupt__.map((i) => [i.id, `${i.value}!`]));
    assert.deepEqual(await graph.invoke(new Command({ resume: answers }), config), { log: ['p:p?!', 'q:q?!'] });
  });

  test(named(impl, 'a resume at a breakpoint (interruptBefore the asking node, interruptAfter the one before it) goes to that node\'s interrupt(), and not to the next node\'s'), async () => {
    for (const options of [{ interruptBefore: ['ask'] }, { interruptAfter: ['a'] }]) {
      const graph = askThenZ(options, true);
      const config = threadOf(Object.keys(options)[0]);
      await graph.invoke({ log: [] }, config);
      const first = await graph.invoke(new Command({ resume: 'v' }), config);
      assert.deepEqual([first.log, interruptsOf(first)], [['a', 'ask:v'], ['z?']]);
      assert.deepEqual(await graph.invoke(new Command({ resume: 'w' }), config), { log: ['a', 'ask:v', 'z:w'] });
      assert.deepEqual(await historyOf(graph, config),
        [[3, [], ['a', 'ask:v', 'z:w']], [2, ['z'], ['a', 'ask:v']], [1, ['ask'], ['a']], [0, ['a'], []], [-1, ['__start__'], []]]);
    }
  });

  test(named(impl, 'interruptBefore and interruptAfter on one node whose next is END: each pause is a step, and the history one checkpoint a step'), async () => {
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('b', () => ({ log: ['b'] }))
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END)
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['b'], interruptAfter: ['b'] });
    const config = threadOf('both');
    assert.deepEqual(await graph.invoke({ log: [] }, config), { log: ['a'], __interrupt__: [] });
    assert.deepEqual((await graph.getState(config)).next, ['b']);
    assert.deepEqual(await graph.invoke(null, config), { log: ['a', 'b'], __interrupt__: [] });
    assert.deepEqual((await graph.getState(config)).next, []);
    assert.deepEqual(await graph.invoke(null, config), { log: ['a', 'b'] });
    assert.deepEqual(await historyOf(graph, config), [[2, [], ['a', 'b']], [1, ['b'], ['a']], [0, ['a'], []], [-1, ['__start__'], []]]);
  });

  /** START -> ok, bad (in parallel) -> END, both writing `log` (a reducer); bad throws while `fail.now`. */
  const failingPair = (fail, runs) => new StateGraph(Log())
    .addNode('ok', () => { runs.ok++; return { log: ['ok'] }; })
    .addNode('bad', () => { if (fail.now) throw new Error('boom'); return { log: ['bad'] }; })
    .addEdge(START, 'ok').addEdge(START, 'bad').addEdge('ok', END).addEdge('bad', END)
    .compile({ checkpointer: new MemorySaver() });

  test(named(impl, 'a step where one of two parallel tasks failed, resumed: the finished task\'s write is kept beside the failed one\'s (through the reducer), and it does not run again'), async () => {
    const fail = { now: true };
    const runs = { ok: 0 };
    const graph = failingPair(fail, runs);
    const config = threadOf('kept');
    await assert.rejects(graph.invoke({ log: [] }, config), /boom/);
    fail.now = false;
    // LangGraph's order is bad's write, then the kept ok's: the test holds both to the writes, not the order.
    assert.deepEqual((await graph.invoke(null, config)).log.toSorted(), ['bad', 'ok']);
    assert.equal(runs.ok, 1);
  });

  /** START -> p (asks), q (does not) -> END, in parallel, both writing `log`. */
  const halfPaused = (runs) => new StateGraph(Log())
    .addNode('p', () => ({ log: [`p:${interrupt('p?')}`] })).addNode('q', () => { runs.q++; return { log: ['q'] }; })
    .addEdge(START, 'p').addEdge(START, 'q').addEdge('p', END).addEdge('q', END)
    .compile({ checkpointer: new MemorySaver() });

  test(named(impl, 'a step where one of two parallel tasks paused, resumed: both writes are in the state (through the reducer), and the finished task does not run again'), async () => {
    const runs = { q: 0 };
    const graph = halfPaused(runs);
    const config = threadOf('half-resumed');
    await graph.invoke({ log: [] }, config);
    // Both writes; LangGraph.js writes the resumed task's first, edgegraph the kept one's (migrating-from-langgraph.md).
    assert.deepEqual((await graph.invoke(new Command({ resume: 'v' }), config)).log.toSorted(), ['p:v', 'q']);
    assert.equal(runs.q, 1);
  });

  test(named(impl, 'a replay of an interruptAfter pause runs the next node again, and the first run\'s checkpoints stay as they were'), async () => {
    let bRuns = 0;
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('b', () => { bRuns++; return { log: ['b'] }; })
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END)
      .compile({ checkpointer: new MemorySaver(), interruptAfter: ['a'] });
    const config = threadOf('replay');
    await graph.invoke({ log: [] }, config);
    const paused = (await graph.getState(config)).config;
    assert.deepEqual(await graph.invoke(null, config), { log: ['a', 'b'] });
    const before = await historyOf(graph, config);
    assert.deepEqual(await graph.invoke(null, paused), { log: ['a', 'b'] });
    assert.equal(bRuns, 2);
    const after = await historyOf(graph, config);
    // The replay adds its own checkpoints (a fork of the pause): the first run's are unchanged below them.
    assert.deepEqual(after.slice(-before.length), before);
    assert.equal(after.length, before.length + 2);
    assert.deepEqual(after[0], [3, [], ['a', 'b']]);
  });

  test(named(impl, 'replays of a paused step and of a failed step, and interruptAfter on the last node: the history keeps one checkpoint a step'), async () => {
    let asked = 0;
    const paused = askGraph({ ask: () => { asked++; return { log: [`ask:${interrupt('q?')}`] }; } });
    const config = threadOf('replays');
    await paused.invoke({ log: [] }, config);
    const pausedConfig = (await paused.getState(config)).config;
    await paused.invoke(new Command({ resume: 'x' }), config);
    // The replay asks again (the answer given to the first run is not replayed): a new paused checkpoint on top.
    const replayed = await paused.invoke(null, pausedConfig);
    assert.deepEqual([replayed.log, interruptsOf(replayed), asked], [['a'], ['q?'], 3]);
    assert.deepEqual(await historyOf(paused, config),
      [[2, ['ask'], ['a']], [2, [], ['a', 'ask:x']], [1, ['ask'], ['a']], [0, ['a'], []], [-1, ['__start__'], []]]);

    let fail = true;
    const failing = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('b', () => { if (fail) throw new Error('boom'); return { log: ['b'] }; })
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END)
      .compile({ checkpointer: new MemorySaver() });
    const other = threadOf('failed-replay');
    await assert.rejects(failing.invoke({ log: [] }, other), /boom/);
    const failedConfig = (await failing.getState(other)).config;
    fail = false;
    assert.deepEqual(await failing.invoke(null, other), { log: ['a', 'b'] });
    assert.deepEqual(await failing.invoke(null, failedConfig), { log: ['a', 'b'] });
    assert.deepEqual(await historyOf(failing, other),
      [[3, [], ['a', 'b']], [2, ['b'], ['a']], [2, [], ['a', 'b']], [1, ['b'], ['a']], [0, ['a'], []], [-1, ['__start__'], []]]);

    const last = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('b', () => ({ log: ['b'] }))
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END)
      .compile({ checkpointer: new MemorySaver(), interruptAfter: ['b'] });
    const third = threadOf('after-last');
    assert.deepEqual(await last.invoke({ log: [] }, third), { log: ['a', 'b'], __interrupt__: [] });
    assert.deepEqual((await last.getState(third)).next, []);
    assert.deepEqual(await last.invoke(null, third), { log: ['a', 'b'] });
    assert.deepEqual(await historyOf(last, third), [[2, [], ['a', 'b']], [1, ['b'], ['a']], [0, ['a'], []], [-1, ['__start__'], []]]);
  });

  test(named(impl, 'tasks mode: a task that paused ends with a result chunk listing its interrupts, on the first run and on a resume that pauses again'), async () => {
    const graph = askGraph({ ask: () => ({ log: [`${interrupt('1?')},${interrupt('2?')}`] }) });
    const config = threadOf('tasks');
    /** [name, 'start' or 'result', interrupts' values] of each tasks chunk. */
    const tasksOf = async (input) => (await collect(graph.stream(input, { ...config, streamMode: 'tasks' })))
      .map((c) => [c.name, 'result' in c ? 'result' : 'start', c.interrupts.map((i) => i.value)]);
    assert.deepEqual(await tasksOf({ log: [] }), [['a', 'start', []], ['a', 'result', []], ['ask', 'start', []], ['ask', 'result', ['1?']]]);
    assert.deepEqual(await tasksOf(new Command({ resume: 'x' })), [['ask', 'start', []], ['ask', 'result', ['2?']]]);
    assert.deepEqual(await tasksOf(new Command({ resume: 'y' })), [['ask', 'start', []], ['ask', 'result', []]]);
  });

  test(named(impl, 'values and updates on a resume of a fork: the fork\'s values first, then each step'), async () => {
    const graph = askThenZ();
    const config = threadOf('modes');
    await graph.invoke({ log: [] }, config);
    const fork = await graph.updateState(await configAt(graph, config, 'ask'), { log: ['f'] });
    assert.deepEqual(await collect(graph.stream(new Command({ resume: 'v' }), { ...fork, streamMode: ['values', 'updates'] })), [
      ['values', { log: ['a', 'f'] }],
      ['updates', { ask: { log: ['ask:v'] } }],
      ['values', { log: ['a', 'f', 'ask:v'] }],
      ['updates', { z: { log: ['z'] } }],
      ['values', { log: ['a', 'f', 'ask:v', 'z'] }],
    ]);
  });

  test(named(impl, 'a node with a retryPolicy that took a fork\'s resume and then throws: each retry takes the answer again, and the side effect after it runs once'), async () => {
    let calls = 0;
    let sent = 0;
    const graph = askGraph({
      ask: () => { calls++; const answer = interrupt('q?'); if (calls < 3) throw new Error('flaky'); sent++; return { log: [`ask:${answer}`] }; },
      askOptions: { retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false, logWarning: false, retryOn: () => true } },
    });
    const config = threadOf('retry');
    await graph.invoke({ log: [] }, config);
    const fork = await graph.updateState(await configAt(graph, config, 'ask'), { log: ['f'] });
    assert.deepEqual(await graph.invoke(new Command({ resume: 'v' }), fork), { log: ['a', 'f', 'ask:v'] });
    assert.deepEqual([calls, sent], [3, 1]);
  });

  test(named(impl, 'getStateHistory after two pauses in one step: filter (step, source), before and limit together see one checkpoint for it'), async () => {
    const twice = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('ask', () => ({ log: [`${interrupt('1?')},${interrupt('2?')}`] })).addNode('z', () => ({ log: ['z'] }))
      .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', 'z').addEdge('z', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('pages');
    await twice.invoke({ log: [] }, config);
    await twice.invoke(new Command({ resume: 'x' }), config);
    assert.deepEqual(await twice.invoke(new Command({ resume: 'y' }), config), { log: ['a', 'x,y', 'z'] });
    const newest = await collect(twice.getStateHistory(config));
    assert.deepEqual(await historyOf(twice, config, { filter: { step: 1 } }), [[1, ['ask'], ['a']]]);
    assert.deepEqual(await historyOf(twice, config, { filter: { source: 'loop' }, before: newest[1].config, limit: 2 }), [[1, ['ask'], ['a']], [0, ['a'], []]]);
    assert.deepEqual(await historyOf(twice, config, { filter: { step: 1, source: 'loop' } }), [[1, ['ask'], ['a']]]);
  });

  test(named(impl, 'a node with a cachePolicy that asked and was answered: its result is cached, and another thread\'s call of it neither asks nor runs'), async () => {
    let calls = 0;
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] }))
      .addNode('ask', () => { calls++; return { log: [`ask:${interrupt('q?')}`] }; }, { cachePolicy: { ttl: 100 } })
      .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver(), cache: impl.name === 'langgraph' ? new LangGraphCache() : new impl.InMemoryCache() });
    await graph.invoke({ log: [] }, threadOf('c1'));
    assert.deepEqual(await graph.invoke(new Command({ resume: 'x' }), threadOf('c1')), { log: ['a', 'ask:x'] });
    assert.deepEqual(await graph.invoke({ log: [] }, threadOf('c2')), { log: ['a', 'ask:x'] });
    assert.equal(calls, 2);
  });

  test(named(impl, 'getState with the config of a paused step, after the thread went on: that step, its interrupt listed'), async () => {
    const graph = askGraph();
    const config = threadOf('old');
    await graph.invoke({ log: [] }, config);
    const pausedConfig = (await graph.getState(config)).config;
    await graph.invoke(new Command({ resume: 'x' }), config);
    const ids = (await collect(graph.getStateHistory(config))).map((s) => s.config.configurable.checkpoint_id);
    assert.ok(ids.includes(pausedConfig.configurable.checkpoint_id));
    const old = await graph.getState(pausedConfig);
    assert.deepEqual([old.values.log, old.next, old.tasks.map((t) => t.interrupts.map((i) => i.value))], [['a'], ['ask'], [['q?']]]);
  });

  test(named(impl, 'interruptAfter a router with a path map, and updateState as that router: next is where the router goes'), async () => {
    const routed = (options) => new StateGraph(Log())
      .addNode('r', () => ({ log: ['r'] })).addNode('x', () => ({ log: ['x'] })).addNode('y', () => ({ log: ['y'] }))
      .addEdge(START, 'r').addConditionalEdges('r', (s) => (s.log.includes('Y') ? 'goY' : 'goX'), { goX: 'x', goY: 'y' })
      .addEdge('x', END).addEdge('y', END)
      .compile({ checkpointer: new MemorySaver(), ...options });
    const after = routed({ interruptAfter: ['r'] });
    const config = threadOf('after');
    await after.invoke({ log: [] }, config);
    const paused = await after.getState(config);
    assert.deepEqual([paused.values.log, paused.next, paused.tasks.map((t) => t.name)], [['r'], ['x'], ['x']]);
    assert.deepEqual(await after.invoke(null, config), { log: ['r', 'x'] });
    assert.deepEqual(await historyOf(after, config), [[2, [], ['r', 'x']], [1, ['x'], ['r']], [0, ['r'], []], [-1, ['__start__'], []]]);

    const updated = routed();
    const other = threadOf('asNode');
    assert.deepEqual(await updated.invoke({ log: [] }, other), { log: ['r', 'x'] });
    await updated.updateState(other, { log: ['Y'] }, 'r');
    assert.deepEqual((await updated.getState(other)).next, ['y']);
    assert.deepEqual(await updated.invoke(null, other), { log: ['r', 'x', 'Y', 'y'] });
  });

  test(named(impl, 'interruptAfter an agent whose router goes to END (a reply without tool calls): next is [] at the pause, and invoke(null) ends the thread without running tools'), async () => {
    const graph = new StateGraph(Log())
      .addNode('agent', () => ({ log: ['agent'] })).addNode('tools', () => ({ log: ['tools'] }))
      .addEdge(START, 'agent').addConditionalEdges('agent', (s) => (s.log.includes('call') ? 'tools' : END), ['tools', END])
      .addEdge('tools', 'agent')
      .compile({ checkpointer: new MemorySaver(), interruptAfter: ['agent'] });
    const config = threadOf('agent-end');
    await graph.invoke({ log: [] }, config);
    const paused = await graph.getState(config);
    assert.deepEqual([paused.values.log, paused.next], [['agent'], []]);
    assert.deepEqual(await graph.invoke(null, config), { log: ['agent'] });
    assert.deepEqual((await graph.getState(config)).next, []);
  });

  test(named(impl, 'one pause a step boundary: a resume from interruptAfter, or from updateState as a node, runs the next node even when interruptBefore names it; a later boundary pauses again'), async () => {
    const abc = (options) => new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('b', () => ({ log: ['b'] })).addNode('c', () => ({ log: ['c'] }))
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', 'c').addEdge('c', END)
      .compile({ checkpointer: new MemorySaver(), ...options });
    const walk = async (graph, config, input, calls) => {
      const seen = [];
      for (let i = 0; i < calls; i++) seen.push(`${(await graph.invoke(i ? null : input, config)).log}|${(await graph.getState(config)).next}`);
      return seen;
    };
    assert.deepEqual(await walk(abc({ interruptAfter: ['a', 'b'], interruptBefore: ['b', 'c'] }), threadOf('after-before'), { log: [] }, 3),
      ['a|b', 'a,b|c', 'a,b,c|']);
    const edited = abc({ interruptBefore: ['b'] });
    const config = threadOf('as-node');
    await edited.invoke({ log: [] }, config);
    await edited.updateState(config, { log: ['edit'] }, 'a');
    assert.deepEqual([(await edited.getState(config)).next, (await edited.invoke(null, config)).log], [['b'], ['a', 'edit', 'b', 'c']]);
    const finished = abc({ interruptBefore: ['c'] });
    const done = threadOf('finished');
    await finished.invoke({ log: [] }, done);
    await finished.invoke(null, done);
    await finished.updateState(done, { log: ['edit'] }, 'b');
    assert.deepEqual((await finished.invoke(null, done)).log, ['a', 'b', 'c', 'edit', 'c']);
  });

  test(named(impl, 'LangGraph\'s review-tool-calls flow (interruptBefore tools): an edited call written as agent runs once with its edit on invoke(null); a rejection written as tools goes to the agent'), async () => {
    const { MessagesAnnotation } = impl;
    const ran = [];
    const model = (messages) => (messages.at(-1).tool_call_id
      ? { role: 'assistant', content: `done: ${messages.at(-1).content}`, id: `ai${messages.length}` }
      : { role: 'assistant', content: '', id: `ai${messages.length}`, tool_calls: [{ id: `c${messages.length}`, name: 'weather', args: { city: 'sf' } }] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', (s) => ({ messages: [model(s.messages.map((m) => ({ tool_call_id: m.tool_call_id, content: m.content })))] }))
      .addNode('tools', (s) => {
        const call = s.messages.at(-1).tool_calls[0];
        ran.push(call.args.city);
        return { messages: [{ role: 'tool', tool_call_id: call.id, content: `sunny in ${call.args.city}` }] };
      })
      .addEdge(START, 'agent').addConditionalEdges('agent', (s) => (s.messages.at(-1).tool_calls?.length ? 'tools' : END), ['tools', END])
      .addEdge('tools', 'agent')
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['tools'] });
    const edit = threadOf('edit');
    await graph.invoke({ messages: [{ role: 'user', content: 'weather?' }] }, edit);
    const asked = (await graph.getState(edit)).values.messages.at(-1);
    const call = asked.tool_calls[0];
    await graph.updateState(edit, { messages: [{ role: 'assistant', content: '', id: asked.id, tool_calls: [{ ...call, args: { city: 'la' } }] }] }, 'agent');
    assert.deepEqual((await graph.getState(edit)).next, ['tools']);
    assert.deepEqual([(await graph.invoke(null, edit)).messages.at(-1).content, ran], ['done: sunny in la', ['la']]);
    const reject = threadOf('reject');
    await graph.invoke({ messages: [{ role: 'user', content: 'again?' }] }, reject);
    const pending = (await graph.getState(reject)).values.messages.at(-1).tool_calls[0];
    await graph.updateState(reject, { messages: [{ role: 'tool', tool_call_id: pending.id, content: 'rejected by the user' }] }, 'tools');
    assert.deepEqual((await graph.getState(reject)).next, ['agent']);
    assert.deepEqual([(await graph.invoke(null, reject)).messages.at(-1).content, ran], ['done: rejected by the user', ['la']]);
  });
}

test('edgegraph: a node paused at its second interrupt() after its first was answered: getState\'s next still names it, beside its interrupt (LangGraph.js shows next [] while the task waits, its interrupt listed)', async () => {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = implementations.find((i) => i.name === 'edgegraph');
  const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
    .addNode('a', () => ({ log: ['a'] }))
    .addNode('ask', () => ({ log: [`${interrupt('1?')},${interrupt('2?')}`] }))
    .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'twice' } };
  await graph.invoke({ log: [] }, config);
  assert.deepEqual((await graph.invoke(new Command({ resume: 'x' }), config)).__interrupt__.map((i) => i.value), ['2?']);
  const state = await graph.getState(config);
  assert.deepEqual([state.next, state.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value)])], [['ask'], [['ask', ['2?']]]]);
  assert.deepEqual(await graph.invoke(new Command({ resume: 'y' }), config), { log: ['a', 'x,y'] });
  // One checkpoint for the step, as LangGraph's: its two pauses and the resumes' records are one.
  assert.deepEqual((await collect(graph.getStateHistory(config))).map((s) => [s.metadata.step, s.next, s.values.log]),
    [[2, [], ['a', 'x,y']], [1, ['ask'], ['a']], [0, ['a'], []], [-1, ['__start__'], []]]);
});

test('edgegraph: a Command with goto and the answer to a pending interrupt() is refused (INVALID_RUN_STATE naming the node; LangGraph.js runs the goto beside the node it re-runs): the thread stays paused, and the answer alone goes on', async () => {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = await import('edgegraph/langgraph');
  const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
    .addNode('a', () => ({ log: ['a'] }), { ends: ['d'] }).addNode('b', () => ({ log: [`b:${interrupt('?')}`] }))
    .addNode('c', () => ({ log: ['c'] })).addNode('d', () => ({ log: ['d'] }))
    .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', 'c').addEdge('c', END).addEdge('d', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = threadOf('goto-with-answer');
  await graph.invoke({ log: [] }, config);
  await assert.rejects(graph.invoke(new Command({ resume: 'y', goto: 'd' }), config), (e) => e.code === 'INVALID_RUN_STATE' && /node 'b'/.test(e.message));
  assert.deepEqual((await graph.getState(config)).next, ['b']);
  assert.deepEqual(await graph.invoke(new Command({ resume: 'y' }), config), { log: ['a', 'b:y', 'c'] });
});

test('edgegraph: a node with an unconditional edge to itself is refused by compile() (STATIC_SELF_LOOP naming it; LangGraph.js compiles it, and each run ends in GraphRecursionError)', async () => {
  const { StateGraph, Annotation, START } = await import('edgegraph/langgraph');
  const looped = new StateGraph(Annotation.Root({ log: Annotation() })).addNode('a', () => ({})).addEdge(START, 'a').addEdge('a', 'a');
  assert.throws(() => looped.compile(), (e) => e.code === 'STATIC_SELF_LOOP' && /node 'a'/.test(e.message));
});

test('edgegraph: updateState as the node whose interrupt() is pending is refused (INVALID_RUN_STATE naming the node; LangGraph.js takes the values as its write and goes on): the thread stays paused, its question pending', async () => {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt } = await import('edgegraph/langgraph');
  const graph = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
    .addNode('a', () => ({ log: ['a'] })).addNode('ask', () => ({ log: [`ask:${interrupt('q?')}`] })).addNode('z', () => ({ log: ['z'] }))
    .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', 'z').addEdge('z', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = threadOf('as-paused');
  await graph.invoke({ log: [] }, config);
  await assert.rejects(graph.updateState(config, { log: ['manual'] }, 'ask'), (e) => e.code === 'INVALID_RUN_STATE' && /'ask'/.test(e.message));
  const state = await graph.getState(config);
  assert.deepEqual([state.next, state.tasks.map((t) => t.interrupts.map((i) => i.value))], [['ask'], [['q?']]]);
  assert.deepEqual(await graph.invoke(new Command({ resume: 'v' }), config), { log: ['a', 'ask:v', 'z'] });
});
