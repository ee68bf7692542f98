// A test file run by leak-guard.test.js under node --test with the leak guard
// preloaded: with LEAK=1 its first test drops a GraphEngine and a StateManager
// without dispose(); its second test disposes what it makes either way.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, StateManager } from 'edgegraph';
import { disposeAfter } from './dispose.js';

const definition = { nodes: { a: () => ({ data: { ran: true } }) }, edges: { a: '__end__' }, entryPoint: 'a' };

test('drops what it made when LEAK=1', async () => {
  const engine = new GraphEngine(definition);
  const state = new StateManager();
  assert.equal((await engine.execute({})).state.data.ran, true);
  if (process.env.LEAK !== '1') { engine.dispose(); state.dispose(); }
});

test('disposes what it made', async (t) => {
  const engine = disposeAfter(t, new GraphEngine(definition));
  assert.equal((await engine.execute({})).state.data.ran, true);
});
