// A realistic consumer program, type-checked against the published package.
import {
  GraphEngine, GraphBuilder, createEndNode, createAgentNode, MemoryStore, approve, EdgegraphError,
  type IGraphState, type GraphNode, type ToolDefinition, type GraphEvent,
} from 'edgegraph';
import { loadEncoding } from 'edgegraph/tokenizer';

interface TicketState extends IGraphState {
  data: { priority?: number; team?: 'billing' | 'tech'; summary?: string };
}

const triage: GraphNode<TicketState> = (state) => ({
  data: { priority: state.messages.length > 3 ? 1 : 2, team: state.messages.at(-1)?.content === 'refund' ? 'billing' : 'tech' },
});

const lookup: ToolDefinition<{ id: string }> = {
  name: 'lookup_order',
  description: 'Find an order',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  needsApproval: (args) => args.id.startsWith('vip-'),
  run: async ({ id }) => ({ id, total: 42 }),
};

const agent = createAgentNode<TicketState>({
  llm: { model: 'gpt-4o-mini', baseURL: 'http://localhost:11434/v1', apiKey: process.env.OPENAI_API_KEY },
  mode: 'react',
  agentInfo: { name: 'Support', goal: 'Resolve tickets' },
  tools: [lookup],
});

const definition = new GraphBuilder<TicketState>()
  .addNode('triage', triage)
  .addNode('agent', agent)
  .addNode('end', createEndNode<TicketState>())
  .addConditionalEdge('triage', (state) => (state.data.team === 'billing' ? 'agent' : 'end'), ['agent', 'end'])
  .addEdge('agent', 'end')
  .setEntryPoint('triage')
  .build();

export async function main(): Promise<void> {
  const tokenizer = await loadEncoding('o200k_base');
  const engine = new GraphEngine<TicketState>(definition, { checkpointer: new MemoryStore(), maxContextTokens: 4000, tokenizer });
  const events: GraphEvent<TicketState>[] = [];
  const result = await engine.execute({ messages: [{ role: 'user', content: 'refund' }], data: {} }, { threadId: 't-1', onEvent: (e) => events.push(e) });
  const priority: number | undefined = result.state.data.priority;
  if (result.status === 'PAUSED') {
    const done = await engine.resume({ threadId: 't-1' }, approve());
    console.log(done.state.data.summary, priority);
  }
  if (result.error instanceof EdgegraphError) console.log(result.error.code satisfies string);
  for (const h of await engine.getStateHistory('t-1')) console.log(h.checkpointId, h.status);
  engine.dispose();
}
