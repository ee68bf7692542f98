// The mirror a run keeps is the core's state: each test holds it equal to the
// state a paused run's checkpoint holds, whatever the node did with its
// returned object afterwards and whatever JSON made of it (a value it converts,
// a NUL, a lone surrogate, a long string that crosses raw).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, interrupt } from 'edgegraph';
import { StateGraph, MessagesAnnotation, START, END } from 'edgegraph/langgraph';
import { resultJSON } from '../../js/result-json.js';
import { disposeAfter } from './support/dispose.js';

/** The core's state of a paused run, as its checkpoint holds it. */
const coreState = (result) => JSON.parse(result.checkpoint).state;

/** The mirror is the core's state: equal values (-0 is not 0 here) in the same key order. */
function sameAsCore(result, key) {
  const core = coreState(result)[key];
  assert.deepStrictEqual(result.state[key], core);
  assert.equal(JSON.stringify(result.state[key]), JSON.stringify(core));
}

// A step of two branches: `left` returns its messages and changes them once
// the step's other branch is still running; `right` waits for that change.
function mutatingBranches(state = undefined) {
  let changed, later;
  const engine = new GraphEngine({
    nodes: {
      split: () => { later = new Promise((resolve) => { changed = resolve; }); return {}; },
      left: () => {
        const message = { role: 'assistant', content: 'as returned', tool_calls: [{ id: 'c1', args: { q: 'x' } }] };
        const list = [message];
        queueMicrotask(() => {
          message.content = 'changed';
          message.tool_calls[0].args.q = 'changed';
          message.extra = true;
          list.push({ role: 'user', content: 'pushed later' });
          changed();
        });
        return { messages: list };
      },
      right: async () => { await later; return { messages: { role: 'tool', content: 'one message, no list' } }; },
      stop: () => ({ shouldPause: true }),
    },
    edges: { split: ['left', 'right'], left: 'stop', right: 'stop', stop: '__end__' },
    entryPoint: 'split',
    ...(state ? { state } : {}),
  });
  return engine;
}

for (const [reducer, state] of [['concat (the frame state)', undefined], ['messages', { reducers: { messages: 'messages' }, defaults: { messages: [] } }]]) {
  test(`${reducer}: a node changing its returned messages while a sibling task runs changes neither the mirror nor the core`, async () => {
    const engine = mutatingBranches(state);
    for (let round = 0; round < 3; round++) {   // (an engine's later runs too)
      const r = await engine.execute({ messages: [] });
      assert.equal(r.status, 'PAUSED');
      assert.deepStrictEqual(r.state.messages, [
        { role: 'assistant', content: 'as returned', tool_calls: [{ id: 'c1', args: { q: 'x' } }] },
        { role: 'tool', content: 'one message, no list' },
      ]);
      sameAsCore(r, 'messages');
    }
    engine.dispose();
  });
}

test('values JSON converts reach the mirror as the core holds them: toJSON, boxed values, undefined, -0, __proto__, key order, lone surrogates, NUL', async (t) => {
  const when = new Date(0);
  const weird = () => {
    const m = JSON.parse('{"__proto__": {"polluted": true}}');
    Object.assign(m, {
      role: 'assistant', b: 1, 2: 'two', 1: 'one', a: undefined,
      at: when, boxed: new String('boxed'), n: -0, list: [-0, new Number(3), { toJSON: () => 'mine' }],
      lone: 'x\ud800y', pair: '\ud83d\ude00', nul: 'before\u0000after', ['k\u0000tail']: 'first', k: 'second', ['\udc00']: 'lone key',
    });
    return m;
  };
  const plain = () => Object.assign(JSON.parse('{"__proto__": {"polluted": true}}'), { role: 'plain', z: 1, 1: 'one', u: undefined, n: -0, lone: '\udfffz', nul: 'a\u0000b', long: `${'x'.repeat(300)}\u0000tail` });
  // Long strings cross raw (result-json.js resultText's parts): with a NUL, and without.
  const long = () => ({ role: 'long', content: 'y'.repeat(400), nul: `${'z'.repeat(300)}\u0000cut` });
  const messages = [];
  for (const [name, state] of [['concat', undefined], ['messages', { reducers: { messages: 'messages' }, defaults: { messages: [] } }]]) {
    const engine = disposeAfter(t, new GraphEngine({
      nodes: { a: () => ({ messages: [weird(), plain(), long()] }), b: () => ({ messages: plain(), shouldPause: true }) },
      edges: { a: 'b', b: '__end__' },
      entryPoint: 'a',
      ...(state ? { state } : {}),
    }));
    for (let round = 0; round < 2; round++) {
      const r = await engine.execute({ messages: [] });
      assert.equal(r.status, 'PAUSED', name);
      sameAsCore(r, 'messages');
      assert.equal(Object.getPrototypeOf(r.state.messages[0]), Object.prototype, 'a "__proto__" key stays data');
      assert.equal({}.polluted, undefined);
      messages.push(r.state.messages);
    }
    engine.dispose();
  }
  // Every way of reaching the mirror gave the same values.
  for (const m of messages) assert.equal(JSON.stringify(m), JSON.stringify(messages[0]));
  const m = messages[0][0];
  assert.equal(m.at, '1970-01-01T00:00:00.000Z');
  assert.equal(m.boxed, 'boxed');
  assert.ok(!('a' in m));
  assert.ok(Object.is(m.n, 0));
  assert.deepStrictEqual(m.list, [0, 3, 'mine']);
  assert.equal(m.lone, 'x\ufffdy');
  assert.equal(m.pair, '\ud83d\ude00');
  assert.equal(m.nul, 'before');
  assert.deepStrictEqual(Object.keys(m).slice(0, 2), ['1', '2']);
  assert.deepStrictEqual(messages[0][2], { role: 'long', content: 'y'.repeat(400), nul: 'z'.repeat(300) });
  for (const p of [messages[0][1], messages[0][3]]) {
    assert.deepStrictEqual(Object.keys(p), ['1', '__proto__', 'role', 'z', 'n', 'lone', 'nul', 'long']);
    assert.equal(p.long, 'x'.repeat(300));
    assert.ok(Object.is(p.n, 0));
    assert.equal(p.lone, '\ufffdz');
    assert.equal(p.nul, 'a');
  }
});

