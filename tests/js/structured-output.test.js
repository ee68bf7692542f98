// Structured output: responseFormat on agent and LLM nodes, against the
// strict OpenAI loopback server, which refuses a strict schema OpenAI would
// refuse (an object without additionalProperties: false, a property missing
// from required, allOf...). The reply is parsed and checked by the schema's
// own validator; one that does not fit is a typed error naming the field.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import * as v from 'valibot';
import { GraphEngine, createAgentNode, createLLMNode, createChatClient, EdgegraphError, LLMError } from 'edgegraph';
import { createScriptedFetch } from 'edgegraph/testing';
import { startServer, reply, call } from './support/openai-server.js';
import { disposeAfter } from './support/dispose.js';

async function withServer(script, fn, options) {
  const server = await startServer(script, options);
  try { return await fn(server); } finally { await server.close(); }
}

const oneNode = (t, node) => disposeAfter(t, new GraphEngine({ nodes: { extract: node }, edges: { extract: '__end__' }, entryPoint: 'extract' }));

const Review = z.object({
  sentiment: z.enum(['positive', 'negative']),
  score: z.number().min(1).max(5),
  summary: z.string().min(3).optional(),
  pros: z.array(z.object({ text: z.string(), weight: z.number().optional() })),
});

test('a Zod response format: the request carries the strict schema, the reply lands parsed in state.structuredResponse (after a tool round)', (t) => withServer([
  { json: reply(null, [call('c1', 'lookup', { id: 'r1' })]) },
  { json: reply(JSON.stringify({ sentiment: 'positive', score: 4, summary: null, pros: [{ text: 'fast', weight: null }] })) },
], async (s) => {
  const lookup = { name: 'lookup', parameters: z.object({ id: z.string() }), run: () => 'Great product, fast shipping.' };
  const agent = createAgentNode({ llm: { baseURL: s.baseURL, model: 'm' }, tools: [lookup], stream: false, responseFormat: { name: 'review', schema: Review } });
  const r = await oneNode(t, agent).execute({ messages: [{ role: 'user', content: 'review r1' }] });
  assert.equal(r.status, 'FINISHED');
  // Strict-mode nulls for optional properties are gone: Zod sees them absent.
  assert.deepEqual(r.state.structuredResponse, { sentiment: 'positive', score: 4, pros: [{ text: 'fast' }] });
  const format = s.requests[1].body.response_format;
  assert.equal(format.type, 'json_schema');
  assert.equal(format.json_schema.name, 'review');
  assert.equal(format.json_schema.strict, true);
  const schema = format.json_schema.schema;
  assert.deepEqual(schema.required, ['sentiment', 'score', 'summary', 'pros']);
  assert.equal(schema.additionalProperties, false);
  assert.deepEqual(schema.properties.summary.type, ['string', 'null']);
  assert.equal(schema.properties.summary.minLength, undefined, 'minLength is not sent in strict mode');
  assert.deepEqual(schema.properties.pros.items.required, ['text', 'weight']);
  assert.equal(schema.properties.pros.items.additionalProperties, false);
  assert.equal(s.requests[0].body.response_format.json_schema.name, 'review', 'every call of the loop carries the format');
}));

test('a reply that does not fit is STRUCTURED_OUTPUT_INVALID naming the field; the state so far is kept', (t) => withServer([
  { json: reply(JSON.stringify({ sentiment: 'meh', score: 9, summary: 'ok', pros: [] })) },
  { json: reply('Sure! Here is your JSON:') },
], async (s) => {
  const engine = oneNode(t, createLLMNode({ llm: { baseURL: s.baseURL, model: 'm' }, stream: false, responseFormat: { name: 'review', schema: Review } }));
  const r = await engine.execute({ messages: [{ role: 'user', content: 'review it' }], data: { ticket: 7 } });
  assert.equal(r.status, 'ERROR');
  const e = r.error.cause;
  assert.ok(e instanceof EdgegraphError);
  assert.equal(e.code, 'STRUCTURED_OUTPUT_INVALID');
  assert.match(e.message, /^node 'extract': the reply for review does not fit the schema: \$\.sentiment: .*; \$\.score: /);
  assert.equal(e.node, 'extract');
  assert.match(e.text, /"score":9/);
  assert.equal(r.state.data.ticket, 7);
  assert.equal(r.state.messages.at(-1).content, 'review it');

  const again = await engine.resume(r.checkpoint);
  assert.equal(again.error.cause.code, 'STRUCTURED_OUTPUT_INVALID');
  assert.match(again.error.cause.message, /is not JSON/);
}));

