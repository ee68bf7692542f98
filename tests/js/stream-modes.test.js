// Stream modes of edgegraph's own API: engine.stream(input, { streamMode }) and
// streamResume(), each mode alone and several at once, across an interrupt and
// its resume, parallel branches, a failing node, a subgraph, and an LLM node
// talking to the strict OpenAI loopback server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Command, createLLMNode, createAgentNode, createAskUserNode, STREAM_MODES } from 'edgegraph';
import { startServer, reply, call } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

async function collect(stream) {
  const out = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

const line = (t) => disposeAfter(t, new GraphEngine({
  nodes: { a: () => ({ data: { x: 1 } }), b: (s) => ({ data: { y: s.data.x + 1 } }) },
  edges: { a: 'b', b: '__end__' },
  entryPoint: 'a',
}));

test('STREAM_MODES lists the seven modes', () => {
  assert.deepEqual([...STREAM_MODES], ['values', 'updates', 'custom', 'messages', 'tasks', 'checkpoints', 'debug']);
});

test('values: the state after each superstep, the input first, each chunk a copy of its own', async (t) => {
  const chunks = await collect(line(t).stream({ data: { seed: true } }, { streamMode: 'values' }));
  assert.deepEqual(chunks.map((c) => c.data), [{ seed: true }, { seed: true, x: 1 }, { seed: true, x: 1, y: 2 }]);
  assert.equal(chunks.at(-1).status, 'FINISHED');
  chunks[0].data.seed = 'changed';
  assert.equal(chunks[1].data.seed, true);
});

test('updates: { node: update } as each node finishes', async (t) => {
  assert.deepEqual(await collect(line(t).stream({}, { streamMode: 'updates' })), [{ a: { data: { x: 1 } } }, { b: { data: { y: 2 } } }]);
});

test('no streamMode: the raw events, as before', async (t) => {
  const chunks = await collect(line(t).stream({}));
  assert.deepEqual(chunks.map((e) => e.type), ['run_start', 'state_update', 'node_start', 'node_end', 'state_update', 'node_start', 'node_end', 'state_update', 'run_end']);
});

test('custom: what a node writes with context.writer (also destructured), in order with the other modes', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      a: (s, e, ctx) => { ctx.writer({ progress: 0.5 }); ctx.writer({ progress: 1 }); return { data: { a: true } }; },
      b: async (s, e, { writer }) => { await null; writer('from b'); return {}; },
    },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
  }));
  assert.deepEqual(await collect(engine.stream({}, { streamMode: 'custom' })), [{ progress: 0.5 }, { progress: 1 }, 'from b']);
  const mixed = await collect(engine.stream({}, { streamMode: ['updates', 'custom'] }));
  assert.deepEqual(mixed, [['custom', { progress: 0.5 }], ['custom', { progress: 1 }], ['updates', { a: { data: { a: true } } }], ['custom', 'from b'], ['updates', { b: {} }]]);
  // The raw stream and onEvent see them as `custom` events naming the node and task.
  const seen = [];
  const raw = await collect(engine.stream({}, { onEvent: (e) => e.type === 'custom' && seen.push(e) }));
  const custom = raw.filter((e) => e.type === 'custom');
  assert.deepEqual(custom.map((e) => [e.node, e.data]), [['a', { progress: 0.5 }], ['a', { progress: 1 }], ['b', 'from b']]);
  assert.match(custom[0].taskId, /:1\.0$/);
  assert.equal(seen.length, 3);
});

test('several modes at once: [mode, chunk] in run order; a one-item list is tagged too', async (t) => {
  const chunks = await collect(line(t).stream({}, { streamMode: ['values', 'updates'] }));
  assert.deepEqual(chunks.map(([mode]) => mode), ['values', 'updates', 'values', 'updates', 'values']);
  assert.deepEqual(chunks[3], ['updates', { b: { data: { y: 2 } } }]);
  assert.deepEqual((await collect(line(t).stream({}, { streamMode: ['updates'] })))[0], ['updates', { a: { data: { x: 1 } } }]);
});

