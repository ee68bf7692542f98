// MCP tools from a real MCP server (the official SDK's McpServer over
// Streamable HTTP on loopback), called through the SDK's own client and
// transport, in agent tool loops against the strict OpenAI loopback server:
// paged listing, results, errors the model sees, an approval-gated tool that
// runs exactly once across pause and resume, and a server gone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { GraphEngine, createAgentNode, mcpTools, approve, EdgegraphError } from 'edgegraph';
import { startMcpServer } from './support/mcp-server.js';
import { startServer, reply, call } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

async function connect(url) {
  const client = new Client({ name: 'edgegraph-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const agentEngine = (t, baseURL, tools) => disposeAfter(t, new GraphEngine({ nodes: { agent: createAgentNode({ llm: { baseURL, model: 'm' }, tools, stream: false }) }, edges: { agent: '__end__' }, entryPoint: 'agent' }));

test('every page of tools is listed; results and errors go back to the model', async (t) => {
  const mcp = await startMcpServer();
  const client = await connect(mcp.url);
  const llm = await startServer([
    { json: reply(null, [call('c1', 'add', { a: 2, b: 3 }), call('c2', 'weather_now', { city: 'Lisbon' }), call('c3', 'fail', {}), call('c4', 'snapshot', {}), call('c5', 'add', { a: 'two' })]) },
    { json: reply('done') },
  ]);
  try {
    const tools = await mcpTools(client);
    assert.deepEqual(tools.map((t) => t.name), ['add', 'weather_now', 'fail', 'snapshot', 'send_email']);
    const r = await agentEngine(t, llm.baseURL, tools).execute({ messages: [{ role: 'user', content: 'go' }] });
    assert.equal(r.status, 'FINISHED');
    const sentTools = llm.requests[0].body.tools.map((t) => t.function);
    assert.deepEqual(sentTools[0].parameters.required, ['a', 'b']);
    assert.equal(sentTools[1].description, 'The weather now in a city');
    const answers = llm.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    assert.equal(answers[0], '{"sum":5}');
    assert.equal(answers[1], 'Lisbon: sunny\n21 C');
    assert.equal(answers[2], 'Error: the printer is on fire');
    assert.equal(answers[3], '[image: image/png, 8 bytes]');
    // Refused before the server: the listed schema is checked locally too.
    assert.match(answers[4], /^Error: invalid arguments: \$\.b: is required; \$\.a: expected number, got string$/);
    assert.deepEqual(mcp.calls, ['add', 'weather.now', 'fail', 'snapshot'], 'the tool with invalid arguments never reached the server');
    assert.deepEqual(r.state.toolCalls.map((t) => t.status), ['ok', 'ok', 'error', 'ok', 'error']);
  } finally { await client.close(); await llm.close(); await mcp.close(); }
});

test('an approval-gated MCP tool pauses, and runs exactly once across pause and resume in a new engine and session', async (t) => {
  const mcp = await startMcpServer();
  const llm = await startServer([
    { json: reply(null, [call('m1', 'send_email', { to: 'ana@example.com', body: 'hi' }), call('m2', 'add', { a: 1, b: 1 })]) },
    { json: reply('Sent.') },
  ]);
  const first = await connect(mcp.url);
  let second;
  try {
    const tools = await mcpTools(first, { needsApproval: ['send_email'] });
    const paused = await agentEngine(t, llm.baseURL, tools).execute({ messages: [{ role: 'user', content: 'mail ana' }] });
    assert.equal(paused.status, 'PAUSED');
    assert.deepEqual(paused.state.pendingAskUser.toolCalls.map((c) => [c.name, c.needsApproval]), [['send_email', true], ['add', false]]);
    assert.deepEqual(mcp.sent, []);
    assert.deepEqual(mcp.calls, []);
    await first.close();

    // Another process: a new session, new tools, a new engine, the checkpoint through JSON.
    second = await connect(mcp.url);
    const again = await mcpTools(second, { needsApproval: (name) => name === 'send_email' });
    const done = await agentEngine(t, llm.baseURL, again).resume(JSON.parse(JSON.stringify(paused.checkpoint)), approve());
    assert.equal(done.status, 'FINISHED');
    assert.equal(done.state.lastModelOutput, 'Sent.');
    assert.deepEqual(mcp.sent, [{ to: 'ana@example.com', body: 'hi' }]);
    assert.deepEqual(mcp.calls.sort(), ['add', 'send_email']);
    assert.equal(llm.requests.length, 2);
  } finally { await second?.close(); await llm.close(); await mcp.close(); }
});

test('a server that is gone fails the node with MCP_ERROR naming the server and the tool', async (t) => {
  const mcp = await startMcpServer();
  const client = await connect(mcp.url);
  const llm = await startServer([{ json: reply(null, [call('c1', 'calc_add', { a: 1, b: 2 })]) }]);
  try {
    const tools = await mcpTools(client, { prefix: 'calc_' });
    assert.equal(tools[0].name, 'calc_add');
    await mcp.close();
    const r = await agentEngine(t, llm.baseURL, tools).execute({ messages: [{ role: 'user', content: 'add' }] });
    assert.equal(r.status, 'ERROR');
    const e = r.error.cause;
    assert.ok(e instanceof EdgegraphError);
    assert.equal(e.code, 'MCP_ERROR');
    assert.match(e.message, /^MCP server 'test-tools': calling tool 'add' failed/);
    assert.equal(r.state.messages.length, 1, 'the failed round is not recorded: a resume asks again');
    await assert.rejects(mcpTools(client), (err) => err.code === 'MCP_ERROR' && /MCP server 'test-tools': listing its tools failed/.test(err.message));
  } finally { await client.close().catch(() => {}); await llm.close(); }
});

test('a call whose server is unreachable is retried alone: the calls of its round that ran never run again', async (t) => {
  const mcp = await startMcpServer();
  const client = await connect(mcp.url);
  // The connection fails for `add` only while `down`, as a dropped connection would (fetch failed).
  let down = true;
  const flaky = { listTools: (p) => client.listTools(p), getServerVersion: () => client.getServerVersion(), callTool: (p, s, o) => (p.name === 'add' && down ? Promise.reject(new TypeError('fetch failed')) : client.callTool(p, s, o)) };
  const llm = await startServer([
    { json: reply(null, [call('c1', 'send_email', { to: 'ana@example.com', body: 'hi' }), call('c2', 'add', { a: 1, b: 2 })]) },
    { json: reply('Sent, and 1 + 2 = 3.') },
  ]);
  try {
    const engine = agentEngine(t, llm.baseURL, await mcpTools(flaky));
    const failed = await engine.execute({ messages: [{ role: 'user', content: 'mail and add' }] });
    assert.equal(failed.status, 'ERROR');
    assert.equal(failed.error.cause.code, 'MCP_ERROR');
    assert.match(failed.error.cause.message, /MCP server 'test-tools': calling tool 'add' failed \(fetch failed\)/);
    assert.deepEqual(failed.state.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id), ['c1'], 'the email that went out is recorded');
    assert.equal(mcp.sent.length, 1);

    down = false;
    const done = await engine.resume(JSON.parse(JSON.stringify(failed.checkpoint)));
    assert.equal(done.status, 'FINISHED');
    assert.equal(done.state.lastModelOutput, 'Sent, and 1 + 2 = 3.');
    assert.equal(mcp.sent.length, 1, 'the email is not sent again');
    assert.deepEqual(done.state.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]), [['c1', 'sent to ana@example.com'], ['c2', '{"sum":3}']]);
    assert.equal(llm.requests.length, 2, 'the model was not asked again for the failed round');
  } finally { await client.close(); await llm.close(); await mcp.close(); }
});

