// interrupt(): a node pausing itself anywhere, answered by resume; on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, Command, interrupt, isGraphInterrupt, EdgegraphError } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

const tick = () => new Promise((r) => setImmediate(r));

test('a tool approval on interrupt(): the email is sent exactly once; code before interrupt() runs again; the answer is data, not a message', async (t) => {
  const outbox = [];
  let drafted = 0;
  const definition = () => ({
    nodes: {
      send: (state, engine, ctx) => {
        drafted++;                                   // before interrupt(): runs again on resume
        const verdict = ctx.interrupt({ action: 'send_email', to: 'ann@example.org' });
        if (verdict === 'approve') outbox.push('to ann');
        return { data: { verdict } };
      },
      after: () => ({ logs: ['after'] }),
    },
    edges: { send: 'after', after: '__end__' },
    entryPoint: 'send',
  });
  const paused = await disposeAfter(t, new GraphEngine(definition())).execute({ messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(paused.interrupts, [{ id: 'send:1.0:0', value: { action: 'send_email', to: 'ann@example.org' }, node: 'send' }]);
  assert.deepEqual(outbox, []);
  const saved = JSON.stringify(paused.checkpoint);
  const done = await disposeAfter(t, new GraphEngine(definition())).resume(JSON.parse(saved), 'approve');
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(outbox, ['to ann'], 'sent once');
  assert.equal(drafted, 2, 'the code before interrupt() ran again');
  assert.deepEqual(done.state.messages, [{ role: 'user', content: 'hi' }], 'the answer is not a message');
  assert.deepEqual(done.state.data, { verdict: 'approve' });
  assert.deepEqual(done.state.logs, ['after']);
  assert.equal(done.interrupts, undefined);
});

test('several interrupt() calls in one node: one pause each, answers in call order; the answers live in the thread (a new engine resumes it)', async (t) => {
  const store = new MemoryStore();
  const calls = [];
  const definition = {
    nodes: {
      form: async (state, engine, ctx) => {
        await tick();                                  // context.interrupt works after an await
        const name = ctx.interrupt('name?');
        await tick();
        const city = ctx.interrupt('city?');
        calls.push([name, city]);
        return { data: { name, city } };
      },
    },
    edges: { form: '__end__' },
    entryPoint: 'form',
  };
  const first = await disposeAfter(t, new GraphEngine(definition, { checkpointer: store })).execute({}, { threadId: 'f' });
  assert.deepEqual(first.interrupts.map((i) => [i.id, i.value]), [['form:1.0:0', 'name?']]);
  const second = await disposeAfter(t, new GraphEngine(definition, { checkpointer: store })).resume({ threadId: 'f' }, 'Ann');
  assert.equal(second.status, 'PAUSED');
  assert.deepEqual(second.interrupts.map((i) => [i.id, i.value]), [['form:1.0:1', 'city?']]);
  const third = await disposeAfter(t, new GraphEngine(definition, { checkpointer: store })).resume({ threadId: 'f' }, new Command({ resume: 'Lisbon' }));
  assert.equal(third.status, 'FINISHED');
  assert.deepEqual(third.state.data, { name: 'Ann', city: 'Lisbon' });
  assert.deepEqual(calls, [['Ann', 'Lisbon']]);
  assert.equal(third.state.stepCount, 1);
});

test('parallel branches: two interrupt, one finishes and never runs again; a map answers both; bad answers are typed errors and the thread stays resumable', async (t) => {
  const store = new MemoryStore();
  const runs = { left: 0, right: 0, quick: 0 };
  const definition = {
    nodes: {
      split: () => ({}),
      left: (s, e, ctx) => { runs.left++; return { picks: [`left=${ctx.interrupt('left?')}`] }; },
      right: async (s, e, ctx) => { runs.right++; await tick(); return { picks: [`right=${ctx.interrupt('right?')}`] }; },
      quick: () => { runs.quick++; return { picks: ['quick'] }; },
      join: (s) => ({ data: { all: s.picks.join(' ') } }),
    },
    edges: { split: ['left', 'right', 'quick'], left: 'join', right: 'join', quick: 'join', join: '__end__' },
    entryPoint: 'split',
    state: { reducers: { picks: 'concat' }, defaults: { picks: [] } },
  };
  const engine = disposeAfter(t, new GraphEngine(definition, { checkpointer: store }));
  const paused = await engine.execute({}, { threadId: 'p' });
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(paused.interrupts.map((i) => [i.id, i.node]), [['left:2.0:0', 'left'], ['right:2.1:0', 'right']]);
  assert.deepEqual(paused.state.picks, [], 'nothing of the step is applied yet');

  const refused = async (value, code, text) => {
    const e = await engine.resume({ threadId: 'p' }, value).then(() => null, (x) => x);
    assert.ok(e instanceof EdgegraphError, `${JSON.stringify(value)} must be refused`);
    assert.equal(e.code, code);
    assert.match(e.message, text);
  };
  await refused('yes', 'MISSING_RESUME_ANSWER', /2 interrupts are pending \('left:2.0:0', 'right:2.1:0'\)/);
  await refused({ 'left:2.0:0': 'a' }, 'MISSING_RESUME_ANSWER', /no answer for interrupt 'right:2.1:0' of node 'right'/);
  await refused({ 'left:2.0:0': 'a', 'right:2.1:0': 'b', 'nope:9.9:9': 'c' }, 'UNKNOWN_INTERRUPT', /'nope:9.9:9', which is not pending/);
  const thread = await engine.getState('p');
  assert.equal(thread?.status, 'PAUSED', 'the thread is as it was');
  assert.deepEqual(thread?.interrupts, paused.interrupts, 'getState lists what waits for an answer');

  const done = await disposeAfter(t, new GraphEngine(definition, { checkpointer: store })).resume({ threadId: 'p' }, new Command({ resume: { 'left:2.0:0': 'L', 'right:2.1:0': 'R' } }));
  assert.equal(done.status, 'FINISHED');
  // The kept result (quick finished before the pause) first, then the resumed branches' in branch order, whatever ran when.
  assert.deepEqual(done.state.picks, ['quick', 'left=L', 'right=R'], 'kept first, then branch order');
  assert.equal(done.state.data.all, 'quick left=L right=R');
  assert.deepEqual(runs, { left: 2, right: 2, quick: 1 }, 'the finished sibling did not run again');
});

test('a subgraph\'s interrupt bubbles up to the caller with a prefixed id; resuming the parent answers it and the child continues', async (t) => {
  let asked = 0;
  const child = {
    nodes: { ask: (s, e, ctx) => { asked++; return { data: { ok: ctx.interrupt({ q: 'approve?' }) } }; }, finish: (s) => ({ data: { verdict: s.data.ok ? 'approved' : 'rejected' } }) },
    edges: { ask: 'finish', finish: '__end__' },
    entryPoint: 'ask',
  };
  const definition = {
    nodes: {
      write: () => ({ data: { draft: 'v1' } }),
      review: { kind: 'subgraph', graph: child, output: (c) => ({ data: { verdict: c.data.verdict } }) },
      publish: (s) => ({ logs: [`publish: ${s.data.verdict}`] }),
    },
    edges: { write: 'review', review: 'publish', publish: '__end__' },
    entryPoint: 'write',
  };
  const paused = await disposeAfter(t, new GraphEngine(definition)).execute({});
  assert.equal(paused.status, 'PAUSED');
  assert.deepEqual(paused.interrupts, [{ id: 'review:2.0/ask:1.0:0', value: { q: 'approve?' }, node: 'review' }]);
  const stored = JSON.parse(JSON.stringify(paused.checkpoint));
  const done = await disposeAfter(t, new GraphEngine(definition)).resume(stored, true);
  assert.equal(done.status, 'FINISHED');
  assert.deepEqual(done.state.logs, ['publish: approved']);
  assert.equal(asked, 2);
  const byId = await disposeAfter(t, new GraphEngine(definition)).resume(stored, { 'review:2.0/ask:1.0:0': false });
  assert.deepEqual(byId.state.logs, ['publish: rejected']);
});

test('the global interrupt(): within a node\'s call (and after await where AsyncLocalStorage exists); outside a node it is a typed error', async (t) => {
  assert.throws(() => interrupt('x'), (e) => e.code === 'INTERRUPT_OUTSIDE_NODE' && /outside a node/.test(e.message));
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      sync: () => ({ data: { a: interrupt('a?') } }),
      later: async () => { await tick(); return { data: { b: interrupt('b?') } }; },
    },
    edges: { sync: 'later', later: '__end__' },
    entryPoint: 'sync',
  }));
  const first = await engine.execute({});
  assert.equal(first.interrupts[0].value, 'a?');
  const second = await engine.resume(first.checkpoint, 1);
  assert.equal(second.interrupts[0].value, 'b?', 'Node has AsyncLocalStorage: the global works after an await');
  const done = await engine.resume(second.checkpoint, 2);
  assert.deepEqual(done.state.data, { a: 1, b: 2 });
});