test('options.onEvent still hears every raw event beside the modes, and stream.result is the run result', async (t) => {
  const types = [];
  const stream = line(t).stream({}, { streamMode: 'updates', onEvent: (e) => types.push(e.type) });
  assert.equal((await collect(stream)).length, 2);
  assert.equal(types.at(-1), 'run_end');
  const result = await stream.result;
  assert.equal(result.status, 'FINISHED');
  assert.equal(result.state.data.y, 2);
});

test('options.onEvent beside the modes gets each state_update with its patch (the modes\' own listener reads none), and the chunks are the same', async (t) => {
  const patches = [];
  const chunks = await collect(line(t).stream({}, { streamMode: ['updates', 'values'], onEvent: (e) => e.type === 'state_update' && patches.push(e.patch) }));
  assert.ok(patches.some((p) => p.some(([op, path, value]) => op === 'set' && path.join('.') === 'data.y' && value === 2)));
  assert.ok(patches.every((p) => Array.isArray(p) && p.length > 0));
  const alone = await collect(line(t).stream({}, { streamMode: ['updates', 'values'] }));
  assert.deepEqual(alone, chunks);
});

test('tasks: each task starts and ends with one id; a failing node ends with its error, and the loop throws it', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: () => ({ data: { kept: true } }), b: () => { throw new Error('boom'); } },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
  }));
  const stream = engine.stream({}, { streamMode: 'tasks' });
  const chunks = [];
  await assert.rejects(async () => { for await (const c of stream) chunks.push(c); }, (e) => e.code === 'NODE_FAILED' && e.node === 'b' && /boom/.test(e.message));
  assert.deepEqual(chunks.map((c) => [c.name, 'result' in c ? 'end' : 'start']), [['a', 'start'], ['a', 'end'], ['b', 'start'], ['b', 'end']]);
  assert.equal(chunks[0].id, chunks[1].id);
  assert.notEqual(chunks[0].id, chunks[2].id);
  assert.deepEqual(chunks[1].result, { data: { kept: true } });
  assert.equal(chunks[1].error, null);
  assert.equal(chunks[3].result, null);
  assert.match(chunks[3].error.message, /boom/);
  assert.equal(chunks[3].step, 2);
  // The run's result keeps the partial state and a checkpoint to resume from.
  const result = await stream.result;
  assert.equal(result.status, 'ERROR');
  assert.equal(result.state.data.kept, true);
  assert.equal(typeof result.checkpoint, 'string');
});

test('parallel branches: each branch its own updates and tasks chunks; one values chunk for the step', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { fork: () => ({}), left: async () => ({ logs: ['left'] }), right: () => ({ logs: ['right'] }), join: () => ({ data: { done: true } }) },
    edges: { fork: ['left', 'right'], left: 'join', right: 'join', join: '__end__' },
    entryPoint: 'fork',
  }));
  const chunks = await collect(engine.stream({}, { streamMode: ['updates', 'values', 'tasks'] }));
  const updates = chunks.filter(([m]) => m === 'updates').map(([, c]) => c);
  assert.deepEqual(updates.slice(1, 3).sort((x, y) => Object.keys(x)[0].localeCompare(Object.keys(y)[0])), [{ left: { logs: ['left'] } }, { right: { logs: ['right'] } }]);
  const starts = chunks.filter(([m, c]) => m === 'tasks' && !('result' in c)).map(([, c]) => c);
  const branchIds = starts.filter((c) => c.name === 'left' || c.name === 'right').map((c) => c.id);
  assert.equal(new Set(branchIds).size, 2);
  assert.deepEqual(starts.map((c) => [c.name, c.step]).sort(), [['fork', 1], ['join', 3], ['left', 2], ['right', 2]]);
  // One values chunk per superstep: the input, fork, the two branches together, join.
  const values = chunks.filter(([m]) => m === 'values').map(([, c]) => c);
  assert.equal(values.length, 4);
  assert.deepEqual(values[2].logs.sort(), ['left', 'right']);
});

