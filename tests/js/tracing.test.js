// OpenTelemetry traces with the real SDK (BasicTracerProvider and an
// InMemorySpanExporter) and no context manager registered, as in workerd or
// a browser: the span tree of an agent run (run -> nodes -> chat and
// execute_tool), the GenAI attributes, errors as ERROR status with the typed
// code, two concurrent runs kept apart, content only when asked for, and the
// API key nowhere in any span.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { trace, context, ROOT_CONTEXT, SpanStatusCode } from '@opentelemetry/api';
import { GraphEngine, createAgentNode, EdgegraphError } from 'edgegraph';
import { startServer, reply, call } from './support/openai-server.js';
import { startAnthropicServer, message, textBlock } from './support/anthropic-server.js';
import { disposeAfter } from './support/dispose.js';

const KEY = 'sk-trace-SECRET-0123456789';

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('edgegraph-test') };
}

const weather = { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, run: ({ city }) => ({ city, sky: 'sunny' }) };

function agentEngine(t, baseURL, tracer, extra = {}) {
  const agent = createAgentNode({ llm: { baseURL, model: 'gpt-test', apiKey: KEY, maxRetries: 0 }, tools: [weather], stream: false });
  return disposeAfter(t, new GraphEngine({ nodes: { agent }, edges: { agent: '__end__' }, entryPoint: 'agent' }, { tracer, ...extra }));
}

const idOf = (span) => span.spanContext().spanId;
const parentOf = (span) => span.parentSpanContext?.spanId;

test('an agent run: invoke_agent -> node -> chat / execute_tool, with the GenAI attributes', async (t) => {
  const s = await startServer([
    { json: reply(null, [call('c1', 'get_weather', { city: 'Lisbon' }), call('c2', 'get_weather', { town: 'x' })]) },
    { json: reply('Sunny.') },
  ], { apiKey: KEY });
  const { exporter, tracer } = tracing();
  try {
    const r = await agentEngine(t, s.baseURL, tracer).execute({ messages: [{ role: 'user', content: 'weather?' }] }, { runId: 'run-1' });
    assert.equal(r.status, 'FINISHED');
  } finally { await s.close(); }
  const spans = exporter.getFinishedSpans();
  assert.deepEqual(spans.map((x) => x.name).sort(), ['chat gpt-test', 'chat gpt-test', 'execute_tool get_weather', 'execute_tool get_weather', 'invoke_agent edgegraph', 'node agent', 'node agent']);
  const run = spans.find((x) => x.name === 'invoke_agent edgegraph');
  assert.equal(parentOf(run), undefined);
  assert.equal(run.attributes['gen_ai.operation.name'], 'invoke_agent');
  assert.equal(run.attributes['edgegraph.run.id'], 'run-1');
  assert.equal(run.attributes['edgegraph.run.status'], 'FINISHED');
  const nodes = spans.filter((x) => x.name === 'node agent');
  assert.ok(nodes.every((n) => parentOf(n) === idOf(run) && n.spanContext().traceId === run.spanContext().traceId));
  const [chat1, chat2] = spans.filter((x) => x.name.startsWith('chat'));
  // The agent node runs twice: the first round (model call + tools), then the answer.
  const tools = spans.filter((x) => x.name.startsWith('execute_tool')).sort((a, b) => a.attributes['gen_ai.tool.call.id'].localeCompare(b.attributes['gen_ai.tool.call.id']));
  assert.ok(tools.every((t) => parentOf(t) === parentOf(chat1)), 'the tools run in the node of the call that asked for them');
  assert.notEqual(parentOf(chat1), parentOf(chat2));
  assert.ok(nodes.some((n) => idOf(n) === parentOf(chat1)) && nodes.some((n) => idOf(n) === parentOf(chat2)));
  assert.deepEqual({ ...chat1.attributes }, {
    'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-test', 'server.address': '127.0.0.1', 'server.port': Number(new URL(s.baseURL).port),
    'gen_ai.response.model': 'test-model', 'gen_ai.response.finish_reasons': ['tool_calls'], 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5,
  });
  assert.equal(chat1.kind, 2); // CLIENT
  assert.deepEqual(chat2.attributes['gen_ai.response.finish_reasons'], ['stop']);
  assert.deepEqual(tools.map((t) => [t.attributes['gen_ai.operation.name'], t.attributes['gen_ai.tool.name'], t.attributes['gen_ai.tool.call.id'], t.status.code]),
    [['execute_tool', 'get_weather', 'c1', SpanStatusCode.UNSET], ['execute_tool', 'get_weather', 'c2', SpanStatusCode.ERROR]]);
  assert.equal(tools[1].attributes['error.type'], 'TOOL_ERROR');
  assert.match(tools[1].status.message, /invalid arguments: \$\.city: is required/);
  assert.ok(spans.every((x) => x.attributes['gen_ai.input.messages'] === undefined && x.attributes['gen_ai.tool.call.arguments'] === undefined), 'no content unless traceContent');
});

