// edgegraph/langgraph/zod from the packed package, in an app without zod: its types name no
// zod type, and a field's value type is read from the schema by shape (zod v4's _zod.output).
import { StateGraph, START, END } from 'edgegraph/langgraph';
import { withLangGraph, registry, MessagesZodState } from 'edgegraph/langgraph/zod';

const tags = withLangGraph({ _zod: { output: [] as string[] } }, { reducer: { fn: (a, b) => a.concat(b) }, default: () => [] });
const doubled: string[] = registry.get(tags)?.default?.() ?? [];

export async function chat(): Promise<void> {
  const graph = new StateGraph(MessagesZodState.extend({ tags })).addNode('n', () => ({ tags: ['x'] })).addEdge(START, 'n').addEdge('n', END).compile();
  console.log(await graph.invoke({}), doubled, tags.lg_reducer_schema);
}

// invoke() with another streamMode gives its chunks; batch() with returnExceptions, a failed input's Error in its place.
export async function calls(): Promise<number> {
  const graph = new StateGraph(MessagesZodState).addNode('n', () => ({})).addEdge(START, 'n').addEdge('n', END).compile();
  const chunks: any[] = await graph.invoke({}, { streamMode: 'updates' });
  const results = await graph.batch([{}, {}], undefined, { returnExceptions: true });
  return chunks.length + results.filter((r) => r instanceof Error).length;
}

// stream() as server-sent events: a Response's body.
export async function sse(): Promise<Response> {
  const graph = new StateGraph(MessagesZodState).addNode('n', () => ({})).addEdge(START, 'n').addEdge('n', END).compile();
  const body: ReadableStream<Uint8Array> = await graph.stream({}, { streamMode: 'updates', encoding: 'text/event-stream' });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}