test('JSON Schema and Valibot formats; strict: false sends the schema as given', (t) => withServer([
  { json: reply('{"city":"Lisbon","temp":21}') },
  { json: reply('{"tags":["a"]}') },
], async (s) => {
  const weather = { type: 'object', properties: { city: { type: 'string' }, temp: { type: 'number' } }, required: ['city', 'temp'] };
  const first = await oneNode(t, createLLMNode({ llm: { baseURL: s.baseURL, model: 'm' }, stream: false, responseFormat: { name: 'weather', schema: weather } })).execute({ messages: [{ role: 'user', content: 'x' }] });
  assert.deepEqual(first.state.structuredResponse, { city: 'Lisbon', temp: 21 });
  const tags = v.object({ tags: v.array(v.string()) });
  const loose = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } };
  const second = await oneNode(t, createLLMNode({ llm: { baseURL: s.baseURL, model: 'm' }, stream: false, responseFormat: { name: 'tags', schema: tags, jsonSchema: loose, strict: false } })).execute({ messages: [{ role: 'user', content: 'x' }] });
  assert.deepEqual(second.state.structuredResponse, { tags: ['a'] });
  assert.deepEqual(s.requests[1].body.response_format.json_schema, { name: 'tags', schema: loose, strict: false });
}));

test('a reply fenced as Markdown JSON (a provider without strict mode) is read; prose around it is not', (t) => withServer([
  { json: reply('```json\n{"city":"Lisbon","temp":21}\n```') },
  { json: reply('Here: ```json\n{"city":"Lisbon","temp":21}\n```') },
], async (s) => {
  const weather = { type: 'object', properties: { city: { type: 'string' } , temp: { type: 'number' } }, required: ['city', 'temp'] };
  const engine = oneNode(t, createLLMNode({ llm: { baseURL: s.baseURL, model: 'm' }, stream: false, responseFormat: { name: 'weather', schema: weather } }));
  const first = await engine.execute({ messages: [{ role: 'user', content: 'x' }] });
  assert.deepEqual(first.state.structuredResponse, { city: 'Lisbon', temp: 21 });
  const second = await engine.execute({ messages: [{ role: 'user', content: 'x' }] });
  assert.equal(second.error.cause.code, 'STRUCTURED_OUTPUT_INVALID');
}));

test('what strict mode cannot express is a definition error naming the path', () => {
  const make = (schema, extra = {}) => () => createAgentNode({ llm: { model: 'm' }, responseFormat: { name: 'out', schema, ...extra } });
  const definitionError = (pattern) => (e) => e instanceof EdgegraphError && e.code === 'INVALID_DEFINITION' && pattern.test(e.message);
  assert.throws(make({ type: 'object', properties: { a: { allOf: [{ type: 'string' }] } } }), definitionError(/responseFormat 'out': \$\.a uses 'allOf'/));
  assert.throws(make(z.object({ scores: z.record(z.string(), z.number()) })), definitionError(/\$\.scores allows additional properties/));
  assert.throws(make(z.string()), definitionError(/root of a strict schema must be an object/));
  assert.throws(make(v.object({ a: v.string() })), definitionError(/valibot schemas have no JSON Schema conversion/));
  assert.throws(make({ type: 'object' }, { name: 'bad name' }), definitionError(/1-64 letters/));
});

test('the strict server refuses a strict schema OpenAI refuses, with OpenAI\'s message', () => withServer([], async (s) => {
  const client = createChatClient({ baseURL: s.baseURL, model: 'm', maxRetries: 0 });
  const send = (schema) => client.chat({ messages: [{ role: 'user', content: 'x' }], responseFormat: { name: 'out', schema, strict: true } });
  await assert.rejects(send({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }),
    (e) => e instanceof LLMError && e.status === 400 && /Invalid schema for response_format 'out': In context=\(\), 'additionalProperties' is required to be supplied and to be false\./.test(e.message));
  await assert.rejects(send({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false } }, required: ['a'], additionalProperties: false }),
    (e) => /In context=\('properties', 'a'\), 'required' is required to be supplied and to be an array including every key in properties\. Missing 'b'\./.test(e.message));
  assert.equal(s.rejected.length, 2);
}, { expectRejections: true }));

test('offline, the scripted fetch of edgegraph/testing sees the response format and checks it as OpenAI would', async (t) => {
  const seen = [];
  const fetch = createScriptedFetch(({ responseFormat }) => { seen.push(responseFormat); return JSON.stringify({ sentiment: 'negative', score: 2, summary: null, pros: [] }); });
  const engine = oneNode(t, createLLMNode({ llm: { model: 'm', fetch }, responseFormat: { name: 'review', schema: Review } }));
  const r = await engine.execute({ messages: [{ role: 'user', content: 'meh' }] });
  assert.deepEqual(r.state.structuredResponse, { sentiment: 'negative', score: 2, pros: [] });
  assert.equal(seen[0].json_schema.strict, true);
  const loose = createChatClient({ model: 'm', fetch, maxRetries: 0 });
  await assert.rejects(loose.chat({ messages: [{ role: 'user', content: 'x' }], responseFormat: { name: 'r', schema: { type: 'object', properties: {} }, strict: true } }), (e) => e.status === 400 && /'additionalProperties' is required/.test(e.message));
});