test('a JSON-RPC error the server answers is the tool result; a timeout is MCP_ERROR', async () => {
  // McpServer wraps its own failures as isError results; other servers answer JSON-RPC errors, which the SDK throws as McpError.
  const client = {
    getServerVersion: () => ({ name: 'files', version: '1' }),
    listTools: async () => ({ tools: [{ name: 'read', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }] }),
    callTool: async ({ arguments: args }) => {
      if (args.path === 'slow') throw new McpError(ErrorCode.RequestTimeout, 'Request timed out');
      throw new McpError(ErrorCode.InvalidParams, `no such file: ${args.path}`);
    },
  };
  const [read] = await mcpTools(client);
  await assert.rejects(read.run({ path: 'a.txt' }), (e) => !(e instanceof EdgegraphError) && e.message === 'MCP error -32602: no such file: a.txt');
  await assert.rejects(read.run({ path: 'slow' }), (e) => e.code === 'MCP_ERROR' && /^MCP server 'files': calling tool 'read' failed \(MCP error -32001: Request timed out\)/.test(e.message));
});

test('a bearer token a server echoes in its error is hidden from MCP_ERROR', async () => {
  const client = {
    listTools: async () => { throw new Error('Streamable HTTP error: 401 {"error":"invalid token Bearer mcp-SECRET-123"}'); },
    callTool: async () => ({}),
  };
  await assert.rejects(mcpTools(client, { serverName: 'crm' }), (e) => e.code === 'MCP_ERROR' && /^MCP server 'crm': listing its tools failed/.test(e.message) && e.message.includes('Bearer [redacted]') && !e.message.includes('SECRET') && e.cause === undefined);
});

test('mcpTools refuses what is not an MCP client', async () => {
  await assert.rejects(mcpTools({ listTools: () => ({ tools: [] }) }), (e) => e.code === 'INVALID_OPTIONS' && /connected MCP client/.test(e.message));
});
