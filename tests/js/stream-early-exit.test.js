// A stream streams: with synchronous nodes and no checkpointer, the consumer
// gets the first chunk within the first steps, not after the whole run, and
// leaving the loop stops the run a few steps on (the rest never run). Both
// edgegraph's own stream() and edgegraph/langgraph's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine } from '../../dist/node.js';
import { StateGraph, MessagesAnnotation, START, END } from '../../dist/langgraph.js';

const N = 200;

test('edgegraph stream(): leaving the loop after the first node stops a chain of synchronous nodes within a few steps (the consumer runs between steps)', async () => {
  let ran = 0;
  const nodes = {}, edges = {};
  for (let i = 0; i < N; i++) {
    nodes[`n${i}`] = () => { ran++; return { data: { [`k${i}`]: i } }; };
    edges[`n${i}`] = i + 1 < N ? `n${i + 1}` : '__end__';
  }
  const engine = new GraphEngine({ nodes, edges, entryPoint: 'n0' });
  for await (const chunk of engine.stream({}, { streamMode: 'updates' })) {
    assert.deepEqual(chunk, { n0: { data: { k0: 0 } } });
    break;
  }
  assert.ok(ran < 10, `the run went on after the consumer left: ${ran} of ${N} nodes ran`);
  engine.dispose();
});

test('edgegraph/langgraph stream(): the first chunk arrives within the first steps, and break stops the run (not after all 200 nodes)', async () => {
  let ran = 0;
  const builder = new StateGraph(MessagesAnnotation);
  let previous = START;
  for (let i = 0; i < N; i++) {
    builder.addNode(`node_${i}`, () => { ran++; return {}; });
    builder.addEdge(previous, `node_${i}`);
    previous = `node_${i}`;
  }
  const graph = builder.addEdge(previous, END).compile();
  let firstAt = -1;
  for await (const chunk of await graph.stream({ messages: [] }, { streamMode: 'updates' })) {
    firstAt = ran;
    assert.ok('node_0' in chunk, JSON.stringify(chunk));
    break;
  }
  assert.ok(firstAt >= 1 && firstAt < 10, `the first chunk came after ${firstAt} nodes`);
  assert.ok(ran < 10, `the run went on after the consumer left: ${ran} of ${N} nodes ran`);
});
