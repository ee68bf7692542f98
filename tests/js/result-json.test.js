// No silent data loss: a node result holding what JSON would change or drop
// is an INVALID_RESULT naming the node and the path; toJSON values (Date)
// keep JSON's meaning; the failed run still returns its state.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine } from '../../dist/node.js';

class Point { constructor() { this.x = 1; } }

const cases = [
  ['a Map', { data: { index: new Map([['a', 1]]) } }, 'data.index', /Map/],
  ['a Set', { data: { tags: new Set(['a']) } }, 'data.tags', /Set/],
  ['a typed array', { data: { bytes: new Uint8Array([1, 2]) } }, 'data.bytes', /Uint8Array/],
  ['an ArrayBuffer', { data: { buf: new ArrayBuffer(4) } }, 'data.buf', /ArrayBuffer/],
  ['a class instance without toJSON', { data: { items: [1, 2, new Point()] } }, 'data.items[2]', /Point/],
  ['a function', { data: { cb: () => 1 } }, 'data.cb', /a function/],
  ['a symbol', { data: { s: Symbol('x') } }, 'data.s', /a symbol/],
  ['NaN', { data: { score: NaN } }, 'data.score', /NaN/],
  ['Infinity', { metadata: { ratio: -Infinity } }, 'metadata.ratio', /-Infinity/],
  ['undefined in a list', { data: { list: [1, undefined] } }, 'data.list[1]', /undefined in a list/],
  ['a BigInt', { data: { n: 10n } }, 'data.n', /a BigInt/],
  ['a cycle', (() => { const o = { data: { list: [] } }; o.data.list.push({ up: o.data }); return o; })(), 'data.list[0].up', /a cycle/],
];

for (const [label, result, path, what] of cases) {
  test(`a result holding ${label} is INVALID_RESULT naming the node and '${path}'`, async () => {
    const engine = new GraphEngine({ nodes: { first: () => ({ data: { kept: true } }), producer: () => result }, edges: { first: 'producer', producer: '__end__' }, entryPoint: 'first' });
    const r = await engine.execute({});
    assert.equal(r.status, 'ERROR');
    assert.equal(r.error.code, 'INVALID_RESULT');
    assert.equal(r.error.node, 'producer');
    assert.match(r.error.message, /'producer'/);
    assert.ok(r.error.message.includes(`'${path}'`), r.error.message);
    assert.match(r.error.message, what);
    assert.equal(r.state.data.kept, true, 'the partial state is returned');
    engine.dispose();
  });
}

test('toJSON values and boxed primitives keep JSON\'s meaning; undefined properties are left out; null-prototype objects and shared references are data', async () => {
  const when = new Date('2026-11-22T10:00:00Z');
  const bare = Object.assign(Object.create(null), { k: 'v' });
  const shared = { id: 1 };
  const engine = new GraphEngine({ nodes: { a: () => ({ data: { when, skip: undefined, bare, nested: { list: [null, 1, 'x'] }, boxed: [new String('s'), new Number(2), new Boolean(false)], pair: [shared, shared] } }) }, edges: { a: '__end__' }, entryPoint: 'a' });
  const r = await engine.execute({});
  assert.equal(r.status, 'FINISHED', r.error?.message);
  assert.equal(r.state.data.when, '2026-11-22T10:00:00.000Z');
  assert.equal('skip' in r.state.data, false);
  assert.deepEqual(r.state.data.bare, { k: 'v' });
  assert.deepEqual(r.state.data.nested, { list: [null, 1, 'x'] });
  assert.deepEqual(r.state.data.boxed, ['s', 2, false]);
  assert.deepEqual(r.state.data.pair, [{ id: 1 }, { id: 1 }]);
  engine.dispose();
});

test('a boxed NaN is refused like NaN; a toJSON that throws is INVALID_RESULT with its message', async () => {
  for (const [result, what] of [[{ data: { n: new Number(NaN) } }, /NaN at 'data.n'/], [{ data: { t: { toJSON() { throw new Error('no JSON for me'); } } } }, /no JSON for me/]]) {
    const engine = new GraphEngine({ nodes: { a: () => result }, edges: { a: '__end__' }, entryPoint: 'a' });
    const r = await engine.execute({});
    assert.equal(r.error?.code, 'INVALID_RESULT');
    assert.match(r.error.message, what);
    engine.dispose();
  }
});
