// core-boundary.test.js: a node's result crosses into the core as JSON text.
// A result whose strings and keys are all well-formed skips core.js's scan for
// lone surrogate escapes (result-json.js knows its text has none); every other
// result is scanned, so a lone surrogate anywhere (a value, a key, what toJSON
// or a boxed string gives) still reaches the state as U+FFFD, and text that
// only looks like an escape (a backslash, then "ud800") stays as it is.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine } from 'edgegraph';

const run = async (result) => {
  const engine = new GraphEngine({ nodes: { a: () => result, b: (s) => ({ data: { seen: s.data } }) }, edges: { a: 'b', b: '__end__' }, entryPoint: 'a' });
  const done = await engine.execute({ data: {} });
  engine.dispose();
  assert.equal(done.status, 'FINISHED', done.error?.message);
  return done.state.data;
};

test('lone surrogates in values, keys, toJSON results and boxed strings become U+FFFD in the state', async () => {
  // One result each: a result is scanned when any of its strings or keys may hold one.
  assert.equal((await run({ data: { text: 'a\ud800b' } })).text, 'a\ufffdb');
  const keyed = await run({ data: { ['key \ud800']: 1, plain: 'ok' } });
  assert.deepEqual(Object.keys(keyed).sort(), ['key \ufffd', 'plain', 'seen']);
  assert.deepEqual(Object.keys(keyed.seen).sort(), ['key \ufffd', 'plain']);   // what the next node read from the core
  assert.equal((await run({ data: { stamp: { toJSON: () => 'at \udc00' } } })).stamp, 'at \ufffd');
  assert.equal((await run({ data: { boxed: new String('x\ud83d') } })).boxed, 'x\ufffd');
  assert.deepEqual((await run({ data: { list: ['ok', 'y\udfff'] } })).list, ['ok', 'y\ufffd']);
  assert.equal((await run({ data: { plain: 'well formed \u{1F600}' } })).plain, 'well formed \u{1F600}');
});

test('well-formed results keep escape-like text and characters above U+FFFF whole, next to a result that was scanned', async () => {
  const text = String.raw`a \ud800 and \\udc00 as text` + ' \u{10FFFF} "quoted" \\ \n';
  const clean = await run({ data: { text, long: `${text}|`.repeat(2000) } });
  assert.equal(clean.text, text);
  assert.equal(clean.long, `${text}|`.repeat(2000));
  // A result with a lone surrogate, then a well-formed one: each handled as itself.
  assert.equal((await run({ data: { text: 'z\ud800' } })).text, 'z\ufffd');
  assert.equal((await run({ data: { text } })).text, text);
});
