// Tools whose parameters are Standard Schemas (Zod 4, Valibot), through the
// full agent tool loop against the strict OpenAI loopback server: the JSON
// Schema the model gets comes from the library, arguments are checked by the
// library's own validator, and a tool never runs on arguments it refuses.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import * as v from 'valibot';
import { GraphEngine, createAgentNode, createLLMNode, EdgegraphError } from 'edgegraph';
import { startServer, reply, call } from './support/openai-server.js';

async function agentRun(tools, script) {
  const server = await startServer(script);
  const engine = new GraphEngine({ nodes: { agent: createAgentNode({ llm: { baseURL: server.baseURL, model: 'm' }, tools, stream: false }) }, edges: { agent: '__end__' }, entryPoint: 'agent' });
  try {
    const result = await engine.execute({ messages: [{ role: 'user', content: 'go' }] });
    return { result, requests: server.requests };
  } finally { engine.dispose(); await server.close(); }
}

test('a Zod tool: the model gets Zod\'s JSON Schema; valid arguments run (with defaults filled), invalid ones come back naming the path', async () => {
  const ran = [];
  const forecast = {
    name: 'forecast',
    description: 'Weather for a city',
    parameters: z.object({ city: z.string().min(2), days: z.number().int().default(1), units: z.enum(['c', 'f']).optional() }),
    run: (args) => { ran.push(args); return { sky: 'sunny', days: args.days }; },
  };
  const { result, requests } = await agentRun([forecast], [
    { json: reply(null, [call('c1', 'forecast', { city: 'Lisbon' }), call('c2', 'forecast', { city: 7, units: 'k' })]) },
    { json: reply('Sunny in Lisbon.') },
  ]);
  assert.equal(result.status, 'FINISHED');
  const sent = requests[0].body.tools[0].function.parameters;
  assert.equal(sent.type, 'object');
  assert.deepEqual(sent.required, ['city']);
  assert.deepEqual(sent.properties.units.enum, ['c', 'f']);
  assert.equal(sent.$schema, undefined);
  assert.deepEqual(ran, [{ city: 'Lisbon', days: 1 }]);
  const answers = requests[1].body.messages.filter((m) => m.role === 'tool');
  assert.equal(answers[0].content, '{"sky":"sunny","days":1}');
  assert.match(answers[1].content, /^Error: invalid arguments: \$\.city: .*expected string/);
  assert.match(answers[1].content, /\$\.units: /);
  assert.deepEqual(result.state.toolCalls.map((t) => t.status), ['ok', 'error']);
  assert.deepEqual(result.state.toolCalls[1].arguments, { city: 7, units: 'k' });
});

test('a Valibot tool with the JSON Schema beside it: Valibot validates, nested paths are named', async () => {
  const ran = [];
  const parameters = v.object({ to: v.pipe(v.string(), v.email()), tags: v.array(v.string()) });
  const jsonSchema = { type: 'object', properties: { to: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['to', 'tags'] };
  const mail = { name: 'mail', description: 'Send mail', parameters, jsonSchema, run: (args) => { ran.push(args); return 'sent'; } };
  const { result, requests } = await agentRun([mail], [
    { json: reply(null, [call('c1', 'mail', { to: 'a@b.co', tags: ['x'] }), call('c2', 'mail', { to: 'nope', tags: ['x', 3] })]) },
    { json: reply('done') },
  ]);
  assert.equal(result.status, 'FINISHED');
  assert.deepEqual(requests[0].body.tools[0].function.parameters, jsonSchema);
  assert.deepEqual(ran, [{ to: 'a@b.co', tags: ['x'] }]);
  const answers = requests[1].body.messages.filter((m) => m.role === 'tool');
  assert.equal(answers[0].content, 'sent');
  assert.match(answers[1].content, /^Error: invalid arguments: \$\.to: Invalid email/);
  assert.match(answers[1].content, /\$\.tags\[1\]: Invalid type: Expected string but received 3/);
});

test('a Valibot tool without a JSON Schema is a typed definition error naming the tool', () => {
  const lookup = { name: 'lookup', parameters: v.object({ q: v.string() }), run: () => 'x' };
  for (const make of [() => createAgentNode({ llm: { model: 'm' }, tools: [lookup] }), () => createLLMNode({ llm: { model: 'm' }, tools: [lookup] })]) {
    assert.throws(make, (e) => e instanceof EdgegraphError && e.code === 'INVALID_DEFINITION' && /tool 'lookup': valibot schemas have no JSON Schema conversion.*jsonSchema/.test(e.message));
  }
});

test('an async Standard Schema is awaited; its issues become the tool result', async () => {
  const ran = [];
  // A hand-written Standard Schema whose validator answers later, as a remote check would.
  const parameters = {
    '~standard': {
      version: 1, vendor: 'custom',
      validate: async (value) => (typeof value?.id === 'string' ? { value: { id: value.id.toUpperCase() } } : { issues: [{ message: 'an id is needed', path: [{ key: 'id' }] }] }),
    },
  };
  const find = { name: 'find', parameters, jsonSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, run: (args) => { ran.push(args); return 'found'; } };
  const { requests } = await agentRun([find], [
    { json: reply(null, [call('c1', 'find', { id: 'ab' }), call('c2', 'find', {})]) },
    { json: reply('ok') },
  ]);
  assert.deepEqual(ran, [{ id: 'AB' }]);
  assert.deepEqual(requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content), ['found', 'Error: invalid arguments: $.id: an id is needed']);
});