test('several modes at once: each chunk has objects of its own, so a consumer editing one leaves the others as they came', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { say: () => ({ messages: [{ role: 'assistant', content: 'hi' }] }) },
    edges: { say: '__end__' },
    entryPoint: 'say',
  }, { checkpointer: new MemoryStore() }));
  // Every message's content gets one '!' per chunk it is in: an object two chunks share gets two.
  const contents = (v, each) => {
    if (Array.isArray(v)) v.forEach((x) => contents(x, each));
    else if (v !== null && typeof v === 'object') for (const key of Object.keys(v)) (key === 'content' && typeof v[key] === 'string' ? each(v, key) : contents(v[key], each));
  };
  const chunks = [];
  const modes = ['updates', 'messages', 'tasks', 'debug', 'checkpoints', 'values'];
  for await (const chunk of engine.stream({}, { streamMode: modes, threadId: 'own-objects' })) {
    contents(chunk, (o, key) => { o[key] += '!'; });
    chunks.push(chunk);
  }
  const seen = [];
  contents(chunks, (o, key) => seen.push(o[key]));
  assert.ok(seen.length >= 7, `${seen.length} message contents in ${chunks.length} chunks`);
  assert.deepEqual(new Set(seen), new Set(['hi!']));
  assert.deepEqual(new Set(chunks.map(([mode]) => mode)), new Set(modes));
});

