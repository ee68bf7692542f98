// A strict loopback server for the OpenAI chat-completions protocol. Every
// request is validated first, the way api.openai.com validates it, and a
// request OpenAI would reject gets OpenAI's HTTP status and error shape
// ({ error: { message, type, param, code } }) whatever the test scripted: no
// scripted reply, error or transport fault skips the validation. Only a valid
// request gets the scripted reply. Replies, in order:
//   { json: completion }  a completion (see reply()); streamed as chunks when
//                        the request asks for `stream: true`, the way OpenAI
//                        streams it (see completionChunks)
//   { status, body, headers }   any status and raw body (transport tests)
//   { sse: [event, ...], end?: 'done' | 'truncate' | 'stall', gapMs? }  a raw stream
// A function reply gets (request) and returns one of the above.
//
// startServer(script, { apiKey }) also checks `Authorization: Bearer <apiKey>`.
// close() fails the test when a request was refused, unless the test expects
// refusals ({ expectRejections: true }): a test cannot pass on a request that
// the real API would have refused, even one whose refusal it did not look at.
//
// The rules, and where each comes from (OpenAI's OpenAPI description and the
// error texts api.openai.com returns): js/openai-validate.js, shared with the
// offline simulator of edgegraph/testing.

import { createServer } from 'node:http';
import { validateChatRequest, Rejection, errorBody } from '../../../js/openai-validate.js';

export function reply(content, toolCalls, extra = {}) {
  const message = { role: 'assistant', content };
  if (toolCalls) message.tool_calls = toolCalls;
  return { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'test-model', choices: [{ index: 0, message, finish_reason: toolCalls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }, ...extra };
}

export const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } });

/**
 * A reply function from a simulator policy, the `respond` that
 * createScriptedFetch (edgegraph/testing) and the examples' `offline` take:
 * ({ messages, tools, model }) => text | { content?, toolCalls?: [{ id?, name, arguments }] }.
 * The same policy then answers over HTTP, after the strict checks.
 */
export function fromPolicy(respond) {
  let calls = 0;
  return async ({ body }) => {
    let answer = await respond({ messages: body.messages, tools: body.tools, model: body.model, responseFormat: body.response_format });
    if (typeof answer === 'string') answer = { content: answer };
    const toolCalls = (answer.toolCalls ?? []).map((c) => call(c.id ?? `call_${++calls}`, c.name, c.arguments ?? {}));
    return { json: reply(answer.content ?? null, toolCalls.length ? toolCalls : undefined) };
  };
}

function chunk(delta, finishReason = null) {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

const usageChunk = (usage) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [], usage });

/** Stream chunks that spell out `text` (then usage, as with stream_options.include_usage). */
export function textChunks(text, size = 3) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(chunk({ content: text.slice(i, i + size) }));
  out.push(chunk({}, 'stop'));
  out.push(usageChunk({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 }));
  return out;
}

/**
 * A completion as OpenAI streams it (API reference, "The chat completion chunk
 * object"; ChatCompletionStreamOptions in OpenAI's OpenAPI description): the
 * first chunk carries the role, with the first tool call's index, id, type and
 * name when the reply calls tools; content comes in pieces; each later tool
 * call opens with its index, id, type and name; arguments follow in several
 * fragments that carry only the index; the last choice chunk has the finish
 * reason. With include_usage, every chunk has `usage: null` and one more
 * chunk, with no choices, has the usage.
 */
export function completionChunks(completion, { size = 4, includeUsage = true } = {}) {
  const { message, finish_reason: finish } = completion.choices[0];
  const calls = message.tool_calls ?? [];
  const text = message.content ?? '';
  const out = [];
  const opening = (c, index) => ({ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } });
  out.push(chunk({ role: 'assistant', content: calls.length && !text ? null : '', ...(calls.length && !text ? { tool_calls: [opening(calls[0], 0)] } : {}), refusal: null }));
  for (let i = 0; i < text.length; i += size) out.push(chunk({ content: text.slice(i, i + size) }));
  calls.forEach((c, index) => {
    if (index > 0 || text) out.push(chunk({ tool_calls: [opening(c, index)] }));
    const args = c.function.arguments;
    for (let i = 0; i < args.length; i += size) out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(i, i + size) } }] }));
  });
  out.push(chunk({}, finish ?? 'stop'));
  if (!includeUsage) return out;
  for (const c of out) c.usage = null;
  out.push(usageChunk(completion.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }));
  return out;
}