test('a failed model call: ERROR status with the typed code on the chat, node and run spans; the key appears nowhere, even with traceContent', async (t) => {
  // The provider echoes the key back in its error, as some proxies do; the client redacts it.
  const s = await startServer([{ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }) }], { apiKey: KEY });
  const { exporter, tracer } = tracing();
  try {
    const r = await agentEngine(t, s.baseURL, tracer, { traceContent: true }).execute({ messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(r.status, 'ERROR');
  } finally { await s.close(); }
  const spans = exporter.getFinishedSpans();
  const byName = Object.fromEntries(spans.map((x) => [x.name, x]));
  const chat = byName['chat gpt-test'];
  assert.equal(chat.status.code, SpanStatusCode.ERROR);
  assert.equal(chat.attributes['error.type'], 'LLM_HTTP_ERROR');
  assert.match(chat.status.message, /^LLM_HTTP_ERROR: the LLM server answered 401/);
  assert.equal(chat.events[0].name, 'exception');
  assert.equal(byName['node agent'].attributes['error.type'], 'LLM_HTTP_ERROR');
  assert.equal(byName['invoke_agent edgegraph'].attributes['error.type'], 'NODE_FAILED');
  assert.equal(byName['invoke_agent edgegraph'].status.code, SpanStatusCode.ERROR);
  assert.match(chat.attributes['gen_ai.input.messages'], /"content":"hi"/, 'traceContent puts the prompt in');
  const everything = JSON.stringify(spans.map((x) => ({ name: x.name, attributes: x.attributes, events: x.events, status: x.status, links: x.links, resource: x.resource.attributes })));
  assert.ok(everything.includes('[redacted]'));
  assert.ok(!everything.includes(KEY) && !everything.includes('SECRET'), 'the API key is in no span');
});

test('content is traced when asked for; a caller\'s context (the real API) parents the run', async (t) => {
  const s = await startServer([{ json: reply(null, [call('c1', 'get_weather', { city: 'Porto' })]) }, { json: reply('Sunny in Porto.') }], { apiKey: KEY });
  const { exporter, tracer } = tracing();
  const outer = tracer.startSpan('http request');
  try {
    await agentEngine(t, s.baseURL, tracer, { traceContent: true }).execute({ messages: [{ role: 'user', content: 'Porto?' }] }, { traceContext: trace.setSpan(context.active(), outer) });
  } finally { outer.end(); await s.close(); }
  const spans = exporter.getFinishedSpans();
  const run = spans.find((x) => x.name === 'invoke_agent edgegraph');
  assert.equal(parentOf(run), idOf(outer));
  assert.ok(spans.every((x) => x.spanContext().traceId === outer.spanContext().traceId));
  const tool = spans.find((x) => x.name === 'execute_tool get_weather');
  assert.equal(tool.attributes['gen_ai.tool.call.arguments'], '{"city":"Porto"}');
  assert.equal(tool.attributes['gen_ai.tool.call.result'], '{"city":"Porto","sky":"sunny"}');
  const last = spans.filter((x) => x.name.startsWith('chat')).at(-1);
  assert.match(last.attributes['gen_ai.output.messages'], /Sunny in Porto\./);
  assert.match(last.attributes['gen_ai.input.messages'], /"role":"tool"/);
});

test('two runs at once on one engine: each node and call span is under its own run, with no context manager', async (t) => {
  let release;
  const gate = new Promise((r) => { release = r; });
  const s = await startServer(async ({ body }) => {
    // Both requests are in flight before either is answered.
    const who = body.messages.at(-1).content;
    if (who === 'first') await gate; else release();
    return { json: reply(`answer to ${who}`) };
  }, { apiKey: KEY });
  const { exporter, tracer } = tracing();
  assert.equal(trace.getSpan(context.active()), undefined);
  try {
    const engine = agentEngine(t, s.baseURL, tracer);
    await Promise.all(['first', 'second'].map((who) => engine.execute({ messages: [{ role: 'user', content: who }] }, { runId: who, traceContext: ROOT_CONTEXT })));
  } finally { await s.close(); }
  const spans = exporter.getFinishedSpans();
  for (const who of ['first', 'second']) {
    const run = spans.find((x) => x.attributes['edgegraph.run.id'] === who);
    const node = spans.find((x) => x.name === 'node agent' && parentOf(x) === idOf(run));
    const chat = spans.find((x) => x.name.startsWith('chat') && parentOf(x) === idOf(node));
    assert.ok(node && chat, `the spans of run ${who}`);
    assert.notEqual(run.spanContext().traceId, spans.find((x) => x.attributes['edgegraph.run.id'] !== who && x.name.startsWith('invoke')).spanContext().traceId);
  }
});

test('another provider: gen_ai.provider.name and the token counts come from its reply (strict Anthropic server, streamed)', async (t) => {
  const s = await startAnthropicServer([{ reply: message([textBlock('Bonjour.')]) }], { apiKey: KEY });
  const { exporter, tracer } = tracing();
  try {
    const agent = createAgentNode({ llm: { provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseURL: s.baseURL }, mode: 'chat' });
    const r = await disposeAfter(t, new GraphEngine({ nodes: { agent }, edges: { agent: '__end__' }, entryPoint: 'agent' }, { tracer })).execute({ messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(r.status, 'FINISHED');
  } finally { await s.close(); }
  const chat = exporter.getFinishedSpans().find((x) => x.name === 'chat claude-test');
  assert.equal(chat.attributes['gen_ai.provider.name'], 'anthropic');
  assert.equal(chat.attributes['gen_ai.response.model'], 'claude-test');
  assert.equal(chat.attributes['gen_ai.usage.input_tokens'], 20 + 12);
  assert.equal(chat.attributes['gen_ai.usage.output_tokens'], 8);
  assert.ok(!JSON.stringify(exporter.getFinishedSpans().map((x) => x.attributes)).includes(KEY));
});

test('a tracer that is not one is an INVALID_OPTIONS error', () => {
  assert.throws(() => new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' }, { tracer: {} }), (e) => e instanceof EdgegraphError && e.code === 'INVALID_OPTIONS' && /options\.tracer/.test(e.message));
});