test('a chunk\'s copy is what JSON\'s round trip gives (toJSON with its key, boxed values, class instances, undefined, NaN, a "__proto__" key), and throws as it does', async () => {
  const { copyValue } = await import('../../dist/stream-run.js');
  const viaJSON = (v) => JSON.parse(JSON.stringify(v));
  const odd = {
    list: [1, undefined, () => 1, Symbol('s'), NaN, -Infinity, null, , 'x'],
    dropped: undefined, fn: () => 1, sym: Symbol('t'), nan: NaN,
    date: new Date(0), boxed: [new String('s'), new Number(3), new Boolean(false)], map: new Map([[1, 2]]), bytes: new Uint8Array([1]),
    keyed: { toJSON: (key) => `toJSON saw '${key}'` }, inList: [{ toJSON: (key) => `toJSON saw '${key}'` }],
    bare: Object.assign(Object.create(null), { 2: 'two', b: 1, 1: 'one' }),
    deep: JSON.parse(`${'['.repeat(100)}"bottom"${']'.repeat(100)}`),
    ...JSON.parse('{"__proto__": {"polluted": true}}'),
  };
  const copied = copyValue(odd);
  assert.deepEqual(copied, viaJSON(odd));
  assert.deepEqual(Object.keys(copied), Object.keys(viaJSON(odd)));
  assert.equal(Object.getPrototypeOf(copied), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.ok(Object.hasOwn(copied, '__proto__'));
  const text = { content: 'long '.repeat(1000), nested: { list: [{ a: 1 }] } };
  const copy = copyValue(text);
  assert.deepEqual(copy, text);
  assert.notEqual(copy.nested, text.nested);
  assert.notEqual(copy.nested.list[0], text.nested.list[0]);
  const cycle = { a: 1 };
  cycle.self = { back: cycle };
  for (const bad of [{ n: 1n }, cycle]) {
    let expected;
    try { viaJSON(bad); } catch (e) { expected = e; }
    assert.throws(() => copyValue(bad), (e) => e.constructor === expected.constructor && e.name === expected.name);
  }
});

function approvalGraph(t, store) {
  return disposeAfter(t, new GraphEngine({
    nodes: {
      draft: () => ({ data: { draft: 'v1' } }),
      review: (s, e, ctx) => ({ data: { verdict: ctx.interrupt({ question: `publish ${s.data.draft}?` }) } }),
      publish: (s, e, ctx) => { ctx.writer(`publishing: ${s.data.verdict}`); return { data: { published: s.data.verdict === 'yes' } }; },
    },
    edges: { draft: 'review', review: 'publish', publish: '__end__' },
    entryPoint: 'draft',
  }, { checkpointer: store }));
}

test('interrupt and resume: updates ends with { __interrupt__ }, the resumed stream goes on from the paused node', async (t) => {
  const engine = approvalGraph(t, new MemoryStore());
  const first = engine.stream({}, { streamMode: ['updates', 'tasks'], threadId: 'review-1' });
  const before = await collect(first);
  const updates = before.filter(([m]) => m === 'updates').map(([, c]) => c);
  assert.deepEqual(updates[0], { draft: { data: { draft: 'v1' } } });
  assert.equal(updates.length, 2);
  const [pending] = updates[1].__interrupt__;
  assert.deepEqual(pending.value, { question: 'publish v1?' });
  assert.equal(typeof pending.id, 'string');
  // The paused task ends interrupted, with no result and no error.
  const reviewEnd = before.find(([m, c]) => m === 'tasks' && c.name === 'review' && 'result' in c)[1];
  assert.equal(reviewEnd.interrupted, true);
  assert.equal(reviewEnd.error, null);
  assert.equal((await first.result).status, 'PAUSED');

  const after = await collect(engine.streamResume({ threadId: 'review-1' }, new Command({ resume: 'yes' }), { streamMode: ['updates', 'custom', 'values'] }));
  const modes = after.map(([m]) => m);
  assert.deepEqual(after.filter(([m]) => m === 'updates').map(([, c]) => c), [{ review: { data: { verdict: 'yes' } } }, { publish: { data: { published: true } } }]);
  assert.deepEqual(after.filter(([m]) => m === 'custom'), [['custom', 'publishing: yes']]);
  assert.equal(modes.at(-1), 'values');
  assert.deepEqual(after.at(-1)[1].data, { draft: 'v1', verdict: 'yes', published: true });
});

test('interrupt and resume from a checkpoint (no thread): stream.result carries the checkpoint to resume', async (t) => {
  const engine = approvalGraph(t, undefined);
  const first = engine.stream({}, { streamMode: 'updates' });
  const chunks = await collect(first);
  assert.ok(chunks.at(-1).__interrupt__);
  const { checkpoint } = await first.result;
  const rest = await collect(engine.streamResume(checkpoint, new Command({ resume: 'no' }), { streamMode: 'updates' }));
  assert.deepEqual(rest, [{ review: { data: { verdict: 'no' } } }, { publish: { data: { published: false } } }]);
});

test('a pause without interrupt() (an ask-user node): updates ends with { __interrupt__: [] }, values stays the state', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { ask: createAskUserNode({ question: 'Your name?' }), greet: (s) => ({ data: { greeting: `Hi ${s.data.answer}` } }) },
    edges: { ask: 'greet', greet: '__end__' },
    entryPoint: 'ask',
  }));
  const stream = engine.stream({}, { streamMode: ['updates', 'values'] });
  const chunks = await collect(stream);
  assert.deepEqual(chunks.at(-1), ['updates', { __interrupt__: [] }]);
  assert.equal(chunks.filter(([m, c]) => m === 'updates' && c.ask).length, 1);
  assert.ok(chunks.filter(([m]) => m === 'values').every(([, c]) => c.__interrupt__ === undefined && typeof c.stepCount === 'number'));
  const rest = await collect(engine.streamResume((await stream.result).checkpoint, { role: 'user', content: 'Ann' }, { streamMode: 'updates' }));
  assert.deepEqual(rest.at(-1), { greet: { data: { greeting: 'Hi Ann' } } });
});

test('checkpoints: a snapshot per checkpoint of the thread, with its values and the nodes it runs next', async (t) => {
  const engine = approvalGraph(t, new MemoryStore());
  const chunks = await collect(engine.stream({ data: { n: 1 } }, { streamMode: 'checkpoints', threadId: 'cp-1' }));
  const history = await engine.getStateHistory('cp-1');
  assert.deepEqual(chunks.map((c) => c.checkpointId), history.map((h) => h.checkpointId).reverse());
  assert.deepEqual(chunks.map((c) => c.next), history.map((h) => h.pendingTasks).reverse());
  assert.deepEqual(chunks[0].next, ['draft']);
  assert.deepEqual(chunks[1].values.data, { n: 1, draft: 'v1' });
  assert.equal(chunks.at(-1).status, 'PAUSED');
  assert.ok(chunks.every((c) => c.threadId === 'cp-1'));
  // Without a thread there are no checkpoints to stream.
  assert.deepEqual(await collect(line(t).stream({}, { streamMode: 'checkpoints' })), []);
});

