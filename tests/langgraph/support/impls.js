// The two implementations every ported test runs against: LangGraph.js itself
// (proving the port asserts what LangGraph does) and edgegraph/langgraph.
// Where edgegraph differs on purpose (docs/migrating-from-langgraph.md, the
// table of differences), a test branches on `impl.name` and asserts each one's
// documented behaviour.

import * as langgraph from '@langchain/langgraph';
import * as edgegraph from 'edgegraph/langgraph';

export const implementations = [
  { name: 'langgraph', ...langgraph },
  { name: 'edgegraph', ...edgegraph },
];

const ROLE = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool' };

/** A message of either implementation as { role, content, id? } (LangChain classes or plain messages). */
export function view(m) {
  const type = typeof m._getType === 'function' ? m._getType() : undefined;
  const out = { role: type ? ROLE[type] ?? type : m.role, content: m.content };
  if (m.id !== undefined && m.id !== null) out.id = m.id;
  return out;
}

export const views = (list) => list.map(view);

/** Collect a stream's chunks. */
export async function collect(stream) {
  const out = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

/** Each test file's loop: `for (const impl of implementations) test(`${impl.name}: ...`, ...)`. */
export const named = (impl, title) => `${impl.name}: ${title}`;
