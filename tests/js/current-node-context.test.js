// currentNodeContext(): the running node's context for code that has none at hand, found as the
// global interrupt() finds its node; on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, currentNodeContext } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

test('currentNodeContext() is the node\'s own context during its call, after an await of an async node, and a subgraph\'s node\'s inside it; undefined outside', async (t) => {
  const seen = [];
  const note = (where, ctx) => seen.push([where, currentNodeContext() === ctx, currentNodeContext()?.node]);
  const child = disposeAfter(t, new GraphEngine({
    nodes: { inner: (s, e, ctx) => { note('inner', ctx); return {}; } },
    edges: { inner: '__end__' },
    entryPoint: 'inner',
  }));
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      sync: (s, e, ctx) => { note('sync', ctx); return {}; },
      later: async (s, e, ctx) => { await new Promise((r) => setImmediate(r)); note('later', ctx); return {}; },
      sub: { kind: 'subgraph', graph: child },
      after: (s, e, ctx) => { note('after', ctx); return {}; },
    },
    edges: { sync: 'later', later: 'sub', sub: 'after', after: '__end__' },
    entryPoint: 'sync',
  }));
  const result = await engine.execute({});
  assert.equal(result.status, 'FINISHED');
  assert.deepEqual(seen, [['sync', true, 'sync'], ['later', true, 'later'], ['inner', true, 'inner'], ['after', true, 'after']]);
  assert.equal(currentNodeContext(), undefined);
});

test('currentNodeContext() after an await of a node returning a promise inside a subgraph is that node\'s, not the subgraph node\'s; in a router it is undefined', async (t) => {
  const seen = [];
  const later = (f) => new Promise((r) => setImmediate(r)).then(f);
  const child = disposeAfter(t, new GraphEngine({
    nodes: { inner: (s, e, ctx) => later(() => { seen.push(['inner', currentNodeContext() === ctx]); return {}; }), last: () => ({}) },
    edges: { inner: { router: () => { seen.push(['router', currentNodeContext()]); return 'last'; }, targets: ['last'] }, last: '__end__' },
    entryPoint: 'inner',
  }));
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { sub: { kind: 'subgraph', graph: child } },
    edges: { sub: '__end__' },
    entryPoint: 'sub',
  }));
  assert.equal((await engine.execute({})).status, 'FINISHED');
  assert.deepEqual(seen, [['inner', true], ['router', undefined]]);
});
