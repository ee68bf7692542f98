// The LLM client's errors say where and why, and never what is secret:
// a network failure names the URL and the system error under undici's
// "fetch failed"; a baseURL without a scheme fails when the client is made;
// a baseURL with a query (Azure's ?api-version=) keeps it; the API key,
// secret query values and secret headers appear in no message, stack or JSON.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { inspect } from 'node:util';
import { createChatClient, EdgegraphError, LLMError } from 'edgegraph';

const KEY = 'sk-test-KEY-0123456789abcdef';
const ask = { messages: [{ role: 'user', content: 'hi' }] };
const completion = { id: 'c1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }] };

function listen(handler) {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A loopback port nobody listens on: bound, then closed. */
async function closedPort() {
  const server = await listen(() => {});
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function failure(promise) {
  try { await promise; } catch (e) { return e; }
  assert.fail('expected the call to fail');
}

/** Every way an error gets printed or stored. */
function printed(e) {
  return [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 10, showHidden: true }), String(e)].join('\n');
}

test('a refused connection names the URL and ECONNREFUSED, and not the key', async () => {
  const port = await closedPort();
  const client = createChatClient({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: KEY, maxRetries: 0 });
  const e = await failure(client.chat(ask));
  assert.ok(e instanceof LLMError);
  assert.equal(e.code, 'LLM_NETWORK_ERROR');
  assert.ok(e.message.includes(`http://127.0.0.1:${port}/v1/chat/completions`), e.message);
  assert.match(e.message, /ECONNREFUSED/);
  assert.equal(e.causeCode, 'ECONNREFUSED');
  assert.equal(e.url, `http://127.0.0.1:${port}/v1/chat/completions`);
  assert.ok(!printed(e).includes(KEY));
});

test('an unresolvable host names the host and the resolver code (ENOTFOUND, or EAI_AGAIN without DNS)', async () => {
  const client = createChatClient({ baseURL: 'http://llm.edgegraph-test.invalid/v1', model: 'm', apiKey: KEY, maxRetries: 0 });
  const e = await failure(client.chat(ask));
  assert.equal(e.code, 'LLM_NETWORK_ERROR');
  assert.ok(e.message.includes('http://llm.edgegraph-test.invalid/v1/chat/completions'), e.message);
  assert.match(e.causeCode, /^(ENOTFOUND|EAI_AGAIN|EAI_FAIL)$/);
  assert.ok(e.message.includes(e.causeCode), e.message);
  assert.ok(!printed(e).includes(KEY));
});

test('retries are counted in the message of the last failure', async () => {
  const port = await closedPort();
  const client = createChatClient({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 1, retryBaseMs: 1, retryMaxMs: 1 });
  const e = await failure(client.chat(ask));
  assert.equal(e.attempts, 2);
  assert.match(e.message, /ECONNREFUSED.*2 attempts/);
});

test('a baseURL without a scheme fails when the client is made, naming the field and a fix', () => {
  let calls = 0;
  const fetch = async () => { calls++; throw new Error('never called'); };
  for (const [baseURL, fix] of [['localhost:11434/v1', 'http://localhost:11434/v1'], ['api.openai.com/v1', 'https://api.openai.com/v1'], ['127.0.0.1:8000/v1', 'http://127.0.0.1:8000/v1']]) {
    assert.throws(() => createChatClient({ baseURL, model: 'm', fetch }), (e) => e instanceof EdgegraphError && e.code === 'INVALID_OPTIONS'
      && e.message.includes('baseURL') && e.message.includes(`'${baseURL}'`) && e.message.includes(fix), baseURL);
  }
  for (const baseURL of ['ftp://example.com/v1', '', 'file:///etc/passwd', 'https://user:hunter2@example.com/v1', 'user:hunter2@localhost:8000/v1', 'http://exa mple.com/v1?key=hunter2']) {
    assert.throws(() => createChatClient({ baseURL, model: 'm', fetch }), (e) => e.code === 'INVALID_OPTIONS' && /baseURL/.test(e.message) && !printed(e).includes('hunter2'), baseURL);
  }
  assert.equal(calls, 0);
});

test("a baseURL with a query (Azure's ?api-version=) keeps it: {path}/chat/completions?{query}", async () => {
  const seen = [];
  const server = await listen((req, res) => {
    seen.push(req.url);
    if (req.method === 'POST' && req.url === '/openai/deployments/gpt4o/chat/completions?api-version=2024-06-01' && req.headers['api-key'] === KEY) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: '404', message: 'Resource not found' } }));
    }
  });
  const base = `http://127.0.0.1:${server.address().port}/openai/deployments/gpt4o`;
  try {
    for (const baseURL of [`${base}?api-version=2024-06-01`, `${base}/?api-version=2024-06-01`, `${base}/?api-version=2024-06-01#ignored`]) {
      const client = createChatClient({ baseURL, model: 'gpt-4o', headers: { 'api-key': KEY }, maxRetries: 0 });
      const reply = await client.chat(ask);
      assert.equal(reply.content, 'hello', baseURL);
      assert.ok(!JSON.stringify(client).includes(KEY));
    }
    assert.deepEqual(new Set(seen), new Set(['/openai/deployments/gpt4o/chat/completions?api-version=2024-06-01']));
  } finally {
    server.close();
  }
});

