// A graph's identity and its typos: run options never change graphHash (so
// tuning a limit keeps paused threads resumable), and a misspelt key is an
// error that lists the known ones instead of vanishing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, InMemoryCache } from '../../dist/node.js';
import { disposeAfter } from './support/dispose.js';

const definition = () => ({
  nodes: { ask: () => ({ pendingAskUser: { question: 'go?' } }), answer: () => ({ data: { done: true } }) },
  edges: { ask: 'answer', answer: '__end__' },
  entryPoint: 'ask',
});

test('maxSteps and limits never enter graphHash: a checkpoint of one resumes in the other', async (t) => {
  const plain = disposeAfter(t, new GraphEngine(definition()));
  const tuned = disposeAfter(t, new GraphEngine(definition(), { maxSteps: 7, limits: { maxStateBytes: 1 << 20 } }));
  const inDefinition = disposeAfter(t, new GraphEngine({ ...definition(), maxSteps: 50 }));
  assert.equal(tuned.graphHash, plain.graphHash);
  assert.equal(inDefinition.graphHash, plain.graphHash);
  const paused = await plain.execute({});
  assert.equal(paused.status, 'PAUSED');
  const done = await tuned.resume(paused.checkpoint, { role: 'user', content: 'yes' });
  assert.equal(done.status, 'FINISHED', done.error?.message);
  assert.equal(done.state.data.done, true);
  // A different shape is still a different graph.
  const other = disposeAfter(t, new GraphEngine({ ...definition(), edges: { ask: 'answer', answer: '__end__' }, entryPoint: 'ask', name: 'renamed' }));
  assert.notEqual(other.graphHash, plain.graphHash);
  for (const e of [plain, tuned, inDefinition, other]) e.dispose();
});

test('graphHash is worked out on first use: a checkpoint written first carries the value graphHash reads later', async (t) => {
  const fresh = disposeAfter(t, new GraphEngine(definition()));
  const paused = await fresh.execute({});   // its checkpoint asks the core for the hash first
  assert.equal(paused.status, 'PAUSED');
  const asked = disposeAfter(t, new GraphEngine(definition()));
  assert.equal(JSON.parse(paused.checkpoint).graph, fresh.graphHash);
  assert.equal(fresh.graphHash, asked.graphHash);
  // And a graph that never needs it is freed with the definition it kept for it.
  disposeAfter(t, new GraphEngine(definition())).dispose();
  for (const e of [fresh, asked]) e.dispose();
});

test('an unknown top-level definition key is INVALID_DEFINITION listing the known ones', () => {
  for (const typo of ['entrypoint', 'edge', 'reducers', 'maxStep']) {
    assert.throws(() => new GraphEngine({ ...definition(), [typo]: 1 }), (e) => e.code === 'INVALID_DEFINITION'
      && e.message.includes(`'${typo}'`) && e.message.includes('entryPoint') && e.message.includes('edges'));
  }
  // So is one JSON cannot hold (a misspelt callback, a bigint), and an own __proto__ key (JSON.parse makes one).
  for (const [key, value] of [['migration', (s) => s], ['onEvent', () => {}], ['big', 1n], ['__proto__', { entryPoint: 'x' }]]) {
    const bad = { ...definition() };
    Object.defineProperty(bad, key, { value, enumerable: true });
    assert.throws(() => new GraphEngine(bad), (e) => e.code === 'INVALID_DEFINITION' && e.message.includes(`'${key}'`), key);
  }
});

test("an edge to END, end or __END__ says did you mean '__end__'", (t) => {
  for (const typo of ['END', 'end', '__END__']) {
    assert.throws(() => new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: typo }, entryPoint: 'a' }),
      (e) => e.code === 'UNKNOWN_NODE' && e.message.includes(`'${typo}'`) && e.message.includes("did you mean '__end__'?"));
  }
  // A node really named 'end' is a node, not a typo.
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({}), end: () => ({}) }, edges: { a: 'end', end: '__end__' }, entryPoint: 'a' }));
  engine.dispose();
});

test('a map edge over a path absent from the state is an error naming it; an empty list is fine', async (t) => {
  const def = (items) => ({
    nodes: { plan: () => (items === undefined ? {} : { data: { items } }), work: (s, e, c) => ({ data: { done: [c.arg] } }) },
    edges: { plan: { map: 'data.items', to: 'work' }, work: '__end__' },
    entryPoint: 'plan',
  });
  const absent = await disposeAfter(t, new GraphEngine(def(undefined))).execute({ data: {} });
  assert.equal(absent.status, 'ERROR');
  assert.equal(absent.error.code, 'NO_ROUTE');
  assert.match(absent.error.message, /state\.data\.items does not exist/);
  assert.match(absent.error.message, /'plan'/);
  const empty = await disposeAfter(t, new GraphEngine(def([]))).execute({ data: {} });
  assert.equal(empty.status, 'FINISHED', empty.error?.message);
});

