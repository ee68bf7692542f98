// Must NOT compile: the node returns a string where the state has a number.
import { GraphEngine, type IGraphState, type GraphNode } from 'edgegraph';

interface TicketState extends IGraphState {
  data: { priority?: number };
}

const wrong: GraphNode<TicketState> = () => ({ data: { priority: 'high' } });

export const engine = new GraphEngine<TicketState>({ nodes: { wrong }, edges: { wrong: '__end__' }, entryPoint: 'wrong' });
