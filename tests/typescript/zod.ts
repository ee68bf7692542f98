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