test('a node reached only by nextNodeOverride runs when declared jumpTarget (the seed\'s way); undeclared, the error says how', async (t) => {
  const nodes = { start: () => ({ nextNodeOverride: 'special' }), normal: () => ({ data: { via: 'normal' } }) };
  assert.throws(() => new GraphEngine({ nodes: { ...nodes, special: () => ({ data: { via: 'special' } }) }, edges: { start: 'normal', normal: '__end__', special: '__end__' }, entryPoint: 'start' }),
    (e) => e.code === 'UNREACHABLE_NODE' && e.message.includes("'special'") && e.message.includes('jumpTarget: true'));
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { ...nodes, special: { handler: () => ({ data: { via: 'special' } }), jumpTarget: true } },
    edges: { start: 'normal', normal: '__end__', special: '__end__' },
    entryPoint: 'start',
  }));
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED', r.error?.message);
  assert.equal(r.state.data.via, 'special');
  engine.dispose();
});

test('toMermaid() draws every edge kind, map edges included, from the same walk as the demo diagram', async (t) => {
  const { graphEdges } = await import('../../dist/node.js');
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { plan: () => ({}), split: () => ({}), a: () => ({}), b: () => ({}), worker: () => ({}), join: () => ({}), check: () => ({}), route: () => ({}) },
    edges: {
      plan: 'split',
      split: ['a', 'b'],
      a: { map: 'data.items', to: 'worker', empty: 'join' },
      b: 'join',
      worker: 'join',
      join: { path: 'data.ok', cases: { true: 'check' }, default: 'route' },
      check: { default: '__end__' },
      route: { router: () => 'check', targets: ['check', '__end__'] },
    },
    entryPoint: 'plan',
  }));
  const m = engine.toMermaid();
  const id = (name) => `n${Object.keys(engine.definition.nodes).indexOf(name)}`;
  for (const line of [
    `__start --> ${id('plan')}`,
    `${id('plan')} --> ${id('split')}`,
    `${id('split')} -->|"parallel"| ${id('a')}`,
    `${id('a')} -.->|"each of data.items"| ${id('worker')}`,
    `${id('a')} -.->|"empty list"| ${id('join')}`,
    `${id('join')} -.->|"data.ok = true"| ${id('check')}`,
    `${id('join')} -.->|"otherwise"| ${id('route')}`,
    `${id('route')} -.->|"route()"| __end`,
    `${id('check')} --> __end`,
  ]) assert.ok(m.includes(`  ${line}\n`), `${line}\n${m}`);
  // One arrow per edge of the walk the demo draws: nothing drawn in one place and not the other.
  const arrows = m.split('\n').filter((l) => l.includes('->')).length;
  assert.equal(arrows, graphEdges(engine.definition).length);
  engine.dispose();
});

test("a node's retry, timeoutMs and description never change graphHash", (t) => {
  const plain = disposeAfter(t, new GraphEngine(definition()));
  const tuned = disposeAfter(t, new GraphEngine({ ...definition(), nodes: { ...definition().nodes, answer: { handler: () => ({}), retry: { attempts: 3 }, timeoutMs: 500, description: 'answers' } } }));
  assert.equal(tuned.graphHash, plain.graphHash);
  plain.dispose(); tuned.dispose();
});

test('engine.definition is the JSON the core validated: functions and cache policies left out, every other field as given, in every node form', async (t) => {
  class Step { constructor() { this.description = 'a class instance'; this.handler = () => ({ data: { step: true } }); } }
  const calls = [];
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      plain: () => ({ data: { plain: 1 } }),
      object: { handler: () => ({ data: { object: 1 } }), description: 'an object', timeoutMs: 1000 },
      named: { run: (s) => ({ data: { named: s.data.object } }), handler: 'shared', jumpTarget: true },
      cached: { handler: () => { calls.push(1); return { data: { cached: 1 } }; }, cache: { ttlMs: 60_000 } },
      step: new Step(),
    },
    edges: { plain: 'object', object: 'named', named: 'cached', cached: (s) => (s.data.cached ? 'step' : '__end__'), step: '__end__' },
    entryPoint: 'plain',
  }, { handlers: { shared: () => ({}) }, cache: new InMemoryCache(), retry: { attempts: 2 } }));
  assert.deepEqual(engine.definition.nodes, {
    plain: { retry: { attempts: 2 } },
    object: { description: 'an object', timeoutMs: 1000, retry: { attempts: 2 } },
    named: { handler: 'shared', jumpTarget: true, retry: { attempts: 2 } },
    cached: { retry: { attempts: 2 } },
    step: { description: 'a class instance', retry: { attempts: 2 } },
  });
  assert.deepEqual(engine.definition.edges, { plain: 'object', object: 'named', named: 'cached', cached: { router: 'cached' }, step: '__end__' });
  // The functions run: each node's own (and `named`'s handler name binds to options.handlers, which wins over run).
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED', r.error?.message);
  assert.deepEqual(r.state.data, { plain: 1, object: 1, cached: 1, step: true });
  assert.equal(calls.length, 1);
  engine.dispose();
});
