// getStateHistory and streamMode 'checkpoints' held to LangGraph's: one checkpoint a step where one of
// two parallel tasks paused or failed (with the finished task's write in it), updateState's checkpoints
// with metadata source 'update', and checkpoints chunks that are the history's snapshots. The first
// five tests come from review2 (branch review2-open-cases), the others from this branch (history-marks):
// each program was run on @langchain/langgraph first, and its behaviour is what both implementations are held to.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { implementations, collect, named } from './support/impls.js';

const threadOf = (id) => ({ configurable: { thread_id: id } });
const interruptsOf = (result) => result.__interrupt__?.map((i) => i.value);

for (const impl of implementations) {
  const { StateGraph, Annotation, START, END, MemorySaver, Command, interrupt, MessagesAnnotation } = impl;
  const Log = () => Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  /** The thread's checkpoints (getStateHistory's snapshots), newest first. */
  const snapshots = (graph, config, options) => collect(graph.getStateHistory(config, options));
  /** Each of them as [step, next, values.log]. */
  const historyOf = async (graph, config, options) => (await snapshots(graph, config, options)).map((s) => [s.metadata.step, s.next, s.values.log]);
  /** The config of the newest whose next is `next`. */
  const configAt = async (graph, config, next) => (await snapshots(graph, config)).find((s) => s.next.join() === next).config;

  /** a -> ask -> END, `ask` asking once; with `thenZ`, ask -> z -> END. */
  const askGraph = (thenZ = false) => {
    const builder = new StateGraph(Log()).addNode('a', () => ({ log: ['a'] })).addNode('ask', () => ({ log: [`ask:${interrupt('q?')}`] }));
    builder.addEdge(START, 'a').addEdge('a', 'ask');
    if (thenZ) builder.addNode('z', () => ({ log: ['z'] })).addEdge('ask', 'z').addEdge('z', END);
    else builder.addEdge('ask', END);
    return builder.compile({ checkpointer: new MemorySaver() });
  };

  /** START -> ok, bad (in parallel) -> END, both writing `log` (a reducer); bad throws while `fail.now`. */
  const failingPair = (fail, runs) => new StateGraph(Log())
    .addNode('ok', () => { runs.ok++; return { log: ['ok'] }; })
    .addNode('bad', () => { if (fail.now) throw new Error('boom'); return { log: ['bad'] }; })
    .addEdge(START, 'ok').addEdge(START, 'bad').addEdge('ok', END).addEdge('bad', END)
    .compile({ checkpointer: new MemorySaver() });

  test(named(impl, 'a step where one of two parallel tasks failed: getState shows the other\'s write and the failed task\'s error, and the history one checkpoint for the step'), async () => {
    const fail = { now: true };
    const graph = failingPair(fail, { ok: 0 });
    const config = threadOf('failed');
    await assert.rejects(graph.invoke({ log: [] }, config), /boom/);
    const state = await graph.getState(config);
    assert.deepEqual([state.values.log, state.next], [['ok'], ['bad']]);
    assert.equal(state.tasks.find((t) => t.name === 'bad').error.message, 'boom');
    assert.deepEqual(await historyOf(graph, config), [[0, ['ok', 'bad'], []], [-1, ['__start__'], []]]);
    fail.now = false;
    const resumed = await graph.invoke(null, config);
    assert.deepEqual(await historyOf(graph, config), [[1, [], resumed.log], [0, ['ok', 'bad'], []], [-1, ['__start__'], []]]);
  });

  /** START -> p (asks), q (does not) -> END, in parallel, both writing `log`. */
  const halfPaused = (runs) => new StateGraph(Log())
    .addNode('p', () => ({ log: [`p:${interrupt('p?')}`] })).addNode('q', () => { runs.q++; return { log: ['q'] }; })
    .addEdge(START, 'p').addEdge(START, 'q').addEdge('p', END).addEdge('q', END)
    .compile({ checkpointer: new MemorySaver() });

  test(named(impl, 'a step where one of two parallel tasks paused: the other\'s write shows in the result and getState, and the history has one checkpoint for the step'), async () => {
    const graph = halfPaused({ q: 0 });
    const config = threadOf('half-paused');
    const paused = await graph.invoke({ log: [] }, config);
    assert.deepEqual([paused.log, interruptsOf(paused)], [['q'], ['p?']]);
    const state = await graph.getState(config);
    assert.deepEqual([state.values.log, state.next], [['q'], ['p']]);
    assert.deepEqual(await historyOf(graph, config), [[0, ['p', 'q'], []], [-1, ['__start__'], []]]);
    const resumed = await graph.invoke(new Command({ resume: 'v' }), config);
    assert.deepEqual(await historyOf(graph, config), [[1, [], resumed.log], [0, ['p', 'q'], []], [-1, ['__start__'], []]]);
  });

  test(named(impl, 'updateState\'s checkpoints have metadata source \'update\': a fork of a fork resumes, and getStateHistory\'s filter, before and limit find them'), async () => {
    const graph = askGraph();
    const config = threadOf('forks');
    await graph.invoke({ log: [] }, config);
    const first = await graph.updateState(await configAt(graph, config, 'ask'), { log: ['f1'] });
    const second = await graph.updateState(first, { log: ['f2'] });
    assert.deepEqual(await graph.invoke(new Command({ resume: 'v' }), second), { log: ['a', 'f1', 'f2', 'ask:v'] });
    const sources = (await snapshots(graph, config)).map((s) => [s.metadata.step, s.metadata.source]);
    assert.deepEqual(sources, [[4, 'loop'], [3, 'update'], [2, 'update'], [1, 'loop'], [0, 'loop'], [-1, 'input']]);
    assert.deepEqual(await historyOf(graph, config, { filter: { source: 'update' }, limit: 1 }), [[3, ['ask'], ['a', 'f1', 'f2']]]);
    assert.deepEqual(await historyOf(graph, config, { before: second, limit: 2 }), [[2, ['ask'], ['a', 'f1']], [1, ['ask'], ['a']]]);
  });

  test(named(impl, 'checkpoints mode on a resume: the checkpoint it resumes from, then each new one, with getStateHistory\'s steps'), async () => {
    const graph = askGraph();
    const config = threadOf('stream');
    await graph.invoke({ log: [] }, config);
    const chunks = await collect(graph.stream(new Command({ resume: 'v' }), { ...config, streamMode: 'checkpoints' }));
    assert.deepEqual(chunks.map((c) => [c.metadata.step, c.next, c.values.log]), [[1, ['ask'], ['a']], [2, [], ['a', 'ask:v']]]);
  });

  test(named(impl, 'checkpoints mode on a run that pauses and on its resume: each chunk is a checkpoint of getStateHistory, with its step and parentConfig'), async () => {
    const graph = askGraph(true);
    const config = threadOf('chunks');
    const chunks = [
      ...await collect(graph.stream({ log: [] }, { ...config, streamMode: 'checkpoints' })),
      ...await collect(graph.stream(new Command({ resume: 'x' }), { ...config, streamMode: 'checkpoints' })),
    ];
    const byId = new Map((await snapshots(graph, config)).map((s) => [s.config.configurable.checkpoint_id, s]));
    const idOf = (c) => c?.configurable.checkpoint_id;
    assert.deepEqual(chunks.map((c) => [byId.has(idOf(c.config)), c.metadata.step, idOf(c.parentConfig)]),
      chunks.map((c) => [true, byId.get(idOf(c.config))?.metadata.step, idOf(byId.get(idOf(c.config))?.parentConfig)]));
  });

  // Not review2's: the parallel steps above in checkpoints mode (LangGraph's run is the reference).
  test(named(impl, 'checkpoints mode on a parallel step whose tasks both finish, and on one where a task failed and on its resume: the chunks are getStateHistory\'s checkpoints, oldest first, with its steps and parentConfig'), async () => {
    const fail = { now: false };
    const graph = failingPair(fail, { ok: 0 });
    const idOf = (c) => c?.configurable.checkpoint_id;
    /** A stream's checkpoints chunks as [id, step, parent id], and the error it ended with. */
    const chunksOf = async (input, config) => {
      const out = [];
      try {
        for await (const c of await graph.stream(input, { ...config, streamMode: 'checkpoints' })) out.push([idOf(c.config), c.metadata.step, idOf(c.parentConfig)]);
      } catch (e) { out.push(e.message); }
      return out;
    };
    /** The thread's history, oldest first, as [id, step, parent id]. */
    const shown = async (config) => (await snapshots(graph, config)).reverse().map((s) => [idOf(s.config), s.metadata.step, idOf(s.parentConfig)]);
    const both = threadOf('both-finish');
    const chunks = await chunksOf({ log: [] }, both);
    assert.deepEqual([chunks, chunks.length], [await shown(both), 3]);
    fail.now = true;
    const failed = threadOf('one-failed');
    const first = await chunksOf({ log: [] }, failed);
    fail.now = false;
    const resumed = await chunksOf(null, failed);
    const [input, step, end] = await shown(failed);
    assert.deepEqual([first, resumed], [[input, step, 'boom'], [step, end]]);
  });

  test(named(impl, 'a parallel step whose tasks both finish, each with a router: the history has one checkpoint for it, none while its tasks or routers ran'), async () => {
    const graph = new StateGraph(Log())
      .addNode('p', () => ({ log: ['p'] })).addNode('q', () => ({ log: ['q'] })).addNode('z', () => ({ log: ['z'] }))
      .addEdge(START, 'p').addEdge(START, 'q').addConditionalEdges('p', () => 'z').addConditionalEdges('q', () => 'z').addEdge('z', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('routers');
    assert.deepEqual(await graph.invoke({ log: [] }, config), { log: ['p', 'q', 'z'] });
    assert.deepEqual(await historyOf(graph, config), [[2, [], ['p', 'q', 'z']], [1, ['z'], ['p', 'q']], [0, ['p', 'q'], []], [-1, ['__start__'], []]]);
  });

  test(named(impl, 'checkpoints mode at breakpoints: a pause before a node sends its checkpoint, and its resume again; a pause after one sends it on the resume only'), async () => {
    const stepsOf = async (graph, input, config) => (await collect(graph.stream(input, { ...config, streamMode: 'checkpoints' }))).map((c) => [c.metadata.step, c.next]);
    for (const [breakpoint, first] of [['interruptBefore', [[-1, ['__start__']], [0, ['a']], [1, ['b']]]], ['interruptAfter', [[-1, ['__start__']], [0, ['a']]]]]) {
      const graph = new StateGraph(Log())
        .addNode('a', () => ({ log: ['a'] })).addNode('b', () => ({ log: ['b'] }))
        .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', END)
        .compile({ checkpointer: new MemorySaver(), [breakpoint]: [breakpoint === 'interruptBefore' ? 'b' : 'a'] });
      const config = threadOf(breakpoint);
      assert.deepEqual(await stepsOf(graph, { log: [] }, config), first);
      assert.deepEqual(await stepsOf(graph, null, config), [[1, ['b']], [2, []]]);
    }
  });

  test(named(impl, 'a subgraph node paused beside a task that wrote a reducer channel, a last-value channel and messages: the pause\'s result and getState show those writes, next the subgraph node'), async () => {
    const State = Annotation.Root({ ...Log().spec, last: Annotation(), ...MessagesAnnotation.spec });
    const child = new StateGraph(State).addNode('c', () => ({ log: [`c:${interrupt('c?')}`] })).addEdge(START, 'c').addEdge('c', END).compile();
    const graph = new StateGraph(State)
      .addNode('a', () => ({ log: ['a'], messages: [{ role: 'user', content: 'hi', id: 'm1' }] })).addNode('sub', child)
      .addNode('x', () => ({ log: ['x'], last: 'x', messages: [{ role: 'assistant', content: 'yo', id: 'm2' }, { role: 'user', content: 'hi!', id: 'm1' }] }))
      .addEdge(START, 'a').addEdge('a', 'sub').addEdge('a', 'x').addEdge('sub', END).addEdge('x', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('sub-beside');
    const shown = (values) => [values.log, values.last, values.messages.map((m) => [m.id, m.content])];
    const kept = [['a', 'x'], 'x', [['m1', 'hi!'], ['m2', 'yo']]];
    const paused = await graph.invoke({ log: [] }, config);
    assert.deepEqual([...shown(paused), interruptsOf(paused)], [...kept, ['c?']]);
    const state = await graph.getState(config);
    assert.deepEqual([...shown(state.values), state.next], [...kept, ['sub']]);
    // The history's checkpoint for the step has the values before it, as LangGraph's.
    const [step] = await snapshots(graph, config);
    assert.deepEqual([step.values.log, step.next.toSorted()], [['a'], ['sub', 'x']]);
  });

  test(named(impl, 'values mode on a parallel step where a task paused, or failed: no chunk for the stopped step; a pause ends with the values and the other task\'s write'), async () => {
    /** A values stream's chunks (an interrupt chunk as its values), and the error it ended with. */
    const valuesOf = async (graph, config) => {
      const out = [];
      try {
        for await (const c of await graph.stream({ log: [] }, { ...config, streamMode: 'values' })) out.push(c.__interrupt__ ? c.__interrupt__.map((i) => i.value) : c);
      } catch (e) { out.push(e.message); }
      return out;
    };
    assert.deepEqual(await valuesOf(halfPaused({ q: 0 }), threadOf('values-paused')), [{ log: [] }, ['p?'], { log: ['q'] }]);
    assert.deepEqual(await valuesOf(failingPair({ now: true }, { ok: 0 }), threadOf('values-failed')), [{ log: [] }, 'boom']);
    // One task that pauses: the pause ends the stream.
    assert.deepEqual(await valuesOf(askGraph(), threadOf('values-ask')), [{ log: [] }, { log: ['a'] }, ['q?']]);
  });

  test(named(impl, 'checkpoints mode on invoke(null) of a finished thread: its last checkpoint, once'), async () => {
    const graph = askGraph();
    const config = threadOf('finished');
    await graph.invoke({ log: [] }, config);
    await graph.invoke(new Command({ resume: 'v' }), config);
    const chunks = await collect(graph.stream(null, { ...config, streamMode: 'checkpoints' }));
    const [last] = await snapshots(graph, config);
    assert.deepEqual(chunks.map((c) => [c.config.configurable.checkpoint_id, c.metadata.step, c.next]), [[last.config.configurable.checkpoint_id, 2, []]]);
  });

  test(named(impl, 'checkpoints mode on a replay and on a resume of an updateState fork: the fork\'s checkpoints (source fork, update), not the ones they start from, with getStateHistory\'s steps'), async () => {
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] })).addNode('b', () => ({ log: ['b'] })).addNode('ask', () => ({ log: [`ask:${interrupt('q?')}`] }))
      .addEdge(START, 'a').addEdge('a', 'b').addEdge('b', 'ask').addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = threadOf('replays');
    await graph.invoke({ log: [] }, config);
    const chunksOf = async (input, from) => (await collect(graph.stream(input, { ...from, streamMode: 'checkpoints' }))).map((c) => [c.config.configurable.checkpoint_id, c.metadata.step, c.metadata.source, c.next]);
    const replayed = await chunksOf(null, await configAt(graph, config, 'b'));
    const forked = await chunksOf(new Command({ resume: 'v' }), await graph.updateState(await configAt(graph, config, 'ask'), { log: ['f'] }));
    const byId = new Map((await snapshots(graph, config)).map((s) => [s.config.configurable.checkpoint_id, [s.config.configurable.checkpoint_id, s.metadata.step, s.metadata.source, s.next]]));
    assert.deepEqual([replayed, forked], [replayed, forked].map((chunks) => chunks.map(([id]) => byId.get(id))));
    assert.deepEqual([replayed, forked].map((chunks) => chunks.map(([, step, source]) => [step, source])), [[[2, 'fork'], [3, 'loop']], [[4, 'update'], [5, 'loop']]]);
  });

  test(named(impl, 'getStateHistory shows a paused step\'s interrupts and a failed step\'s error in its tasks, as getState does, after the thread ran on too'), async () => {
    const graph = new StateGraph(Log())
      .addNode('a', () => ({ log: ['a'] }))
      .addNode('ask', () => ({ log: [`ask:${interrupt('q?')}`] }))
      .addNode('boom', () => { throw new Error('boom'); })
      .addEdge(START, 'a').addEdge('a', 'ask').addEdge('ask', 'boom').addEdge('boom', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'stops' } };
    /** Each checkpoint's tasks, newest first, as [step, name, its interrupts' values, its error's message]. */
    const tasksOf = async () => (await snapshots(graph, config)).flatMap((s) => s.tasks.map((t) => [s.metadata.step, t.name, t.interrupts.map((i) => i.value), t.error?.message ?? null]));
    await graph.invoke({ log: [] }, config);
    assert.deepEqual((await tasksOf())[0], [1, 'ask', ['q?'], null]);
    assert.deepEqual((await graph.getState(config)).tasks.map((t) => t.interrupts.map((i) => i.value)), [['q?']]);
    await assert.rejects(graph.invoke(new Command({ resume: 'v' }), config), /boom/);
    assert.deepEqual(await tasksOf(), [[2, 'boom', [], 'boom'], [1, 'ask', ['q?'], null], [0, 'a', [], null], [-1, '__start__', [], null]]);
  });
}