test('debug: checkpoints and tasks wrapped as { step, type, timestamp, payload }, a checkpoint before its tasks', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({ data: { a: 1 } }) }, edges: { a: '__end__' }, entryPoint: 'a' }, { checkpointer: new MemoryStore() }));
  const chunks = await collect(engine.stream({}, { streamMode: 'debug', threadId: 'dbg' }));
  assert.deepEqual(chunks.map((c) => [c.type, c.step]), [['checkpoint', 1], ['task', 1], ['task_result', 1], ['checkpoint', 1]]);
  assert.deepEqual(chunks[2].payload.result, { data: { a: 1 } });
  assert.ok(chunks.every((c) => !Number.isNaN(Date.parse(c.timestamp))));
});

test('subgraphs: a subgraph node\'s chunks come with its namespace when asked, and not otherwise', async (t) => {
  const child = disposeAfter(t, new GraphEngine({
    nodes: { inner: (s, e, ctx) => { ctx.writer('inner says hi'); return { data: { inner: true } }; } },
    edges: { inner: '__end__' },
    entryPoint: 'inner',
  }));
  const parent = disposeAfter(t, new GraphEngine({
    nodes: { sub: { kind: 'subgraph', graph: child, output: (c) => ({ data: { fromChild: c.data.inner } }) }, after: () => ({}) },
    edges: { sub: 'after', after: '__end__' },
    entryPoint: 'sub',
  }));
  const chunks = await collect(parent.stream({}, { streamMode: ['updates', 'custom'], subgraphs: true }));
  const [ns] = chunks.find(([n]) => n.length);
  assert.deepEqual(ns, ['sub:1.0']);
  assert.deepEqual(chunks.filter(([n]) => n.length).map(([, mode, chunk]) => [mode, chunk]), [['custom', 'inner says hi'], ['updates', { inner: { data: { inner: true } } }]]);
  assert.deepEqual(chunks.filter(([n]) => !n.length).map(([, mode, chunk]) => [mode, chunk]), [['updates', { sub: { data: { fromChild: true }, subgraphs: { sub: null } } }], ['updates', { after: {} }]]);
  // Without subgraphs: only the parent's own chunks.
  const own = await collect(parent.stream({}, { streamMode: 'updates' }));
  assert.deepEqual(own.map((c) => Object.keys(c)[0]), ['sub', 'after']);
});

