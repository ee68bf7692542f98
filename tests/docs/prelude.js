// prelude.js: loaded before every code sample of the docs. Samples talk to
// "real" endpoints (https://api.openai.com/v1, http://localhost:11434/v1);
// here any /chat/completions request goes to the strict OpenAI server on
// loopback (tests/js/support/openai-server.js), which checks it as
// api.openai.com would and answers with this policy: it calls the first tool
// offered (arguments made from its schema) when the user has just spoken,
// and otherwise answers in text. A sample that sent a request OpenAI refuses
// fails, even if it never looked at the run's status.

import { startServer, fromPolicy } from '../js/support/openai-server.js';

function example(schema) {
  if (!schema || typeof schema !== 'object') return 'example';
  if (schema.type === 'object') {
    const out = {};
    for (const key of schema.required ?? Object.keys(schema.properties ?? {})) out[key] = example(schema.properties?.[key]);
    return out;
  }
  if (schema.type === 'number' || schema.type === 'integer') return 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return [];
  if (schema.enum) return schema.enum[0];
  return 'example';
}

const policy = ({ messages, tools, responseFormat }) => {
  const last = messages.at(-1);
  if (tools?.length && last.role === 'user') {
    const t = tools[0].function;
    return { toolCalls: [{ name: t.name, arguments: example(t.parameters) }] };
  }
  if (last.role === 'tool') return `Done: ${last.content.slice(0, 60)}`;
  // Asked for JSON of a schema: an example of it, as a model in strict mode would answer.
  if (responseFormat?.type === 'json_schema') return JSON.stringify(example(responseFormat.json_schema.schema));
  return `You said: ${typeof last.content === 'string' ? last.content : '...'}`;
};

const llm = await startServer(fromPolicy(policy));
// The server must not keep a finished sample alive.
llm.unref();
const endpoint = `${llm.baseURL}/chat/completions`;

const realFetch = globalThis.fetch;
globalThis.fetch = (url, init) => (String(url).split('?')[0].endsWith('/chat/completions') ? realFetch(endpoint, init) : realFetch(url, init));

process.on('exit', () => {
  if (!llm.rejected.length) return;
  for (const r of llm.rejected) console.error(`the strict OpenAI server refused a request of this sample: ${r.error.message} (param ${r.error.param})`);
  process.exitCode = 1;
});

// Node's console.assert only prints; in a sample a failed assertion must fail the docs.
console.assert = (condition, ...message) => {
  if (!condition) throw new Error(`Assertion failed: ${message.join(' ')}`);
};

// The other providers' samples (docs/providers.md): Anthropic's, Gemini's and
// the Responses API's hosts go to their strict loopback servers, which answer
// with the same policy in each provider's own shape.
import { startAnthropicServer, message, textBlock, toolUse } from '../js/support/anthropic-server.js';
import { startGeminiServer, candidate } from '../js/support/gemini-server.js';
import { startResponsesServer, response, outputText, functionCall } from '../js/support/responses-server.js';

let calls = 0;
/** The policy's answer from the last turn's kind and the first tool offered ({ name, schema }). */
function answer(lastKind, lastText, tool) {
  if (tool && lastKind === 'user') return { call: { id: `call_${++calls}`, name: tool.name, args: example(tool.schema) } };
  return { text: lastKind === 'tool' ? `Done: ${lastText.slice(0, 60)}` : `You said: ${lastText}` };
}
const others = {
  anthropic: await startAnthropicServer(({ body }) => {
    const last = body.messages.at(-1);
    const block = typeof last.content === 'string' ? { type: 'text', text: last.content } : last.content.at(-1);
    const a = answer(block.type === 'tool_result' ? 'tool' : 'user', block.type === 'tool_result' ? String(block.content) : block.text ?? '...', body.tools?.[0] && { name: body.tools[0].name, schema: body.tools[0].input_schema });
    return { reply: message([a.call ? toolUse(a.call.id, a.call.name, a.call.args) : textBlock(a.text)]) };
  }),
  gemini: await startGeminiServer(({ body }) => {
    const part = body.contents.at(-1).parts.at(-1);
    const f = body.tools?.[0]?.functionDeclarations?.[0];
    const a = answer(part.functionResponse ? 'tool' : 'user', part.functionResponse ? String(part.functionResponse.response.result) : part.text ?? '...', f && { name: f.name, schema: f.parametersJsonSchema });
    return { reply: candidate([a.call ? { functionCall: { name: a.call.name, args: a.call.args } } : { text: a.text }]) };
  }),
  responses: await startResponsesServer(({ body }) => {
    const last = body.input.at(-1);
    const t = body.tools?.[0];
    const a = answer(last.type === 'function_call_output' ? 'tool' : 'user', last.output ?? (typeof last.content === 'string' ? last.content : '...'), t && { name: t.name, schema: t.parameters });
    return { reply: response([a.call ? functionCall(a.call.id, a.call.name, a.call.args) : outputText(a.text)]) };
  }),
};
for (const s of Object.values(others)) s.unref();
const routes = [
  [/^https:\/\/api\.anthropic\.com\/v1/, others.anthropic.baseURL],
  [/^https:\/\/generativelanguage\.googleapis\.com\/v1beta/, others.gemini.baseURL],
  [/^https:\/\/api\.openai\.com\/v1(?=\/responses)/, others.responses.baseURL],
];
const chatFetch = globalThis.fetch;
globalThis.fetch = (url, init) => {
  const route = routes.find(([host]) => host.test(String(url)));
  return route ? realFetch(String(url).replace(route[0], route[1]), init) : chatFetch(url, init);
};
process.on('exit', () => {
  for (const [name, s] of Object.entries(others)) {
    for (const r of s.rejected) console.error(`the strict ${name} server refused a request of this sample: ${r.message}`);
    if (s.rejected.length) process.exitCode = 1;
  }
});
