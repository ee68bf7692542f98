// GraphEngine behaviour: the seed API, the seed's defects fixed, events,
// abort, bad input, secrets. Runs on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, GraphBuilder, createEndNode, EdgegraphError, memoryUsage } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const chain = (nodes) => ({
  nodes,
  edges: Object.fromEntries(Object.keys(nodes).map((n, i, all) => [n, all[i + 1] ?? '__end__'])),
  entryPoint: Object.keys(nodes)[0],
});

test('the seed example runs as written: { default: "end" } to an END node', async (t) => {
  let endRan = false;
  const end = createEndNode();
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { start: () => ({ messages: [{ role: 'assistant', content: 'Hi' }] }), end },
    edges: { start: { default: 'end' } },
    entryPoint: 'start',
  }));
  const result = await engine.execute({ messages: [{ role: 'user', content: 'Hello!' }], data: {}, metadata: {} });
  assert.equal(result.status, 'FINISHED');
  assert.equal(result.finalState, result.state);
  assert.deepEqual(result.state.messages.map((m) => m.content), ['Hello!', 'Hi']);
  assert.equal(endRan, false);
  assert.equal(result.checkpoint, undefined);
});

test('a throwing node ends the run in ERROR naming the node; state kept; execute resolves', async (t) => {
  const boom = new TypeError('cannot read the thing');
  const engine = disposeAfter(t, new GraphEngine(chain({
    a: () => ({ data: { a: 1 } }),
    b: () => { throw boom; },
    c: () => ({ data: { c: 1 } }),
  })));
  const result = await engine.execute({});
  assert.equal(result.status, 'ERROR');
  assert.equal(result.error.code, 'NODE_FAILED');
  assert.equal(result.error.node, 'b');
  assert.equal(result.error.cause, boom);
  assert.match(result.error.message, /node 'b' failed: cannot read the thing/);
  assert.deepEqual(result.state.data, { a: 1 });
  assert.deepEqual(result.state.error, { code: 'NODE_FAILED', message: "node 'b' failed: cannot read the thing", node: 'b' });
  assert.equal(typeof result.checkpoint, 'string');
});

test('an async rejection is handled like a throw', async (t) => {
  const engine = disposeAfter(t, new GraphEngine(chain({ a: async () => { throw new Error('later'); } })));
  const result = await engine.execute({});
  assert.equal(result.error.code, 'NODE_FAILED');
  assert.equal(result.error.node, 'a');
});

test('resume adds the user message exactly once (state path and checkpoint path, through JSON)', async (t) => {
  const seen = [];
  const engine = disposeAfter(t, new GraphEngine(chain({
    ask: () => ({ pendingAskUser: { question: 'Name?' }, messages: [{ role: 'assistant', content: 'Name?' }] }),
    greet: (s) => { seen.push(s.messages.length); return { messages: [{ role: 'assistant', content: `Hi ${s.messages.at(-1).content}` }] }; },
  })));
  const paused = await engine.execute({ messages: [{ role: 'user', content: 'start' }] });
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(paused.state.pendingAskUser, { question: 'Name?' });
  const answer = { role: 'user', content: 'Ada' };
  for (const saved of [JSON.parse(JSON.stringify(paused.state)), paused.checkpoint, JSON.parse(paused.checkpoint)]) {
    const done = await engine.resume(saved, answer);
    assert.equal(done.status, 'FINISHED');
    const contents = done.state.messages.map((m) => m.content);
    assert.deepEqual(contents, ['start', 'Name?', 'Ada', 'Hi Ada']);
    assert.equal(contents.filter((c) => c === 'Ada').length, 1);
    assert.equal('pendingAskUser' in done.state, false);
  }
  assert.deepEqual(seen, [3, 3, 3]);
});

test('an unknown edge target fails at construction, naming it', () => {
  assert.throws(() => new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: 'nowhere' }, entryPoint: 'a' }),
    (e) => e instanceof EdgegraphError && e.code === 'UNKNOWN_NODE' && /'nowhere'/.test(e.message));
});

