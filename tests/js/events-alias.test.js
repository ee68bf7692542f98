// Events carry data the caller may keep and change: applying state_update
// patches to a copy of the state (as the types suggest) and editing that copy
// never reaches the run's own state, nor what its checkpoints store.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, MemoryStore, applyPatch } from '../../dist/node.js';

const definition = () => ({
  nodes: {
    a: () => ({ docs: ['a'] }),
    b: (s) => ({ docs: ['b'], seen: s.docs.join(',') }),
    c: (s) => ({ seenByC: s.docs.join(',') }),
  },
  edges: { a: 'b', b: 'c', c: '__end__' },
  entryPoint: 'a',
  state: { reducers: { docs: 'concat' }, defaults: { docs: [] } },
});

test('a caller applying state_update patches to its own copy does not change the run', async () => {
  const engine = new GraphEngine(definition(), { checkpointer: new MemoryStore() });
  const copy = {};
  const result = await engine.execute({}, {
    threadId: 'alias',
    onEvent: (e) => {
      if (e.type !== 'state_update') return;
      applyPatch(copy, e.patch);
      // The caller owns what it was given: change it freely.
      for (const op of e.patch) if (Array.isArray(op[2])) op[2].push('caller');
    },
  });
  assert.equal(result.status, 'FINISHED');
  assert.deepEqual(result.state.docs, ['a', 'b']);
  assert.equal(result.state.seen, 'a');
  assert.equal(result.state.seenByC, 'a,b');
  assert.deepEqual(copy.docs, ['a', 'b'], 'the copy followed the run');
  copy.docs.push('edited');
  assert.deepEqual(result.state.docs, ['a', 'b']);
  // What the checkpoints stored is what the run computed, not the caller's edits.
  const saved = await engine.getState('alias');
  assert.deepEqual(saved.state.docs, ['a', 'b']);
  engine.dispose();
});
