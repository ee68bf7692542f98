// A loopback HTTP server that speaks the OpenAI chat-completions protocol
// from a script, and records every request it gets. Replies, in order:
//   { json: {...} }                        200 with a completion (see reply())
//   { status, body, headers }              any status and raw body
//   { sse: [event, ...], end?: 'done' | 'truncate' | 'stall', gapMs? }  a stream
// A function reply gets (request) and returns one of the above.

import { createServer } from 'node:http';

export function reply(content, toolCalls, extra = {}) {
  const message = { role: 'assistant', content };
  if (toolCalls) message.tool_calls = toolCalls;
  return { id: 'cmpl-1', object: 'chat.completion', model: 'test-model', choices: [{ index: 0, message, finish_reason: toolCalls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }, ...extra };
}

export const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } });

/** Stream chunks that spell out `text` and then tool calls split into pieces. */
export function textChunks(text, size = 3) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push({ choices: [{ index: 0, delta: { content: text.slice(i, i + size) } }] });
  out.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  out.push({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
  return out;
}

export async function startServer(script) {
  const requests = [];
  const open = new Set();
  let next = 0;
  const server = createServer(async (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    let body = '';
    for await (const chunk of req) body += chunk;
    const request = { method: req.method, url: req.url, headers: req.headers, body: body ? JSON.parse(body) : null };
    requests.push(request);
    let step = script[next++] ?? { status: 500, body: '{"error":{"message":"script exhausted"}}' };
    if (typeof step === 'function') step = await step(request);
    if (step.json) { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(step.json)); return; }
    if (step.sse) {
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
    async close() {
      for (const res of open) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