test('every validation defect has its own code', (t) => {
  const f = () => ({});
  const cases = [
    [{ nodes: { a: f }, edges: { a: '__end__' } }, 'MISSING_ENTRY'],
    [{ nodes: { a: f, b: f }, edges: { a: '__end__', b: '__end__' }, entryPoint: 'a' }, 'UNREACHABLE_NODE'],
    [{ nodes: { a: f }, edges: { a: 'a' }, entryPoint: 'a' }, 'STATIC_SELF_LOOP'],
    [{ nodes: { a: f, end: createEndNode() }, edges: { a: 'end', end: 'a' }, entryPoint: 'a' }, 'END_HAS_EDGES'],
    [{ nodes: { a: f, b: f }, edges: { a: 'b' }, entryPoint: 'a' }, 'MISSING_EDGE'],
    [{ nodes: { a: { kind: 'function' } }, edges: { a: '__end__' }, entryPoint: 'a' }, 'UNKNOWN_HANDLER'],
    [{ nodes: { a: f }, edges: { a: { path: 5 } }, entryPoint: 'a' }, 'INVALID_DEFINITION'],
    [{ nodes: [], entryPoint: 'a' }, 'INVALID_DEFINITION'],
  ];
  for (const [def, code] of cases) {
    assert.throws(() => new GraphEngine(def), (e) => e.code === code, code);
  }
  // The core is still usable after all those errors.
  assert.ok(disposeAfter(t, new GraphEngine(chain({ a: f }))));
});

test('routers may be async and may fan out; a router choosing an unknown node is a clear error', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: () => ({}), b: () => ({ logs: ['b'] }), c: () => ({ logs: ['c'] }) },
    edges: { a: async () => ['b', 'c'], b: '__end__', c: '__end__' },
    entryPoint: 'a',
  }));
  const r = await engine.execute({});
  assert.deepEqual(r.state.logs, ['b', 'c']);
  const bad = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: () => 'x'.repeat(1 << 20) }, entryPoint: 'a' }));
  const e = await bad.execute({});
  assert.equal(e.error.code, 'UNKNOWN_ROUTE_TARGET');
  assert.equal(e.error.node, 'a');
  assert.ok(e.error.message.length < 300, 'a 1 MB name is cut in the message');
});

test('a node returning a non-object is INVALID_RESULT; the instance stays usable', async (t) => {
  for (const value of ['text', 42, [1, 2], null, () => 1]) {
    const engine = disposeAfter(t, new GraphEngine(chain({ a: () => value })));
    const r = await engine.execute({});
    assert.equal(r.status, 'ERROR');
    assert.equal(r.error.code, 'INVALID_RESULT');
    assert.equal(r.error.node, 'a');
  }
  const cyclic = {}; cyclic.self = cyclic;
  const r = await disposeAfter(t, new GraphEngine(chain({ a: () => ({ data: cyclic }) }))).execute({});
  assert.equal(r.error.code, 'INVALID_RESULT');
  assert.match(r.error.message, /a cycle\) at 'data\.self', which JSON cannot write/);
  assert.equal((await disposeAfter(t, new GraphEngine(chain({ a: () => ({}) }))).execute({})).status, 'FINISHED');
});

test('maxSteps ends in MAX_STEPS_EXCEEDED with the partial state; resume continues with a new budget', async (t) => {
  let n = 0;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { work: () => ({ data: { n: ++n } }) },
    edges: { work: { path: 'data.n', cases: { 5: '__end__' }, default: 'work' } },
    entryPoint: 'work',
  }, { maxSteps: 3 }));
  const first = await engine.execute({});
  assert.equal(first.status, 'ERROR');
  assert.equal(first.error.code, 'MAX_STEPS_EXCEEDED');
  assert.equal(first.state.data.n, 3);
  assert.equal(first.state.stepCount, 3);
  const second = await engine.resume(first.checkpoint);
  assert.equal(second.status, 'FINISHED');
  assert.equal(second.state.data.n, 5);
  assert.equal(second.state.stepCount, 5);
});

test('bad initial state and bad checkpoints are typed errors', async (t) => {
  const engine = disposeAfter(t, new GraphEngine(chain({ a: () => ({}) })));
  await assert.rejects(engine.execute([1, 2]), (e) => e.code === 'INVALID_INPUT');
  await assert.rejects(engine.resume('{"format":"edgegraph-checkpoint"'), (e) => e.code === 'INVALID_CHECKPOINT');
  // A graph that lacks the node the run paused on ('x').
  const other = disposeAfter(t, new GraphEngine(chain({ x: () => ({ shouldPause: true }), b: () => ({}) })));
  const paused = await other.execute({});
  await assert.rejects(engine.resume(paused.checkpoint), (e) => e.code === 'CHECKPOINT_GRAPH_MISMATCH' && /'x'/.test(e.message));
  const edited = paused.checkpoint.replace('"stepCount":1', '"stepCount":7');
  assert.notEqual(edited, paused.checkpoint);
  await assert.rejects(other.resume(edited), (e) => e.code === 'INVALID_CHECKPOINT' && /checksum/.test(e.message));
  const done = await other.resume(paused.checkpoint);
  await assert.rejects(other.resume(done.state), (e) => e.code === 'NOT_RESUMABLE');
});

