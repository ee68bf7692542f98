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
