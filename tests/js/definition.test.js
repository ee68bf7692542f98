// A graph's identity and its typos: run options never change graphHash (so
// tuning a limit keeps paused threads resumable), and a misspelt key is an
// error that lists the known ones instead of vanishing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine } from '../../dist/node.js';

const definition = () => ({
  nodes: { ask: () => ({ pendingAskUser: { question: 'go?' } }), answer: () => ({ data: { done: true } }) },
  edges: { ask: 'answer', answer: '__end__' },
  entryPoint: 'ask',
});

test('maxSteps and limits never enter graphHash: a checkpoint of one resumes in the other', async () => {
  const plain = new GraphEngine(definition());
  const tuned = new GraphEngine(definition(), { maxSteps: 7, limits: { maxStateBytes: 1 << 20 } });
  const inDefinition = new GraphEngine({ ...definition(), maxSteps: 50 });
  assert.equal(tuned.graphHash, plain.graphHash);
  assert.equal(inDefinition.graphHash, plain.graphHash);
  const paused = await plain.execute({});
  assert.equal(paused.status, 'PAUSED');
  const done = await tuned.resume(paused.checkpoint, { role: 'user', content: 'yes' });
  assert.equal(done.status, 'FINISHED', done.error?.message);
  assert.equal(done.state.data.done, true);
  // A different shape is still a different graph.
  const other = new GraphEngine({ ...definition(), edges: { ask: 'answer', answer: '__end__' }, entryPoint: 'ask', name: 'renamed' });
  assert.notEqual(other.graphHash, plain.graphHash);
  for (const e of [plain, tuned, inDefinition, other]) e.dispose();
});

test('an unknown top-level definition key is INVALID_DEFINITION listing the known ones', () => {
  for (const typo of ['entrypoint', 'edge', 'reducers', 'maxStep']) {
    assert.throws(() => new GraphEngine({ ...definition(), [typo]: 1 }), (e) => e.code === 'INVALID_DEFINITION'
      && e.message.includes(`'${typo}'`) && e.message.includes('entryPoint') && e.message.includes('edges'));
  }
});
