// prelude.js: loaded before every code sample of the docs. Samples talk to
// "real" endpoints (https://api.openai.com/v1, http://localhost:11434/v1);
// here any /chat/completions request goes to an offline stand-in: it calls
// the first tool offered (arguments made from its schema) when the user has
// just spoken, and otherwise answers in text.

import { createScriptedFetch } from 'edgegraph/testing';

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

const model = createScriptedFetch(({ messages, tools }) => {
  const last = messages.at(-1);
  if (tools?.length && last.role === 'user') {
    const t = tools[0].function;
    const args = example(t.parameters);
    return { toolCalls: [{ name: t.name, arguments: args }] };
  }
  if (last.role === 'tool') return `Done: ${last.content.slice(0, 60)}`;
  return `You said: ${typeof last.content === 'string' ? last.content : '...'}`;
});

const realFetch = globalThis.fetch;
globalThis.fetch = (url, init) => (String(url).endsWith('/chat/completions') ? model(url, init) : realFetch(url, init));

// Node's console.assert only prints; in a sample a failed assertion must fail the docs.
console.assert = (condition, ...message) => {
  if (!condition) throw new Error(`Assertion failed: ${message.join(' ')}`);
};