test('an interrupt is never retried by a retry policy, and a catch-all can tell it apart (isGraphInterrupt)', async (t) => {
  let tries = 0;
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      n: {
        handler: (s, e, ctx) => {
          tries++;
          try { return { data: { v: ctx.interrupt('v?') } }; } catch (err) { if (isGraphInterrupt(err)) throw err; return { data: { v: 'swallowed' } }; }
        },
        retry: { attempts: 5, backoffMs: 1 },
      },
    },
    edges: { n: '__end__' },
    entryPoint: 'n',
  }));
  const paused = await engine.execute({});
  assert.equal(paused.status, 'PAUSED');
  assert.equal(tries, 1);
  assert.equal((await engine.resume(paused.checkpoint, 'ok')).state.data.v, 'ok');
});

test('resume without an answer runs the node again, which asks again; an answer while nothing is pending is UNKNOWN_INTERRUPT', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({ nodes: { n: (s, e, ctx) => ({ data: { v: ctx.interrupt('v?') } }) }, edges: { n: '__end__' }, entryPoint: 'n' }));
  const paused = await engine.execute({});
  const again = await engine.resume(paused.checkpoint);
  assert.deepEqual(again.interrupts, paused.interrupts);
  const other = disposeAfter(t, new GraphEngine({ nodes: { ask: () => ({ shouldPause: true }) }, edges: { ask: '__end__' }, entryPoint: 'ask' }));
  const p = await other.execute({});
  await assert.rejects(other.resume(p.checkpoint, new Command({ resume: 'x' })), (e) => e.code === 'UNKNOWN_INTERRUPT' && /no interrupt is pending/.test(e.message));
});

