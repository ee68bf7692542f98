// Leaving a stream stops the run: a `break` out of engine.stream(), and an
// SSE client that disconnects from eventStreamResponse, abort it. The node in
// flight sees its signal fire, and no later node (no later side effect) runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GraphEngine, eventStreamResponse } from '../../dist/node.js';

/** a waits until its signal aborts; b is the side effect that must not happen. */
function graph(log) {
  let aborted;
  const abortSeen = new Promise((r) => { aborted = r; });
  const engine = new GraphEngine({
    nodes: {
      a: (state, e, context) => new Promise((resolve) => {
        log.push('a started');
        context.signal.addEventListener('abort', () => { log.push('a aborted'); aborted(); resolve({}); }, { once: true });
      }),
      b: () => { log.push('b ran'); return {}; },
    },
    edges: { a: 'b', b: '__end__' },
    entryPoint: 'a',
  });
  return { engine, abortSeen };
}

test('break out of for await (engine.stream()) aborts the run: the node in flight is signalled, the next never runs', async () => {
  const log = [];
  const { engine, abortSeen } = graph(log);
  let ended;
  const runEnd = new Promise((r) => { ended = r; });
  for await (const event of engine.stream({}, { onEvent: (e) => { if (e.type === 'run_end') ended(e); } })) {
    if (event.type === 'node_start' && event.node === 'a') break;
  }
  await abortSeen;
  const end = await runEnd;
  assert.equal(end.status, 'INTERRUPTED');
  assert.equal(end.result.error.code, 'ABORTED');
  assert.deepEqual(log, ['a started', 'a aborted']);
  engine.dispose();
});

test('an SSE client that disconnects from eventStreamResponse aborts the run', async () => {
  const log = [];
  const { engine, abortSeen } = graph(log);
  let ended;
  const runEnd = new Promise((r) => { ended = r; });
  const server = createServer((req, res) => {
    const left = new AbortController();
    res.on('close', () => left.abort());
    const response = eventStreamResponse(engine.stream({}, { onEvent: (e) => { if (e.type === 'run_end') ended(e); } }), { signal: left.signal });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    pipeline(Readable.fromWeb(response.body), res).catch(() => {});
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    // A real client: read until node a has started, then hang up.
    await new Promise((resolve, reject) => {
      const req = get(`http://127.0.0.1:${server.address().port}/`, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
          if (text.includes('event: node_start')) { req.destroy(); resolve(); }
        });
      });
      req.on('error', (e) => (e.code === 'ECONNRESET' ? resolve() : reject(e)));
    });
    await abortSeen;
    const end = await runEnd;
    assert.equal(end.status, 'INTERRUPTED');
    assert.deepEqual(log, ['a started', 'a aborted']);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    engine.dispose();
  }
});

test('a consumer that reads to the end is not aborted', async () => {
  const log = [];
  const engine = new GraphEngine({ nodes: { a: () => { log.push('a'); return {}; }, b: () => { log.push('b'); return {}; } }, edges: { a: 'b', b: '__end__' }, entryPoint: 'a' });
  const types = [];
  for await (const e of engine.stream({})) types.push(e.type);
  assert.equal(types.at(-1), 'run_end');
  assert.deepEqual(log, ['a', 'b']);
  engine.dispose();
});
