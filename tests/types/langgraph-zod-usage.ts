// Type usage of edgegraph/langgraph/zod with zod v4 and v3, compiled by tsc --strict (make typecheck):
// Zod v4's register() takes the registry, withLangGraph types its reducer from the field.
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import type { Message } from 'edgegraph';
import { StateGraph, START, END, messagesStateReducer } from 'edgegraph/langgraph';
import { withLangGraph, registry, MessagesZodState, MessagesZodMeta, type SchemaMeta } from 'edgegraph/langgraph/zod';

const State = z.object({
  items: z.array(z.string()).register(registry, { reducer: { fn: (a: string[], b: string[]) => a.concat(b) }, default: () => [] }),
  messages: withLangGraph(z.custom<Message[]>(), { reducer: { schema: z.custom(), fn: messagesStateReducer }, default: () => [] }),
  chat: z.custom<unknown[]>().register(registry, MessagesZodMeta),
  total: withLangGraph(z.number(), { reducer: { fn: (a, b) => a + b }, default: () => 0 }),
  label: withLangGraph(z.string(), { default: () => 'none' }),
});
const items: z.ZodArray<z.ZodString> = State.shape.items;
const reducerSchema: unknown = State.shape.total.lg_reducer_schema;
// @ts-expect-error: the reducer's arguments are the field's value type (number), not strings
withLangGraph(z.number(), { reducer: { fn: (a: string, b: string) => a + b } });

const Shaped = z3.object({ messages: MessagesZodState.shape.messages, turns: z3.number() });
const Extended = MessagesZodState.extend({ summary: z.string().optional() });
const meta: SchemaMeta | undefined = registry.get(items);

async function main(): Promise<void> {
  const graph = new StateGraph(State).addNode('n', () => ({ items: ['x'], total: 1 })).addEdge(START, 'n').addEdge('n', END).compile();
  const out = await graph.invoke({ items: [] });
  const chat = new StateGraph(MessagesZodState).addNode('n', () => ({ messages: [{ role: 'assistant', content: 'hi' }] })).addEdge(START, 'n').addEdge('n', END).compile();
  console.log(out, await chat.invoke({}), Shaped, Extended.shape.summary, meta?.reducer?.fn, reducerSchema, registry.has(items));
}
void main;