test('subgraphs: a subgraph\'s interrupt comes in its namespace first (ids as the parent answers them), then the parent\'s; the resume streams the child\'s rest', async (t) => {
  const child = disposeAfter(t, new GraphEngine({
    nodes: { ask: (s, e, ctx) => ({ data: { ok: ctx.interrupt('ship it?') } }), done: () => ({ data: { shipped: true } }) },
    edges: { ask: 'done', done: '__end__' },
    entryPoint: 'ask',
  }));
  const parent = disposeAfter(t, new GraphEngine({
    nodes: { review: { kind: 'subgraph', graph: child, output: (c) => ({ data: { shipped: c.data.shipped === true, ok: c.data.ok } }) } },
    edges: { review: '__end__' },
    entryPoint: 'review',
  }, { checkpointer: new MemoryStore() }));
  const first = await collect(parent.stream({}, { streamMode: 'updates', subgraphs: true, threadId: 'sub-pause' }));
  const pauses = first.filter(([, c]) => c.__interrupt__);
  assert.deepEqual(pauses.map(([ns]) => ns), [['review:1.0'], []]);
  assert.equal(pauses[0][1].__interrupt__[0].id, pauses[1][1].__interrupt__[0].id);
  assert.match(pauses[1][1].__interrupt__[0].id, /^review:1\.0\//);
  const rest = await collect(parent.streamResume({ threadId: 'sub-pause' }, new Command({ resume: { [pauses[1][1].__interrupt__[0].id]: 'yes' } }), { streamMode: 'updates', subgraphs: true }));
  assert.deepEqual(rest.map(([ns, c]) => [ns.join('/'), Object.keys(c)[0]]), [['review:1.0', 'ask'], ['review:1.0', 'done'], ['', 'review']]);
  assert.deepEqual(rest.at(-1)[1].review.data, { shipped: true, ok: 'yes' });
});

test('messages: an LLM node\'s tokens as they stream, with the node and step; its reply is not sent again', async (t) => {
  const server = await startServer([{ json: reply('Hello there, streaming world') }]);
  try {
    const engine = disposeAfter(t, new GraphEngine({
      nodes: { greet: () => ({ messages: [{ role: 'system', content: 'be brief' }] }), chat: createLLMNode({ llm: { baseURL: server.baseURL, model: 'm', apiKey: 'sk-test' } }) },
      edges: { greet: 'chat', chat: '__end__' },
      entryPoint: 'greet',
    }));
    const chunks = await collect(engine.stream({ messages: [{ role: 'user', content: 'hi' }] }, { streamMode: 'messages' }));
    // The system message greet returned comes whole; then chat's tokens.
    assert.deepEqual(chunks[0][0], { role: 'system', content: 'be brief' });
    assert.equal(chunks[0][1].node, 'greet');
    const tokens = chunks.slice(1);
    assert.ok(tokens.length > 1, 'streamed in several chunks');
    assert.equal(tokens.map(([m]) => m.content).join(''), 'Hello there, streaming world');
    assert.ok(tokens.every(([m, meta]) => m.role === 'assistant' && meta.node === 'chat' && meta.step === 2 && m.id === meta.taskId));
    assert.equal(server.requests[0].body.stream, true);
  } finally { await server.close(); }
});

test('messages: an agent\'s tool calls and tool results, each once, beside its tokens', async (t) => {
  const server = await startServer([
    { json: reply(null, [call('c1', 'add', { a: 2, b: 3 })]) },
    { json: reply('It is 5.') },
  ]);
  try {
    const add = { name: 'add', description: 'Add two numbers', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, run: ({ a, b }) => a + b };
    const engine = disposeAfter(t, new GraphEngine({
      nodes: { agent: createAgentNode({ llm: { baseURL: server.baseURL, model: 'm' }, tools: [add] }) },
      edges: { agent: { path: 'lastModelOutput', cases: {}, default: '__end__' } },
      entryPoint: 'agent',
    }));
    const chunks = await collect(engine.stream({ messages: [{ role: 'user', content: '2+3?' }] }, { streamMode: 'messages' }));
    const withCalls = chunks.filter(([m]) => m.tool_calls);
    assert.equal(withCalls.length, 1);
    assert.equal(withCalls[0][0].tool_calls[0].function.name, 'add');
    const toolResults = chunks.filter(([m]) => m.role === 'tool');
    assert.deepEqual(toolResults.map(([m]) => [m.tool_call_id, m.content]), [['c1', '5']]);
    const text = chunks.filter(([m]) => m.role === 'assistant' && !m.tool_calls).map(([m]) => m.content).join('');
    assert.equal(text, 'It is 5.');
  } finally { await server.close(); }
});

test('messages: a streamed reply that also calls tools: its text as tokens, then its tool calls once, with empty content', async (t) => {
  const server = await startServer([
    { json: reply('Adding them.', [call('c9', 'add', { a: 1, b: 1 })]) },
    { json: reply('2.') },
  ]);
  try {
    const add = { name: 'add', description: 'Add two numbers', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, run: ({ a, b }) => a + b };
    const engine = disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: { baseURL: server.baseURL, model: 'm' }, tools: [add] }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));
    const chunks = await collect(engine.stream({ messages: [{ role: 'user', content: '1+1?' }] }, { streamMode: 'messages' }));
    const assistant = chunks.filter(([m]) => m.role === 'assistant');
    assert.equal(assistant.map(([m]) => m.content).join(''), 'Adding them.2.', 'each text once');
    const calls = assistant.filter(([m]) => m.tool_calls);
    assert.equal(calls.length, 1);
    assert.equal(calls[0][0].content, '');
    assert.equal(calls[0][0].tool_calls[0].id, 'c9');
    assert.equal(calls[0][1].taskId, assistant[0][1].taskId, 'the same task as its tokens');
  } finally { await server.close(); }
});