test('events: run, node start/end with durations, state updates, pause; stream() yields the same', async (t) => {
  const engine = disposeAfter(t, new GraphEngine(chain({ a: () => ({ data: { x: 1 } }), b: async () => ({ shouldPause: true }) })));
  const events = [];
  const r = await engine.execute({}, { onEvent: (e) => events.push(e) });
  const types = events.map((e) => e.type + (e.node ? `:${e.node}` : ''));
  assert.deepEqual(types, ['run_start', 'state_update', 'node_start:a', 'node_end:a', 'state_update', 'node_start:b', 'node_end:b', 'state_update', 'pause', 'run_end']);
  assert.ok(events.filter((e) => e.type === 'node_end').every((e) => typeof e.durationMs === 'number' && e.durationMs >= 0));
  assert.equal(events.at(-1).result, r);
  const streamed = [];
  for await (const e of engine.stream({})) streamed.push(e.type);
  assert.deepEqual(streamed, events.map((e) => e.type));
});

test('an AbortSignal interrupts a run; resume re-runs only the unfinished node', async (t) => {
  const calls = [];
  let release;
  const engine = disposeAfter(t, new GraphEngine(chain({
    a: () => { calls.push('a'); return { data: { a: 1 } }; },
    slow: () => { calls.push('slow'); return new Promise((resolve) => { release = resolve; }); },
  })));
  const controller = new AbortController();
  const running = engine.execute({}, { signal: controller.signal, onEvent: (e) => { if (e.type === 'node_start' && e.node === 'slow') queueMicrotask(() => controller.abort()); } });
  const r = await running;
  assert.equal(r.status, 'INTERRUPTED');
  assert.equal(r.error.code, 'ABORTED');
  assert.deepEqual(r.state.data, { a: 1 });
  release({ data: { late: true } }); // a late result is ignored, the run is gone
  const again = engine.resume(r.checkpoint);
  await new Promise((resolve) => setImmediate(resolve));
  release({ data: { slow: 1 } });
  const done = await again;
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.data, { a: 1, slow: 1 });
  assert.deepEqual(calls, ['a', 'slow', 'slow']);
});

test('__proto__, constructor and prototype keys stay data', async (t) => {
  const engine = disposeAfter(t, new GraphEngine(chain({ a: () => JSON.parse('{"data":{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}}') })));
  const r = await engine.execute(JSON.parse('{"__proto__":{"evil":1},"data":{}}'));
  assert.equal(({}).polluted, undefined);
  assert.equal(({}).evil, undefined);
  assert.ok(Object.prototype.hasOwnProperty.call(r.state.data, '__proto__'));
  assert.deepEqual(r.state.data.__proto__, { polluted: true });
  assert.equal(Object.getPrototypeOf(r.state.data), Object.prototype);
});

test('the API key in llmConfig never reaches state, checkpoints, events or errors', async (t) => {
  const key = 'sk-secret-DO-NOT-LEAK-1234567890';
  const engine = disposeAfter(t, new GraphEngine(chain({
    a: (s, eng) => ({ data: { model: eng.llmConfig.model } }),
    b: () => ({ shouldPause: true }),
    c: () => { throw new Error('failed'); },
  }), {}, { model: 'gpt-4o-mini', apiKey: key }));
  const events = [];
  const paused = await engine.execute({}, { onEvent: (e) => events.push(e) });
  const failed = await engine.resume(paused.checkpoint, undefined, { onEvent: (e) => events.push(e) });
  const everything = JSON.stringify([paused.state, paused.checkpoint, failed.state, failed.checkpoint, failed.error.message, events]);
  assert.equal(everything.includes(key), false);
  assert.ok(everything.includes('gpt-4o-mini'));
});

test('GraphBuilder builds a graph the engine runs; toMermaid draws it', async (t) => {
  const def = new GraphBuilder()
    .addNode('classify', () => ({ data: { kind: 'q' } }))
    .addNode('answer', () => ({ logs: ['answered'] }))
    .addNode('end', createEndNode())
    .addConditionalEdge('classify', { path: 'data.kind', cases: { q: 'answer' }, default: 'end' })
    .addEdge('answer', 'end')
    .setEntryPoint('classify')
    .build();
  const engine = disposeAfter(t, new GraphEngine(def));
  assert.deepEqual((await engine.execute({})).state.logs, ['answered']);
  const m = engine.toMermaid();
  assert.match(m, /^flowchart TD/);
  assert.match(m, /n0\["classify"\]/);
  assert.match(m, /-\.->\|"data\.kind = q"\| n1/);
  assert.match(m, /-\.->\|"otherwise"\| __end/);
  assert.throws(() => new GraphBuilder().addNode('x', () => ({})).addNode('x', () => ({})), (e) => e.code === 'DUPLICATE_NODE');
});

