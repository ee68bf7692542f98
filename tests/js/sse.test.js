// Run events served as server-sent events from a Node handler on loopback
// and read back by a client.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { GraphEngine, readServerSentEvents, eventStreamResponse } from 'edgegraph';
import { handler } from '../../examples/sse-server.js';
import { researchDefinition, offline } from '../../examples/research-assistant.js';
import { startServer, fromPolicy } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

test('a run streams to a client as server-sent events, ending with run_end', async (t) => {
  // The graph's LLM: the strict OpenAI server, answering with the example's policy.
  const llm = await startServer(fromPolicy(offline));
  const engine = disposeAfter(t, new GraphEngine(researchDefinition({ baseURL: llm.baseURL, model: 'gpt-4o-mini' })));
  const server = createServer(handler(engine));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${server.address().port}/run?idea=music%20and%20focus`);
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const events = [];
    for await (const e of readServerSentEvents(res)) events.push(e);
    assert.equal(events[0].type, 'run_start');
    const end = events.at(-1);
    assert.equal(end.type, 'run_end');
    assert.equal(end.status, 'FINISHED');
    assert.equal(end.state.data.review.status, 'approved');
    assert.deepEqual(events.filter((e) => e.type === 'node_start').map((e) => e.node).slice(0, 3), ['orchestrator', 'structurer', 'methodologist']);
    assert.ok(events.some((e) => e.type === 'state_update' && Array.isArray(e.patch)));
    assert.ok(events.some((e) => e.type === 'llm_token'), 'tokens streamed from the LLM server');
    assert.equal(llm.requests.length, 7, 'classify, then structure and review three times');
  } finally {
    server.close();
    engine.dispose();
    await llm.close();
  }
});

test('an error in the run arrives as a run_end with the error, as data', async (t) => {
  const engine = disposeAfter(t, new GraphEngine({ nodes: { a: () => { throw new Error('nope'); } }, edges: { a: '__end__' }, entryPoint: 'a' }));
  const events = [];
  for await (const e of readServerSentEvents(eventStreamResponse(engine.stream({})))) events.push(e);
  assert.deepEqual(events.at(-1).error, { code: 'NODE_FAILED', message: "node 'a' failed: nope", node: 'a' });
});
