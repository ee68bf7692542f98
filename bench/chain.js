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

function langgraphChainGraph(n, node = noop) {
  const State = Annotation.Root({
    messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    data: Annotation({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
  });
  let g = new StateGraph(State);
  for (let i = 0; i < n; i++) g = g.addNode(`n${i}`, node);
  g = g.addEdge(START, 'n0');
  for (let i = 0; i + 1 < n; i++) g = g.addEdge(`n${i}`, `n${i + 1}`);
  return g.addEdge(`n${n - 1}`, END);
}

export function langgraphChain(n, node = noop) {
  const app = langgraphChainGraph(n, node).compile();
  return (state) => app.invoke(state, { recursionLimit: n + 10 });
}

/**
 * Per node step inside one run of an `n`-node chain over `state`: each node
 * notes the time, and a run's figure is (last - first) / (n - 1); the median
 * of `runs` runs. Bringing the state into the run and out of it is outside
 * it, and so is the noise of that (a 1 MB state's ~9 ms against ~0.5 ms of
 * steps, which made a slope between two runs swing either side of zero).
 */
export async function stepInRun(makeChain, n, state, runs) {
  let times = [];
  const chain = makeChain(n, () => { times.push(performance.now()); return {}; });
  const per = [];
  for (let r = 0; r < runs + 2; r++) {
    times = [];
    await chain(state);
    if (r >= 2) per.push((times[n - 1] - times[0]) / (n - 1));
  }
  per.sort((a, b) => a - b);
  return per[per.length >> 1];
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
  return withThreads((threadId) => engine.execute(threadId.state, { threadId: threadId.id }), (id) => engine.deleteThread(id));
}

/**
 * A run on a new thread per call; `reset()` (untimed) deletes the threads so
 * far, so that stored snapshots of earlier runs do not pile up in memory.
 */
function withThreads(run, remove) {
  let t = 0;
  const ids = [];
  const fn = (state) => { const id = `t${t++}`; ids.push(id); return run({ id, state }); };
  fn.reset = async () => { for (const id of ids.splice(0)) await remove(id); };
  return fn;
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
  const saver = new MemorySaver();
  const app = g.addEdge(`n${n - 1}`, END).compile({ checkpointer: saver });
  return withThreads(({ id, state }) => app.invoke(state, { recursionLimit: n + 10, configurable: { thread_id: id } }), (id) => saver.deleteThread(id));
}
