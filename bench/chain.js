// bench/chain.js: the same chain of no-op nodes in edgegraph, LangGraph.js
// and a bare JS loop.

import { GraphEngine, MemoryStore, Checkpointer } from 'edgegraph';
import { StateGraph, Annotation, START, END, MemorySaver } from '@langchain/langgraph';

const noop = () => ({});

export function edgegraphChain(n, node = noop) {
  const nodes = {};
  const edges = {};
  for (let i = 0; i < n; i++) { nodes[`n${i}`] = node; edges[`n${i}`] = i + 1 < n ? `n${i + 1}` : '__end__'; }
  const engine = new GraphEngine({ nodes, edges, entryPoint: 'n0' }, { maxSteps: n + 1 });
  return (state) => engine.execute(state);
}

function langgraphChainGraph(n) {
  const State = Annotation.Root({
    messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    data: Annotation({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
  });
  let g = new StateGraph(State);
  for (let i = 0; i < n; i++) g = g.addNode(`n${i}`, noop);
  g = g.addEdge(START, 'n0');
  for (let i = 0; i + 1 < n; i++) g = g.addEdge(`n${i}`, `n${i + 1}`);
  return g.addEdge(`n${n - 1}`, END);
}

export function langgraphChain(n) {
  const app = langgraphChainGraph(n).compile();
  return (state) => app.invoke(state, { recursionLimit: n + 10 });
}

/** The floor: call the same functions in a loop, merging their results. */
export function bareLoop(n) {
  const fns = Array.from({ length: n }, () => noop);
  return async (state) => {
    let s = state;
    for (const f of fns) s = { ...s, ...(await f(s)) };
    return s;
  };
}

/** A state of about `bytes`, as a chat history of ~500-byte messages. */
export function bigState(bytes) {
  const messages = [];
  const text = 'lorem ipsum dolor sit amet '.repeat(18);
  for (let i = 0; JSON.stringify(messages).length < bytes; i++) {
    messages.push({ role: i % 2 ? 'assistant' : 'user', content: `${i}: ${text}`, id: `m${i}` });
  }
  return { messages, data: { topic: 'bench' } };
}

/** split -> 10 parallel no-op branches -> join: three supersteps. */
export function edgegraphFanOut(width) {
  const nodes = { split: noop, join: noop };
  const edges = { split: [], join: '__end__' };
  for (let i = 0; i < width; i++) { nodes[`b${i}`] = noop; edges.split.push(`b${i}`); edges[`b${i}`] = 'join'; }
  const engine = new GraphEngine({ nodes, edges, entryPoint: 'split' });
  return (state) => engine.execute(state);
}

export function langgraphFanOut(width) {
  const State = Annotation.Root({ data: Annotation({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }) });
  let g = new StateGraph(State).addNode('split', noop).addNode('join', noop);
  for (let i = 0; i < width; i++) g = g.addNode(`b${i}`, noop);
  g = g.addEdge(START, 'split');
  for (let i = 0; i < width; i++) g = g.addEdge('split', `b${i}`).addEdge(`b${i}`, 'join');
  g = g.addEdge('join', END);
  const app = g.compile();
  return (state) => app.invoke(state);
}

/** Bytes of checkpoints each engine keeps for one run of the 100-node chain. */
export async function checkpointBytes(n, state) {
  const nodes = {}, edges = {};
  for (let i = 0; i < n; i++) { nodes[`n${i}`] = noop; edges[`n${i}`] = i + 1 < n ? `n${i + 1}` : '__end__'; }
  const store = new MemoryStore();
  await new GraphEngine({ nodes, edges, entryPoint: 'n0' }, { maxSteps: n + 1, checkpointer: store }).execute(state, { threadId: 'bench' });
  const saver = new MemorySaver();
  await langgraphChainGraph(n).compile({ checkpointer: saver }).invoke(state, { recursionLimit: n + 10, configurable: { thread_id: 'bench' } });
  const size = (v) => (v instanceof Uint8Array ? v.byteLength : typeof v === 'string' ? v.length : v && typeof v === 'object' ? Object.values(v).reduce((a, x) => a + size(x), 0) : 0);
  return { ours: store.size, theirs: size(saver.storage) + size(saver.writes) };
}

/**
 * A chain whose node i writes one key (data.k<i>), each step checkpointed
 * under a thread in a MemoryStore (a full snapshot every `snapshotEvery` records).
 */
export function edgegraphThreadedChain(n, snapshotEvery = 100) {
  const nodes = {}, edges = {};
  for (let i = 0; i < n; i++) { nodes[`n${i}`] = () => ({ data: { [`k${i}`]: i } }); edges[`n${i}`] = i + 1 < n ? `n${i + 1}` : '__end__'; }
  const engine = new GraphEngine({ nodes, edges, entryPoint: 'n0' }, { maxSteps: n + 1, checkpointer: new Checkpointer(new MemoryStore(), { snapshotEvery }) });
  let t = 0;
  return (state) => engine.execute(state, { threadId: `t${t++}` });
}

/** The same in LangGraph.js with a MemorySaver. */
export function langgraphThreadedChain(n) {
  const State = Annotation.Root({
    messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    data: Annotation({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
  });
  let g = new StateGraph(State);
  for (let i = 0; i < n; i++) g = g.addNode(`n${i}`, () => ({ data: { [`k${i}`]: i } }));
  g = g.addEdge(START, 'n0');
  for (let i = 0; i + 1 < n; i++) g = g.addEdge(`n${i}`, `n${i + 1}`);
  const app = g.addEdge(`n${n - 1}`, END).compile({ checkpointer: new MemorySaver() });
  let t = 0;
  return (state) => app.invoke(state, { recursionLimit: n + 10, configurable: { thread_id: `t${t++}` } });
}
