// A real MCP server for the tests, built with the official SDK: McpServer
// behind StreamableHTTPServerTransport on loopback (node:http), one session
// per client (mcp-session-id), tools listed two per page (nextCursor), and,
// with `cors`, the headers a browser page needs to call it cross-origin.
//
// Tools: add (structured result), weather.now (a name OpenAI would refuse),
// fail (an isError result), snapshot (an image part), send_email (counts its
// sends: the approval tests hold it to exactly one).

import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const TOOLS = {
  add: { description: 'Add two numbers', input: { a: z.number(), b: z.number() }, output: { sum: z.number() } },
  'weather.now': { description: 'The weather now in a city', input: { city: z.string() } },
  fail: { description: 'Always fails', input: {} },
  snapshot: { description: 'A picture', input: {} },
  send_email: { description: 'Send an email', input: { to: z.string(), body: z.string() } },
};

export async function startMcpServer({ cors = false, exposeSessionId = true, pageSize = 2 } = {}) {
  const sent = [];
  const calls = [];
  const handlers = {
    add: ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
    'weather.now': ({ city }) => ({ content: [{ type: 'text', text: `${city}: sunny` }, { type: 'text', text: '21 C' }] }),
    fail: () => ({ isError: true, content: [{ type: 'text', text: 'the printer is on fire' }] }),
    snapshot: () => ({ content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] }),
    send_email: (args) => { sent.push(args); return { content: [{ type: 'text', text: `sent to ${args.to}` }] }; },
  };

  function mcpServer() {
    const server = new McpServer({ name: 'test-tools', version: '1.0.0' });
    for (const [name, t] of Object.entries(TOOLS)) {
      server.registerTool(name, { description: t.description, inputSchema: t.input, ...(t.output ? { outputSchema: t.output } : {}) }, (args) => { calls.push(name); return handlers[name](args); });
    }
    // The SDK lists every tool at once; real servers page: two per page here.
    const all = Object.entries(TOOLS).map(([name, t]) => ({ name, description: t.description, inputSchema: z.toJSONSchema(z.object(t.input), { io: 'input' }) }));
    server.server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const next = start + pageSize;
      return { tools: all.slice(start, next), ...(next < all.length ? { nextCursor: String(next) } : {}) };
    });
    return server;
  }

  const sessions = new Map();
  const http = createServer(async (req, res) => {
    if (cors) {
      // What a browser needs (docs/mcp.md): the session and protocol headers allowed and the session id readable.
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
      res.setHeader('access-control-allow-headers', 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id');
      if (exposeSessionId) res.setHeader('access-control-expose-headers', 'mcp-session-id');
      if (req.method === 'OPTIONS') { res.writeHead(204).end(); return; }
    }
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (id && !transport) { res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null })); return; }
    if (!transport) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => sessions.set(sid, transport) });
      await mcpServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${http.address().port}/mcp`;
  return {
    url, sent, calls,
    close: async () => {
      for (const t of sessions.values()) await t.close().catch(() => {});
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
