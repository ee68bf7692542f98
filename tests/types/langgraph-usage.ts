// Type usage of edgegraph/langgraph, compiled by tsc --strict (make typecheck).
import { StateGraph, Annotation, MessagesAnnotation, START, END, Send, MemorySaver, GraphRecursionError, messagesStateReducer, RemoveMessage, Command, interrupt, InMemoryCache, getConfig, getWriter, getCurrentTaskInput, isInterrupted, INTERRUPT, ToolNode, toolsCondition, Overwrite } from 'edgegraph/langgraph';

const State = Annotation.Root({
  count: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  name: Annotation<string>(),
  topics: Annotation<string[]>,
});

async function main(): Promise<void> {
  const graph = new StateGraph(State)
    .addNode('increment', (state, config) => {
      const n: number = state.count;
      config.writer({ progress: n });
      return { count: 1 };
    })
    .addNode('fan', (state: typeof State.State) => ({ name: state.name }))
    .addEdge(START, 'increment')
    .addConditionalEdges('increment', (state) => (state.count > 2 ? END : state.topics.map((t) => new Send('fan', { topics: [t] }))))
    .addEdge('fan', END)
    .compile({ checkpointer: new MemorySaver() });
  const out = await graph.invoke({ name: 'x', topics: [] }, { configurable: { thread_id: 't' }, recursionLimit: 10 });
  const count: number = out.count;
  for await (const chunk of await graph.stream({ name: 'y' }, { streamMode: ['values', 'updates'] })) console.log(chunk, count);
  const snapshot = await graph.getState({ configurable: { thread_id: 't' } });
  const next: string[] = snapshot.next;
  for await (const past of graph.getStateHistory({ configurable: { thread_id: 't' } }, { limit: 3 })) console.log(past.values.count, next);
  for await (const older of graph.getStateHistory({ configurable: { thread_id: 't' } }, { before: snapshot.config, filter: { source: 'loop' } })) console.log(older.metadata?.step);
  try { await graph.withConfig({ recursionLimit: 1 }).invoke({}); } catch (e) { if (e instanceof GraphRecursionError) console.log(e.code); }
  // LangGraph's constructors: (message, extra), not EdgegraphError's (code, message).
  const own = new GraphRecursionError('too many supersteps', { node: 'a' });
  const lcCode: 'GRAPH_RECURSION_LIMIT' = own.lc_error_code;
  console.log(own.name, lcCode);
  const chat = new StateGraph(MessagesAnnotation).addNode('reply', (s) => ({ messages: [{ role: 'assistant', content: `${s.messages.length}` }] })).addEdge(START, 'reply').compile();
  const reply = await chat.invoke({ messages: [{ role: 'user', content: 'hi' }] });
  console.log(reply.messages.at(-1)?.content, messagesStateReducer([], [new RemoveMessage({ id: 'x' })]));
  const approval = new StateGraph(State)
    .addNode('ask', (s, config) => ({ name: interrupt<string, string>(`ok, ${s.name}?`) + config.interrupt<string>('and?') }))
    .addNode('route', () => new Command({ goto: 'ask', update: { count: 1 } }), { ends: ['ask'] })
    .addEdge(START, 'route')
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ['ask'] });
  const paused = await approval.invoke({ name: 'Ann' }, { configurable: { thread_id: 'a' } });
  console.log(paused.__interrupt__?.[0]?.id);
  // getConfig / getWriter from a helper; isInterrupted narrows the result to one with its interrupts.
  const step: number | undefined = getConfig()?.metadata.langgraph_step;
  getWriter()({ step, name: getCurrentTaskInput<{ name: string }>().name });
  if (isInterrupted<string>(paused)) { const question: string | undefined = paused[INTERRUPT][0]?.value; console.log(question); }   // LangGraph's: the type argument is the value's
  await approval.updateState({ configurable: { thread_id: 'a' } }, { name: 'Bo' }, 'route');
  await approval.invoke(new Command({ resume: 'yes' }), { configurable: { thread_id: 'a' } });
  await approval.updateState({ configurable: { thread_id: 'a' } }, null, END);
  // A compiled graph as a node; its paused state through getState(config, { subgraphs: true }); node caching.
  const child = new StateGraph(State).addNode('inner', () => new Command({ graph: Command.PARENT, goto: 'done', update: { count: 1 } })).addEdge(START, 'inner').compile();
  const parent = new StateGraph(State)
    .addNode('child', child, { ends: ['done'] })
    .addNode('done', () => ({ name: 'done' }), { cachePolicy: { ttl: 60, keyFunc: ([input]) => JSON.stringify(input) } })
    .addEdge(START, 'child')
    .compile({ checkpointer: new MemorySaver(), cache: new InMemoryCache() });
  // A node with an input schema of its own (private state): its function reads that schema's channels.
  const Private = Annotation.Root({ secret: Annotation<string>() });
  const privately = new StateGraph(State)
    .addNode('read', (s) => ({ name: `secret=${s.secret.length}` }), { input: Private })
    .addEdge(START, 'read').compile();
  console.log((await privately.invoke({ name: 'x' })).name);
  const nested = await parent.getState({ configurable: { thread_id: 'p' } }, { subgraphs: true });
  const childState = nested.tasks[0]?.state;
  console.log(childState && 'values' in childState ? childState.next : childState?.configurable.checkpoint_ns);
  const plain = await parent.getState({ configurable: { thread_id: 'p' } });
  const childConfig = plain.tasks[0]?.state;
  if (childConfig && 'configurable' in childConfig) await parent.updateState(childConfig, { name: 'edited' });
  await parent.clearCache();
  // The ReAct how-to: a ToolNode over tools (LangChain's, or any named with this invoke), routed by toolsCondition.
  const search = { name: 'search', invoke: async (call: { id?: string; args: { q: string } }) => ({ role: 'tool', tool_call_id: call.id, content: call.args.q }) };
  const react = new StateGraph(MessagesAnnotation)
    .addNode('agent', () => ({ messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }] }] }))
    .addNode('tools', new ToolNode([search], { handleToolErrors: false }))
    .addEdge(START, 'agent').addConditionalEdges('agent', toolsCondition, ['tools', END]).addEdge('tools', END).compile();
  console.log((await react.invoke({ messages: ['hi'] })).messages.length);
}
void main;