test('parallel branches merge by branch index whatever order they finish in', async (t) => {
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  const definition = (dl, dr, rightWrites) => ({
    nodes: {
      split: () => ({}),
      left: async () => { await wait(dl); return { logs: ['left'], data: { left: true, shared: 'same' } }; },
      right: async () => { await wait(dr); return { logs: ['right'], data: { right: true, shared: rightWrites } }; },
      join: (s) => ({ data: { joined: s.logs.join('+') } }),
    },
    edges: { split: ['left', 'right'], left: 'join', right: 'join', join: '__end__' },
    entryPoint: 'split',
  });
  for (const [dl, dr] of [[8, 0], [0, 8]]) {
    const r = await disposeAfter(t, new GraphEngine(definition(dl, dr, 'same'))).execute({});
    assert.deepEqual(r.state.logs, ['left', 'right']);
    assert.deepEqual(r.state.data, { left: true, shared: 'same', right: true, joined: 'left+right' });
    assert.equal(r.state.stepCount, 4);
    // Different values for a key without a reducer: an error, not a race.
    const c = await disposeAfter(t, new GraphEngine(definition(dl, dr, 'other'))).execute({});
    assert.equal(c.error.code, 'PARALLEL_CONFLICT');
    assert.match(c.error.message, /'left' and 'right' wrote different values to 'data\.shared'/);
    assert.deepEqual(c.state.logs, [], 'nothing of the conflicting step was applied');
  }
});

test('dispose frees the graph; a disposed engine says so', async (t) => {
  const engine = disposeAfter(t, new GraphEngine(chain({ a: () => ({}) })));
  engine.dispose();
  engine.dispose();
  await assert.rejects(engine.execute({}), (e) => e.code === 'DISPOSED' && e.message.includes('GraphEngine'));
});

test('thousands of failing and finished runs do not grow WebAssembly memory (no leak)', async (t) => {
  // Runs that fail in every way a user can cause; a leak of even 100 bytes
  // per run would need 2 MB more over these 20,000 runs.
  const input = { data: { blob: 'x'.repeat(2000) } };
  const engines = [
    disposeAfter(t, new GraphEngine(chain({ a: () => { throw new Error('x'); } }))),
    disposeAfter(t, new GraphEngine(chain({ a: () => 'not an object' }))),
    disposeAfter(t, new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: () => 'nowhere' }, entryPoint: 'a' })),
    disposeAfter(t, new GraphEngine(chain({ a: () => ({ shouldPause: true }) }))),
    disposeAfter(t, new GraphEngine(chain({ a: () => ({ data: { ok: 1 } }) }))),
  ];
  const runAll = async (n) => { for (let i = 0; i < n; i++) for (const e of engines) await e.execute(input); };
  await runAll(200); // warm up: buffers reach their working size
  const sizes = [];
  for (let round = 0; round < 4; round++) { await runAll(1000); sizes.push(memoryUsage().wasmMemoryBytes); }
  assert.equal(new Set(sizes).size, 1, `memory grew across rounds: ${sizes.join(', ')}`);
  for (const e of engines) e.dispose();
});

test("a node's context.emit and recordUsage work taken off the context, with a listener and without one", async (t) => {
  const node = (state, engine, { emit, recordUsage, node: name, taskId }) => {
    emit({ type: 'progress', done: 1 });
    recordUsage({ tokens: { inputTokens: 3, outputTokens: 2, cachedTokens: 0 }, model: 'm' });
    return { data: { name, taskId } };
  };
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: node, b: node }, edges: { a: 'b', b: '__end__' }, entryPoint: 'a' }));
  const events = [];
  const heard = await engine.execute({}, { onEvent: (e) => events.push(e) });
  const progress = events.filter((e) => e.type === 'progress');
  assert.deepEqual(progress.map((e) => e.node), ['a', 'b']);
  assert.ok(progress.every((e) => e.done === 1 && typeof e.taskId === 'string'));
  assert.deepEqual(events.filter((e) => e.type === 'llm_usage').map((e) => e.node), ['a', 'b']);
  assert.equal(heard.usage.totalTokens, 10);
  const quiet = await engine.execute({});
  assert.equal(quiet.status, 'FINISHED', quiet.error?.message);
  assert.equal(quiet.usage.totalTokens, 10);
  engine.dispose();
});