test('two subgraphs in parallel branches both interrupt: one pause, ids told apart by the parent task; a map answers both; stream() shows the pause', async (t) => {
  const child = (label) => ({
    nodes: { ask: (s, e, ctx) => ({ data: { answer: `${label}:${ctx.interrupt(`${label}?`)}` } }) },
    edges: { ask: '__end__' },
    entryPoint: 'ask',
  });
  const definition = {
    nodes: {
      split: () => ({}),
      left: { kind: 'subgraph', graph: child('L'), output: (c) => ({ got: [c.data.answer] }) },
      right: { kind: 'subgraph', graph: child('R'), output: (c) => ({ got: [c.data.answer] }) },
    },
    edges: { split: ['left', 'right'], left: '__end__', right: '__end__' },
    entryPoint: 'split',
    state: { shape: 'frame', reducers: { got: 'concat' }, defaults: { got: [] } },
  };
  const engine = disposeAfter(t, new GraphEngine(definition));
  const events = [];
  for await (const event of engine.stream({})) events.push(event);
  const pause = events.find((e) => e.type === 'pause');
  assert.deepEqual(pause?.interrupts?.map((i) => i.id), ['left:2.0/ask:1.0:0', 'right:2.1/ask:1.0:0']);
  const interruptedEnds = events.filter((e) => e.type === 'node_end' && e.interrupted).map((e) => e.node);
  assert.deepEqual(interruptedEnds, ['left', 'right']);
  const last = events.at(-1);
  assert.equal(last?.type, 'run_end');
  const paused = last.type === 'run_end' ? last.result : undefined;
  const done = await engine.resume(paused?.checkpoint, { 'left:2.0/ask:1.0:0': 'yes', 'right:2.1/ask:1.0:0': 'no' });
  assert.deepEqual(done.state.got, ['L:yes', 'R:no']);
});

test('resume with a bare value when no interrupt is pending is INVALID_INPUT saying what to pass', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({ nodes: { ask: () => ({ shouldPause: true }) }, edges: { ask: '__end__' }, entryPoint: 'ask' }));
  const paused = await engine.execute({});
  await assert.rejects(engine.resume(paused.checkpoint, 'yes'), (e) => e.code === 'INVALID_INPUT' && /no interrupt is pending/.test(e.message) && /role: 'user'/.test(e.message));
});