// LangGraph 1.x's input/output schemas as the second argument, Overwrite in an update and an input,
// stream() as a web ReadableStream, getGraph()'s data, getSubgraphs(), batch().
{
  const Items = Annotation.Root({ items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }), note: Annotation<string>() });
  const Only = Annotation.Root({ items: Annotation<string[]>() });
  const g = new StateGraph(Items, { input: Only, output: Only })
    .addNode('a', () => ({ items: new Overwrite<string[]>([]) }))
    .addEdge(START, 'a')
    .compile();
  void g.invoke({ items: new Overwrite(['x']) });
  void g.stream({ items: ['y'] }).then((s) => s.pipeThrough(new TransformStream<unknown, string>({ transform: (c, out) => out.enqueue(JSON.stringify(c)) })));
  const drawn = g.getGraph();
  const targets: string[] = drawn.edges.filter((e) => e.conditional).map((e) => e.target);
  const names: string[] = [...g.getSubgraphs()].map(([name]) => name);
  void g.batch([{ items: [] }, { note: 'n' }]);
  void targets; void names;
}


// StateSchema (LangGraph 1.x's state): value and update types from the fields' schemas (zod's ~standard.types).
import { z } from 'zod';
import { StateSchema, ReducedValue, MessagesValue, UntrackedValue, NodeInterrupt, GraphInterrupt, ParentCommand, isGraphBubbleUp, isParentCommand } from 'edgegraph/langgraph';

const AgentState = new StateSchema({
  messages: MessagesValue,
  count: new ReducedValue(z.number().default(0), { reducer: (a, b) => a + b }),
  items: new ReducedValue(z.array(z.string()).default(() => []), { inputSchema: z.string(), reducer: (current, next) => [...current, next] }),
  name: z.string(),
  cache: new UntrackedValue(z.record(z.string(), z.string())),
});
type AgentValues = typeof AgentState.State;
const agentNode: typeof AgentState.Node = (state) => {
  const n: number = state.count;
  const items: string[] = state.items;
  const name: string = state.name;
  if (n > 3) throw new NodeInterrupt({ why: 'too many' });
  return { count: 1, items: `${name}:${items.length}`, messages: [{ role: 'assistant', content: 'ok' }] };
};
export async function schemaGraph(): Promise<AgentValues> {
  const graph = new StateGraph(AgentState)
    .addNode('agent', agentNode)
    .addNode('other', (state) => ({ items: state.name, cache: { k: 'v' } }))
    .addEdge(START, 'agent').addEdge('agent', 'other').addEdge('other', END)
    .compile();
  try {
    return await graph.invoke({ name: 'x', items: 'first' });
  } catch (e) {
    if (isGraphBubbleUp(e) || e instanceof GraphInterrupt || (isParentCommand(e) && e instanceof ParentCommand)) throw e;
    throw e;
  }
}

// LangGraph 1.7's node policies: a timeout, an errorHandler, graph-wide defaults; its error classes.
import { BaseLangGraphError, NodeTimeoutError, isNodeTimeoutError, NodeError, GraphBubbleUp, UnknownInterruptError } from 'edgegraph/langgraph';
export async function policies(): Promise<void> {
  const graph = new StateGraph(State)
    .setNodeDefaults({ retryPolicy: { maxAttempts: 2 }, timeout: 30_000 })
    .addNode('fetch', () => ({ name: 'x' }), {
      timeout: { runTimeout: 5_000 },
      errorHandler: (state, error: NodeError) => ({ name: `${error.node}: ${String(error.error)} at ${state.count}` }),
    })
    .addEdge(START, 'fetch').addEdge('fetch', END)
    .compile();
  try {
    await graph.invoke({});
  } catch (e) {
    if (e instanceof GraphBubbleUp) throw e;
    if (e instanceof NodeTimeoutError || isNodeTimeoutError(e)) console.log(e.node, e.code);
    if (e instanceof BaseLangGraphError && !(e instanceof UnknownInterruptError)) console.log(e.lc_error_code);
  }
}
