// bench/cold-start.js: run in a fresh process; prints ms from the script's
// first line to the first result of a one-node graph (import + instantiate +
// run), the part of it the import took (parse of the bundle, the .wasm's
// validation and instance; the rest is first calls: V8 compiles each JS and
// .wasm function then), and the CPU time the process spent on it (all its
// threads): on a machine other jobs load, wall time swings with them, CPU
// time much less.
// Usage: node bench/cold-start.js edgegraph|langgraph|compat

const which = process.argv[2];
const start = performance.now();
const cpuStart = process.cpuUsage();
let imported;
if (which === 'edgegraph') {
  const { GraphEngine } = await import('edgegraph');
  imported = performance.now();
  const engine = new GraphEngine({ nodes: { a: () => ({ data: { ok: 1 } }) }, edges: { a: '__end__' }, entryPoint: 'a' });
  const r = await engine.execute({});
  if (r.state.data.ok !== 1) throw new Error('wrong result');
} else {
  // The same LangGraph program; `compat` runs it on edgegraph/langgraph.
  const { StateGraph, Annotation, START, END } = await import(which === 'compat' ? 'edgegraph/langgraph' : '@langchain/langgraph');
  imported = performance.now();
  const State = Annotation.Root({ data: Annotation({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }) });
  const app = new StateGraph(State).addNode('a', () => ({ data: { ok: 1 } })).addEdge(START, 'a').addEdge('a', END).compile();
  const r = await app.invoke({});
  if (r.data.ok !== 1) throw new Error('wrong result');
}
const ms = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
console.log(JSON.stringify({ ms, importMs: imported - start, cpuMs: (cpu.user + cpu.system) / 1000 }));
