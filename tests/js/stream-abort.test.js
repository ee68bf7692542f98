// Leaving a stream stops the run: a `break` out of engine.stream(), and an
// SSE client that disconnects from eventStreamResponse, abort it. The node in
// flight sees its signal fire, and no later node (no later side effect) runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GraphEngine, eventStreamResponse } from '../../dist/node.js';

/**
 * a waits until its signal aborts; b is the side effect that must not happen.
 * With `ask`, the graph first pauses for the user (for streamResume).
 */
function graph(log, { ask = false } = {}) {
  let aborted;
  const abortSeen = new Promise((r) => { aborted = r; });
  const nodes = {
    a: (state, e, context) => new Promise((resolve) => {
      log.push('a started');
      context.signal.addEventListener('abort', () => { log.push('a aborted'); aborted(); resolve({}); }, { once: true });
    }),
    b: () => { log.push('b ran'); return {}; },
  };
  const edges = { a: 'b', b: '__end__' };
  if (ask) { nodes.ask = () => ({ pendingAskUser: { question: 'go?' } }); edges.ask = 'a'; }
  const engine = new GraphEngine({ nodes, edges, entryPoint: ask ? 'ask' : 'a' });
  return { engine, abortSeen };
}

/** The run_end event, whoever reads the stream. */
function runEnded() {
  let ended;
  const runEnd = new Promise((r) => { ended = r; });
  return { runEnd, onEvent: (e) => { if (e.type === 'run_end') ended(e); } };
}

/** The run ended INTERRUPTED (ABORTED): a saw its signal fire and b never ran. Returns run_end. */
async function stoppedAtA({ abortSeen, runEnd }, log) {
  await abortSeen;
  const end = await runEnd;
  assert.equal(end.status, 'INTERRUPTED');
  assert.equal(end.result.error.code, 'ABORTED');
  assert.deepEqual(log, ['a started', 'a aborted']);
  return end;
}

/** Read `events` until node a starts, then leave the loop. */
async function breakAtA(events) {
  for await (const event of events) {
    if (event.type === 'node_start' && event.node === 'a') break;
  }
}

test('break out of for await (engine.stream()) aborts the run: the node in flight is signalled, the next never runs', async () => {
  const log = [];
  const { engine, abortSeen } = graph(log);
  const { runEnd, onEvent } = runEnded();
  await breakAtA(engine.stream({}, { onEvent }));
  await stoppedAtA({ abortSeen, runEnd }, log);
  engine.dispose();
});

test('break out of for await (engine.streamResume()) aborts the resumed run', async () => {
  const log = [];
  const { engine, abortSeen } = graph(log, { ask: true });
  const paused = await engine.execute({ messages: [] });
  assert.equal(paused.status, 'PAUSED');
  const { runEnd, onEvent } = runEnded();
  await breakAtA(engine.streamResume(paused.checkpoint, { role: 'user', content: 'yes' }, { onEvent }));
  const end = await stoppedAtA({ abortSeen, runEnd }, log);
  assert.equal(typeof end.result.checkpoint, 'string', 'resumable from where it stopped');
  engine.dispose();
});

/** A real server and a real client (node:http) that reads until node a started, then hangs up. */
async function serveAndLeave(handler) {
  const server = createServer(handler);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
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
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

test('an SSE client that disconnects aborts the run: the response body is cancelled (no signal given)', async () => {
  const log = [];
  const { engine, abortSeen } = graph(log);
  const { runEnd, onEvent } = runEnded();
  // pipeline destroys the body when the response closes early, which cancels the stream.
  await serveAndLeave((req, res) => {
    const response = eventStreamResponse(engine.stream({}, { onEvent }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    pipeline(Readable.fromWeb(response.body), res).catch(() => {});
  });
  await stoppedAtA({ abortSeen, runEnd }, log);
  engine.dispose();
});

test('an SSE client that disconnects aborts the run: the request\'s signal (the body is never cancelled), and the body ends', async () => {
  const log = [];
  const { engine, abortSeen } = graph(log);
  const { runEnd, onEvent } = runEnded();
  let bodyEnded;
  const bodyEnd = new Promise((r) => { bodyEnded = r; });
  await serveAndLeave(async (req, res) => {
    const left = new AbortController();
    res.on('close', () => left.abort());
    const response = eventStreamResponse(engine.stream({}, { onEvent }), { signal: left.signal });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    // Read the body by hand, never cancelling it: only the signal tells the stream the client left.
    const reader = response.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!res.destroyed) res.write(value);
    }
    bodyEnded();
  });
  await stoppedAtA({ abortSeen, runEnd }, log);
  await bodyEnd;
  engine.dispose();
});

test('a next() waiting when the stream is returned ends (done) instead of hanging', async () => {
  const log = [];
  const { engine, abortSeen } = graph(log);
  const events = engine.stream({})[Symbol.asyncIterator]();
  for (let e = await events.next(); e.value.type !== 'node_start'; e = await events.next());
  const waiting = events.next();   // nothing more comes until a is aborted
  assert.deepEqual(await events.return(), { value: undefined, done: true });
  assert.deepEqual(await waiting, { value: undefined, done: true });
  await abortSeen;
  assert.deepEqual(log, ['a started', 'a aborted']);
  engine.dispose();
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