test('a listener gets full values in its patch, and changing them changes no mirror', async (t) => {
  const ops = [];
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: () => ({ messages: [{ role: 'assistant', content: 'hi', meta: { n: 1 } }] }), b: () => ({ shouldPause: true }) },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
    state: { reducers: { messages: 'messages' }, defaults: { messages: [] } },
  }));
  for (let round = 0; round < 2; round++) {
    ops.length = 0;
    const r = await engine.execute({ messages: [] }, {
      onEvent: (e) => {
        if (e.type !== 'state_update') return;
        for (const op of e.patch) {
          if (op[0] === 'push' && op[1][0] === 'messages') { ops.push(structuredClone(op)); op[2][0].meta.n = 99; }
        }
      },
    });
    assert.deepStrictEqual(ops, [['push', ['messages'], [{ role: 'assistant', content: 'hi', meta: { n: 1 } }]]]);
    assert.equal(r.state.messages[0].meta.n, 1);
    sameAsCore(r, 'messages');
  }
});

test('a parallel step resumed from its checkpoint: the finished branch\'s result comes from the checkpoint, once', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      split: () => ({}),
      done: () => ({ messages: [{ role: 'assistant', content: 'finished before the pause' }] }),
      asks: (s, e, ctx) => ({ messages: [{ role: 'assistant', content: `answer: ${interrupt('which?', ctx)}` }] }),
      stop: () => ({ shouldPause: true }),
    },
    edges: { split: ['done', 'asks'], done: 'stop', asks: 'stop', stop: '__end__' },
    entryPoint: 'split',
    state: { reducers: { messages: 'messages' }, defaults: { messages: [] } },
  }));
  const paused = await engine.execute({ messages: [] });
  assert.equal(paused.status, 'PAUSED');
  assert.deepStrictEqual(paused.state.messages, []);
  const r = await engine.resume(paused.checkpoint, { resume: 'this one' });
  assert.equal(r.status, 'PAUSED');
  assert.deepStrictEqual(r.state.messages.map((m) => m.content), ['finished before the pause', 'answer: this one']);
  sameAsCore(r, 'messages');
});

test('edgegraph/langgraph: a message changed after its node returned stays as returned, in the state and a MemorySaver\'s checkpoints', async () => {
  const { MemorySaver } = await import('edgegraph/langgraph');
  for (const checkpointer of [undefined, new MemorySaver()]) {
    const kept = [];
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', () => {
        const m = { role: 'assistant', content: 'as returned', id: `ai-${kept.length}` };
        kept.push(m);
        queueMicrotask(() => { m.content = 'changed'; });
        return { messages: [m] };
      })
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', () => (kept.length < 3 ? 'agent' : END))
      .compile(checkpointer ? { checkpointer } : {});
    const config = { configurable: { thread_id: 't' } };
    const out = await graph.invoke({ messages: [{ role: 'user', content: 'hi', id: 'u' }] }, config);
    assert.deepStrictEqual(out.messages.map((m) => m.content), ['hi', 'as returned', 'as returned', 'as returned']);
    if (checkpointer) {
      const saved = await graph.getState(config);
      assert.deepStrictEqual(saved.values.messages.map((m) => m.content), ['hi', 'as returned', 'as returned', 'as returned']);
    }
  }
});

test('a message whose getter throws once the result is written as JSON: the mirror still holds what the core got', async (t) => {
  let allowed = Infinity;
  const message = () => {
    let reads = 0;
    const m = { role: 'assistant' };
    Object.defineProperty(m, 'content', { enumerable: true, get: () => { if (++reads > allowed) throw new Error('read once too often'); return 'first'; } });
    return m;
  };
  // As many reads as writing the result as JSON (and checking it) takes, and no more.
  let reads = 0;
  const probe = {};
  Object.defineProperty(probe, 'content', { enumerable: true, get: () => { reads++; return 'first'; } });
  resultJSON({ messages: [probe] }, 'a');
  allowed = reads;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      a: () => ({ messages: [message()] }),
      b: () => ({ shouldPause: true }),
    },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
    state: { reducers: { messages: 'messages' }, defaults: { messages: [] } },
  }));
  for (let round = 0; round < 2; round++) {
    const r = await engine.execute({ messages: [] });
    assert.equal(r.status, 'PAUSED');
    assert.deepStrictEqual(r.state.messages, [{ role: 'assistant', content: 'first' }]);
    sameAsCore(r, 'messages');
  }
});

test('long strings that cross raw: one with a NUL is cut there, as the core holds it', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: () => ({ messages: [{ role: 'long', content: 'y'.repeat(400), nul: `${'z'.repeat(300)}\u0000cut` }] }), b: () => ({ shouldPause: true }) },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
  }));
  for (let round = 0; round < 2; round++) {
    const r = await engine.execute({ messages: [] });
    assert.deepStrictEqual(r.state.messages, [{ role: 'long', content: 'y'.repeat(400), nul: 'z'.repeat(300) }]);
    sameAsCore(r, 'messages');
  }
});
