// The page of tests/js/mcp-browser.test.js, bundled with esbuild: the MCP
// SDK's client in a browser tab, an agent with the MCP server's tools, a
// pause for approval and a resume, all across origins (the page, the MCP
// server and the LLM server each on a port of their own), traced with the
// OpenTelemetry SDK (a browser has no AsyncLocalStorage).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { GraphEngine, createAgentNode, mcpTools, approve } from 'edgegraph';

window.runAgent = async (mcpURL, llmBaseURL) => {
  const client = new Client({ name: 'page', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpURL)));
  const tools = await mcpTools(client, { needsApproval: ['send_email'] });
  const agent = createAgentNode({ llm: { baseURL: llmBaseURL, model: 'm' }, tools, stream: false });
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('page');
  const engine = new GraphEngine({ nodes: { agent }, edges: { agent: '__end__' }, entryPoint: 'agent' }, { tracer });
  const paused = await engine.execute({ messages: [{ role: 'user', content: 'mail ana the sum' }] });
  const done = await engine.resume(paused.checkpoint, approve());
  await client.close();
  return {
    names: tools.map((t) => t.name),
    paused: paused.status,
    status: done.status,
    answer: done.state.lastModelOutput,
    calls: done.state.toolCalls.map((c) => [c.name, c.status, c.result]),
    // Each span as [name, its parent's name]: the tree, whatever the ids.
    spans: exporter.getFinishedSpans().map((span, _, all) => [span.name, all.find((p) => p.spanContext().spanId === span.parentSpanContext?.spanId)?.name ?? null]),
  };
};
// Connect and list, nothing more: what fails when the server's CORS headers fall short.
window.listTools = async (mcpURL) => {
  const client = new Client({ name: 'page', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpURL)));
    return { names: (await client.listTools()).tools.map((t) => t.name) };
  } catch (e) {
    return { error: String(e?.message ?? e) };
  } finally { await client.close().catch(() => {}); }
};
document.title = 'ready';
