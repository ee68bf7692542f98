// A strict loopback server for one provider's wire protocol: the shared part
// of anthropic-server.js, gemini-server.js and responses-server.js. Every
// request is checked first, the way the real API checks it (`check` throws a
// Rejection); only a valid request gets the scripted step. Steps, in order:
//   { reply }                  the provider's own non-streamed reply; streamed the way
//                              the provider streams it when the request asks to stream
//   { status, body, headers }  any status and raw body (transport tests)
//   { sse: [frame, ...], end?: 'stall' }   a raw stream of { event?, data } frames; 'stall' keeps it open
// A function step gets (request) and returns one of the above.
// close() fails the test when a request was refused, unless the test expects
// refusals ({ expectRejections: true }).

import { createServer } from 'node:http';

export class Rejection extends Error {
  /** @param {number} status @param {string} message @param {object} [extra] the provider's other error fields */
  constructor(status, message, extra = {}) {
    super(message);
    Object.assign(this, { status, extra });
  }
}

/**
 * @param {Array<object|Function> | Function} script
 * @param {{ check: (request) => void, isStream: (request) => boolean, streamOf: (reply, request) => Array<{ event?: string, data: any }>,
 *   errorBody: (rejection) => object, prefix: string, expectRejections?: boolean, cors?: boolean }} protocol
 */
export async function startLoopback(script, { check, isStream, streamOf, errorBody, prefix, expectRejections = false, cors = false }) {
  const requests = [];
  const rejected = [];
  const open = new Set();
  let next = 0;
  const server = createServer(async (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    if (cors) {
      // A page's requests (the browser demo): the preflight is answered, every response readable.
      res.setHeader('access-control-allow-origin', '*');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '', 'access-control-allow-methods': 'POST' });
        res.end();
        return;
      }
    }
    let text = '';
    for await (const piece of req) text += piece;
    let body;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = Symbol.for('not json'); }
    const url = new URL(req.url, 'http://x');
    const request = { method: req.method, url: req.url, path: url.pathname, query: url.searchParams, headers: req.headers, body };
    requests.push(request);
    const fail = (e) => {
      rejected.push({ request, message: e.message });
      res.writeHead(e.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(e)));
    };
    try { check(request); } catch (e) { if (e instanceof Rejection) return fail(e); throw e; }
    let step = typeof script === 'function' ? script : script[next++] ?? { status: 500, body: '{"error":{"message":"script exhausted"}}' };
    if (typeof step === 'function') step = await step(request);
    if (step.reply && isStream(request)) step = { sse: streamOf(step.reply, request) };
    if (step.reply) { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(step.reply)); return; }
    if (step.sse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const frame of step.sse) res.write(`${frame.event ? `event: ${frame.event}\n` : ''}data: ${typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)}\n\n`);
      if (step.end !== 'stall') res.end(); // 'stall': the connection stays open, nothing more comes
      return;
    }
    res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...(step.headers ?? {}) });
    res.end(step.body ?? '');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${server.address().port}${prefix}`,
    requests,
    rejected,
    /** Do not keep the process alive (a docs sample's server). */
    unref() { server.unref(); },
    async close() {
      for (const res of open) res.destroy();
      await new Promise((resolve) => server.close(resolve));
      if (!expectRejections && rejected.length) throw new Error(`the server refused ${rejected.length} request(s): ${rejected.map((r) => r.message).join(' | ')}`);
    },
  };
}

/** `text` in pieces of `size` characters. */
export function pieces(text, size = 4) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
