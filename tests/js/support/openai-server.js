// A strict loopback server for the OpenAI chat-completions protocol. Every
// request is validated first, the way api.openai.com validates it, and a
// request OpenAI would reject gets OpenAI's HTTP status and error shape
// ({ error: { message, type, param, code } }) whatever the test scripted. Only
// a valid request gets the scripted reply. Replies, in order:
//   { json: {...} }      a completion (see reply()); streamed as chunks when
//                        the request asks for `stream: true`, tool calls as
//                        deltas across chunks, as OpenAI streams them
//   { status, body, headers }   any status and raw body (transport tests)
//   { sse: [event, ...], end?: 'done' | 'truncate' | 'stall', gapMs? }  a raw stream
// A function reply gets (request) and returns one of the above.
// startServer(script, { apiKey }) also checks `Authorization: Bearer <apiKey>`.
//
// The rules, and where each comes from: js/openai-validate.js (shared with
// the offline simulator of edgegraph/testing).

import { createServer } from 'node:http';
import { validateChatRequest, Rejection, errorBody } from '../../../js/openai-validate.js';

export function reply(content, toolCalls, extra = {}) {
  const message = { role: 'assistant', content };
  if (toolCalls) message.tool_calls = toolCalls;
  return { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'test-model', choices: [{ index: 0, message, finish_reason: toolCalls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }, ...extra };
}

export const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } });

/** Stream chunks that spell out `text` (then usage, as with stream_options.include_usage). */
export function textChunks(text, size = 3) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(chunk({ content: text.slice(i, i + size) }));
  out.push(chunk({}, 'stop'));
  out.push({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
  return out;
}

function chunk(delta, finishReason = null) {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

/**
 * A completion as OpenAI streams it: role first, content in pieces, each tool
 * call opened with its id and name and its arguments in several fragments.
 */
export function completionChunks(completion, size = 4) {
  const { message, finish_reason: finish } = completion.choices[0];
  const out = [chunk({ role: 'assistant', content: message.tool_calls ? null : '' })];
  const text = message.content ?? '';
  for (let i = 0; i < text.length; i += size) out.push(chunk({ content: text.slice(i, i + size) }));
  (message.tool_calls ?? []).forEach((c, index) => {
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }));
    const args = c.function.arguments;
    for (let i = 0; i < args.length; i += size) out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(i, i + size) } }] }));
  });
  out.push(chunk({}, finish ?? 'stop'));
  if (completion.usage) out.push({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [], usage: completion.usage });
  return out;
}


/**
 * @param {Array<object|Function> | Function} script replies in order, or one function for every request
 * @param {{ apiKey?: string, cors?: boolean }} [options] cors: answer a browser page's preflight
 */
export async function startServer(script, { apiKey, cors = false } = {}) {
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
    try { validateChatRequest(parsed); } catch (e) { if (e instanceof Rejection) return fail(e); throw e; }
    let step = typeof script === 'function' ? script : script[next++] ?? { status: 500, body: '{"error":{"message":"script exhausted","type":"server_error","param":null,"code":null}}' };
    if (typeof step === 'function') step = await step(request);
    if (step.json && parsed.stream === true) step = { sse: completionChunks(step.json) };
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
    async close() {
      for (const res of open) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
