// Errors show what matters: what a node threw reaches the result whole (a
// 60-byte cut once turned "...messages with a tool_call_id..." into "...messages wit...").

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine } from '../../dist/node.js';

test("a node's thrown message reaches result.error and state.error whole", async () => {
  const long = `Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'. ${'details '.repeat(250)}end`;
  const engine = new GraphEngine({ nodes: { a: () => { throw new Error(long); } }, edges: { a: '__end__' }, entryPoint: 'a' });
  const r = await engine.execute({});
  assert.equal(r.status, 'ERROR');
  assert.equal(r.error.code, 'NODE_FAILED');
  assert.equal(r.error.node, 'a');
  assert.ok(r.error.message.includes(long), `got ${r.error.message.length} bytes`);
  assert.ok(r.state.error.message.includes(long));
  engine.dispose();
});

test('a message past the 4 KB cap is cut at a character boundary with "..."', async () => {
  const huge = 'é'.repeat(5000);
  const engine = new GraphEngine({ nodes: { a: () => { throw new Error(huge); } }, edges: { a: '__end__' }, entryPoint: 'a' });
  const r = await engine.execute({});
  assert.ok(r.error.message.endsWith('é...'), r.error.message.slice(-10));
  assert.ok(r.error.message.length > 1800 && !r.error.message.includes('\uFFFD'));
  engine.dispose();
});

test('an error edge hands the next node the thrown message whole, capped like the run error', async () => {
  const long = 'why: '.repeat(400);
  const huge = 'é'.repeat(5000);
  for (const [thrown, whole] of [[long, true], [huge, false]]) {
    const engine = new GraphEngine({
      nodes: { a: { handler: () => { throw new Error(thrown); }, onError: 'recover' }, recover: (s) => ({ data: { seen: s.lastError.message } }) },
      edges: { a: '__end__', recover: '__end__' },
      entryPoint: 'a',
    });
    const r = await engine.execute({});
    assert.equal(r.status, 'FINISHED', r.error?.message);
    if (whole) assert.equal(r.state.data.seen, long);
    else assert.ok(r.state.data.seen.length < 4096 && r.state.data.seen.endsWith('é...'));
    engine.dispose();
  }
});
