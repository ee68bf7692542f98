// bench/soak.js: `make soak`. One million node steps and 100,000 complete
// runs in one process; WebAssembly memory and RSS after warm-up and at the end.

import { GraphEngine, memoryUsage } from 'edgegraph';

const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const snapshot = () => { globalThis.gc?.(); return { wasm: memoryUsage().wasmMemoryBytes, rss: process.memoryUsage().rss }; };

const nodes = {}, edges = {};
for (let i = 0; i < 100; i++) { nodes[`n${i}`] = (s) => ({ data: { i }, logs: i % 10 === 0 ? [`at ${i}`] : undefined }); edges[`n${i}`] = i < 99 ? `n${i + 1}` : '__end__'; }
const chain = new GraphEngine({ nodes, edges, entryPoint: 'n0' }, { maxSteps: 100 });
const single = new GraphEngine({ nodes: { a: (s) => ({ data: { n: s.data.n + 1 } }) }, edges: { a: '__end__' }, entryPoint: 'a' });

const t0 = performance.now();
for (let i = 0; i < 200; i++) await chain.execute({ data: {} });        // warm-up: 20,000 steps
for (let i = 0; i < 2000; i++) await single.execute({ data: { n: i } });
const warm = snapshot();
let steps = 20_000;
for (let i = 0; i < 9_800; i++) { const r = await chain.execute({ data: {} }); steps += r.state.stepCount; }
for (let i = 0; i < 98_000; i++) await single.execute({ data: { n: i } });
const end = snapshot();
const seconds = (performance.now() - t0) / 1000;
console.log(`soak: ${steps.toLocaleString('en')} node steps in 10,000 runs of a 100-node chain, and 100,000 one-node runs, in ${seconds.toFixed(1)} s`);
console.log(`  WebAssembly memory: ${mb(warm.wasm)} after warm-up, ${mb(end.wasm)} at the end (${end.wasm === warm.wasm ? 'flat' : 'GREW'})`);
console.log(`  process RSS:        ${mb(warm.rss)} after warm-up, ${mb(end.rss)} at the end`);
chain.dispose();
single.dispose();
if (end.wasm !== warm.wasm) process.exitCode = 1;