/**
 * @param {Array<object|Function> | Function} script replies in order, or one function for every request
 * @param {{ apiKey?: string, cors?: boolean, expectRejections?: boolean }} [options]
 *   cors: answer a browser page's preflight; expectRejections: the test sends invalid requests on purpose
 */
export async function startServer(script, { apiKey, cors = false, expectRejections = false } = {}) {
  const requests = [];
  const rejected = [];
  const open = new Set();
  let next = 0;
  const server = createServer(async (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    if (cors) {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', 'authorization, content-type');
      res.setHeader('access-control-allow-methods', 'POST');
      if (req.method === 'OPTIONS') { res.writeHead(204); res.end(); return; }
    }
    let body = '';
    for await (const piece of req) body += piece;
    let parsed = null;
    try { parsed = body ? JSON.parse(body) : null; } catch { parsed = undefined; }
    const request = { method: req.method, url: req.url, headers: req.headers, body: parsed };
    requests.push(request);
    const fail = (e) => { rejected.push({ request, error: { message: e.message, param: e.param, code: e.code } }); res.writeHead(e.status, { 'content-type': 'application/json' }); res.end(errorBody(e)); };
    const path = new URL(req.url, 'http://x').pathname;
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) return fail(new Rejection(`Invalid URL (${req.method} ${path})`, null, null, 404));
    if (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`) {
      return fail(new Rejection('Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', null, 'invalid_api_key', 401));
    }
    // Validation first, always: a scripted reply (even an error or a broken
    // stream) is only ever the answer to a request OpenAI would accept.
    try { validateChatRequest(parsed); } catch (e) { if (e instanceof Rejection) return fail(e); throw e; }
    let step = typeof script === 'function' ? script : script[next++] ?? { status: 500, body: '{"error":{"message":"script exhausted","type":"server_error","param":null,"code":null}}' };
    if (typeof step === 'function') step = await step(request);
    if (step.json && parsed.stream === true) step = { sse: completionChunks(step.json, { includeUsage: parsed.stream_options?.include_usage === true }) };
    if (step.json) { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(step.json)); return; }
    if (step.sse) {
      if (parsed.stream !== true) return fail(new Rejection('test script error: a streamed reply for a request without stream: true', null, null, 500, 'server_error'));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of step.sse) {
        res.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
        if (step.gapMs) await new Promise((r) => setTimeout(r, step.gapMs));
      }
      if (step.end === 'stall') return; // keep the connection open, send nothing more
      if (step.end !== 'truncate') res.write('data: [DONE]\n\n');
      res.end();
      return;
    }
    res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...(step.headers ?? {}) });
    res.end(step.body ?? '');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${server.address().port}/v1`;
  return {
    baseURL,
    requests,
    /** Requests answered with an OpenAI error: what a real server would have refused. */
    rejected,
    /** Let the process exit while the server is up (a server for a whole script, as the docs' prelude has). */
    unref() {
      server.unref();
      server.on('connection', (socket) => socket.unref());
    },
    /** Stop the server; fails when a request was refused and the test did not expect it. */
    async close() {
      for (const res of open) res.destroy();
      await new Promise((resolve) => server.close(resolve));
      if (rejected.length && !expectRejections) {
        const list = rejected.map((r) => `  ${r.error.message} (param ${r.error.param})`).join('\n');
        throw new Error(`the strict OpenAI server refused ${rejected.length} request(s) that api.openai.com would refuse too:\n${list}`);
      }
    },
  };
}