test('leaving the loop early aborts the run: the node in flight sees its signal, no later node runs', async (t) => {
  let laterRan = false;
  let sawAbort = false;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      a: () => ({ data: { a: 1 } }),
      slow: (s, e, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => { sawAbort = true; resolve({}); })),
      later: () => { laterRan = true; return {}; },
    },
    edges: { a: 'slow', slow: 'later', later: '__end__' },
    entryPoint: 'a',
  }));
  const stream = engine.stream({}, { streamMode: 'updates' });
  for await (const chunk of stream) { assert.deepEqual(chunk, { a: { data: { a: 1 } } }); break; }
  const result = await stream.result;
  assert.equal(result.status, 'INTERRUPTED');
  assert.equal(sawAbort, true);
  assert.equal(laterRan, false);
});

test('a bad streamMode or subgraphs is an INVALID_OPTIONS error naming it, before anything runs', (t) => {
  let ran = false;
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => { ran = true; return {}; } }, edges: { a: '__end__' }, entryPoint: 'a' }));
  assert.throws(() => engine.stream({}, { streamMode: 'value' }), (e) => e.code === 'INVALID_OPTIONS' && /unknown streamMode 'value'/.test(e.message));
  assert.throws(() => engine.stream({}, { streamMode: ['updates', 'token'] }), (e) => e.code === 'INVALID_OPTIONS' && /'token'/.test(e.message));
  assert.throws(() => engine.stream({}, { streamMode: 'updates', subgraphs: 'yes' }), (e) => e.code === 'INVALID_OPTIONS' && /subgraphs/.test(e.message));
  assert.throws(() => engine.streamResume({ threadId: 't' }, undefined, { streamModes: 'updates' }), (e) => e.code === 'INVALID_OPTIONS' && /streamModes/.test(e.message));
  assert.equal(ran, false);
});

test('the stream modes load on first use: their code is in dist/stream-run.js, not in the entry bundles', async () => {
  const { readFileSync, readdirSync } = await import('node:fs');
  const dist = (f) => readFileSync(new URL(`../../dist/${f}`, import.meta.url), 'utf8');
  const MARK = 'flushCheckpoint()';   // a method only the stream-mode code has
  for (const entry of ['node.js', 'browser.js', 'workerd.js']) {
    assert.equal(dist(entry).includes(MARK), false, `${entry} does not carry the stream modes`);
    assert.ok(dist(entry).includes('import("./stream-run.js")'), `${entry} loads them from beside itself`);
  }
  assert.ok(dist('stream-run.js').includes(MARK));
  // edgegraph/langgraph's stream() always has modes: the bundle apps bundle loads the same file,
  // not a copy of its own; Node's (nothing bundles it) carries them, one module less to load.
  // (the bundles are whitespace-minified: `flushCheckpoint(){`, `from"./stream-run.js"`)
  // (its run's code, stream.js, is a chunk it loads with the first run: dist/lg-stream-<hash>.js)
  const files = readdirSync(new URL('../../dist/', import.meta.url));
  const chunk = files.filter((f) => /^lg-stream-\w+\.js$/.test(f));
  assert.equal(chunk.length, 1);
  assert.ok(files.some((f) => /^lg-chunk-\w+\.js$/.test(f) && dist(f).includes(`import("./${chunk[0]}")`)), 'a chunk of the entry loads it');
  for (const f of ['langgraph.js', chunk[0]]) assert.doesNotMatch(dist(f), /flushCheckpoint\(\) ?\{/);
  assert.match(dist(chunk[0]), /from ?"\.\/stream-run\.js"/);
  assert.match(dist('langgraph-node.js'), /flushCheckpoint\(\) ?\{/);
  assert.equal(dist('langgraph-node.js').includes('./stream-run.js'), false);
});
