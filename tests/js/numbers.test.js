// Numbers that are not integers cross the core as text both ways through the
// host's conversions (src/eg_number.c, js/core-imports.js), not libc's:
// they must come back as the same doubles, be written as printf's %g rules
// write them (the native build's text), and route and report as before.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, EdgegraphError } from 'edgegraph';
import { disposeAfter } from './support/dispose.js';

// (The expected text below is what Python's and glibc's printf write.)
// Ties in the 15th or 17th digit (printf rounds them to even), extremes,
// subnormals, integers past 2^53, negative zero and values %g writes with an exponent.
const values = [0.1, -0.5, 0.30000000000000004, 1e21, -1e-7, 1.5e-7, 5e-324, 2.2250738585072014e-308,
  1.7976931348623157e308, 123456789012345680000, 2 ** 53 + 2, 1234567890123445, 763849186294976.5,
  81694268598987.81, 1e15 + 0.5, 1e-5, 1e-4, 3.141592653589793, -0, 6.02214076e23];

test('non-integer numbers come back as the same doubles from a run, its checkpoint and a resume', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: {
      a: (s) => ({ data: { negated: s.data.values.map((v) => -v), halves: s.data.values.map((v) => v / 2) }, shouldPause: true }),
      b: (s) => ({ data: { seen: s.data.halves } }),
    },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
  }));
  const paused = await engine.execute({ data: { values } });
  assert.equal(paused.status, 'PAUSED');
  const same = (got, want) => want.forEach((v, i) => assert.ok(got[i] === v, `${got[i]} is not ${v}`)); // (JSON writes -0 as 0)
  same(paused.state.data.values, values);
  same(paused.state.data.negated, values.map((v) => -v));
  const done = await engine.resume(JSON.parse(paused.checkpoint));
  assert.equal(done.status, 'FINISHED');
  same(done.state.data.values, values);
  same(done.state.data.seen, values.map((v) => v / 2));
});

test('the core writes numbers as printf %.15g, or %.17g when 15 digits do not read back', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({ shouldPause: true }) }, edges: { a: '__end__' }, entryPoint: 'a' }));
  const { checkpoint } = await engine.execute({ data: { values } });
  const text = checkpoint.slice(checkpoint.indexOf('"values":[') + 10, checkpoint.indexOf(']', checkpoint.indexOf('"values":[')));
  assert.equal(text, ['0.1', '-0.5', '0.30000000000000004', '1e+21', '-1e-07', '1.5e-07', '4.94065645841247e-324',
    '2.2250738585072014e-308', '1.7976931348623157e+308', '1.2345678901234568e+20', '9007199254740994', '1234567890123445',
    '763849186294976.5', '81694268598987.812', '1000000000000000.5', '1e-05', '0.0001', '3.1415926535897931',
    '0', '6.02214076e+23'].join(','));
});

test('a route on a number matches its text; a bad number in the input is refused, not misread', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({
    nodes: { a: () => ({}), half: () => ({ data: { hit: 'half' } }), other: () => ({ data: { hit: 'other' } }) },
    edges: { a: { path: 'data.x', cases: { 2.5: 'half', '1e+21': 'half' }, default: 'other' }, half: '__end__', other: '__end__' },
    entryPoint: 'a',
  }));
  assert.equal((await engine.execute({ data: { x: 2.5 } })).state.data.hit, 'half');
  assert.equal((await engine.execute({ data: { x: 1e21 } })).state.data.hit, 'half');
  assert.equal((await engine.execute({ data: { x: 2.25 } })).state.data.hit, 'other');
  const bad = await engine.resume('{"format":"edgegraph-checkpoint","version":1e400}').catch((e) => e);
  assert.ok(bad instanceof EdgegraphError);
});

test('a checkpoint of an unknown format version names the version as %g writes it', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => ({ shouldPause: true }) }, edges: { a: '__end__' }, entryPoint: 'a' }));
  const cp = JSON.parse((await engine.execute({})).checkpoint);
  for (const [version, shown] of [[1.5, '1.5'], [0.000012345678, '1.23457e-05'], [1234567.5, '1.23457e+06']]) {
    const error = await engine.resume({ ...cp, version }).catch((e) => e);
    assert.equal(error.code, 'CHECKPOINT_VERSION');
    assert.match(error.message, new RegExp(`checkpoint format version ${shown.replace(/[.+]/g, '\\$&')} is not supported`));
  }
});

test('a route on a number matches the key JavaScript writes for it (String(x)), where %g would write another text', async (t) => {
  // 1e-5 is '0.00001' and 1e15 '1000000000000000' in JavaScript; printf's %g writes 1e-05 and 1e+15.
  for (const x of [0.1, 0.1 + 0.2, 0.7999999999999999, 1.5, -2.25e-9, 1e-5, 0.000123, 1e-7, 1e15, 2 ** 53 + 2, 1e20, 1e21, -1e300]) {
    const engine = disposeAfter(t, new GraphEngine({
      nodes: { a: () => ({ data: { x } }), hit: () => ({ data: { hit: true } }), miss: () => ({ data: { hit: false } }) },
      edges: { a: { path: 'data.x', cases: { [x]: 'hit' }, default: 'miss' }, hit: '__end__', miss: '__end__' },
      entryPoint: 'a',
    }));
    const result = await engine.execute({});
    assert.equal(result.state.data.hit, true, `${x} routed by the key ${String(x)}`);
    engine.dispose();
  }
});