test('a root path as baseURL is the page\'s origin in a page or worker, and an error elsewhere', async () => {
  assert.throws(() => createChatClient({ baseURL: '/v1', model: 'm' }), (e) => e.code === 'INVALID_OPTIONS' && e.message.includes("'/v1'"));
  const server = await listen((req, res) => {
    res.writeHead(req.url === '/v1/chat/completions' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion));
  });
  // A page's location, as a browser or a web worker has it.
  globalThis.location = new URL(`http://127.0.0.1:${server.address().port}/app/index.html`);
  try {
    const reply = await createChatClient({ baseURL: '/v1', model: 'm', maxRetries: 0 }).chat(ask);
    assert.equal(reply.content, 'hello');
  } finally {
    delete globalThis.location;
    server.close();
  }
});

test('an HTTP error names the URL, api-version readable and secret query values redacted', async () => {
  const server = await listen((req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    // A provider that echoes what it was given: the key, the query.
    res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}; url ${req.url}` } }));
  });
  const base = `http://127.0.0.1:${server.address().port}/v1`;
  try {
    const client = createChatClient({ baseURL: `${base}?api-version=2024-06-01&key=QUERY-SECRET-1&sig=QUERY-SECRET-2`, model: 'm', apiKey: KEY, maxRetries: 0 });
    const e = await failure(client.chat(ask));
    assert.equal(e.code, 'LLM_HTTP_ERROR');
    assert.equal(e.status, 401);
    assert.ok(e.message.includes(`${base}/chat/completions?api-version=2024-06-01&key=`), e.message);
    for (const secret of [KEY, 'QUERY-SECRET-1', 'QUERY-SECRET-2']) {
      assert.ok(!printed(e).includes(secret), secret);
      assert.ok(!JSON.stringify(client).includes(secret), secret);
    }
  } finally {
    server.close();
  }
});

test('a connection that breaks mid-reply names the URL; no secret in any error of the client', async () => {
  const server = await listen((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'hel' } }] })}\n\n`);
    setImmediate(() => res.socket.destroy());
  });
  const baseURL = `http://127.0.0.1:${server.address().port}/v1?token=QUERY-SECRET-3`;
  try {
    const client = createChatClient({ baseURL, model: 'm', apiKey: KEY, headers: { 'x-api-key': 'HEADER-SECRET-4' }, maxRetries: 0 });
    const e = await failure(client.chat({ ...ask, stream: true }));
    assert.equal(e.code, 'LLM_NETWORK_ERROR');
    assert.ok(e.message.includes(`http://127.0.0.1:${server.address().port}/v1/chat/completions?token=`), e.message);
    for (const secret of [KEY, 'QUERY-SECRET-3', 'HEADER-SECRET-4']) {
      assert.ok(!printed(e).includes(secret), secret);
      // console.log(client) and JSON.stringify(client) show neither.
      assert.ok(!inspect(client, { depth: 5, showHidden: true }).includes(secret), secret);
      assert.ok(!JSON.stringify(client).includes(secret), secret);
    }
  } finally {
    server.close();
  }
});

test('an injected fetch that throws with the key and URL in its message is redacted', async () => {
  const fetch = async (url, init) => { throw new TypeError(`proxy refused ${url} with ${init.headers.authorization}`, { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }); };
  const client = createChatClient({ baseURL: 'https://example.com/v1?api_key=QUERY-SECRET-5', model: 'm', apiKey: KEY, fetch, maxRetries: 0 });
  const e = await failure(client.chat(ask));
  assert.equal(e.code, 'LLM_NETWORK_ERROR');
  assert.equal(e.causeCode, 'ECONNRESET');
  for (const secret of [KEY, 'QUERY-SECRET-5']) assert.ok(!printed(e).includes(secret), `${secret} in ${e.message}`);
});
