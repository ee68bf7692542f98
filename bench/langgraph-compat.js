// bench/langgraph-compat.js: LangGraph.js's own benchmark shapes (internal/bench in
// langchain-ai/langgraphjs: sequential_10, sequential_1000, react_agent_10x and
// _100x with and without a checkpointer, first event latency, large_state_25x300,
// sequential_1000_compilation, react_agent_100x_compilation), one program text
// run through @langchain/langgraph and through edgegraph/langgraph, with ratios;
// and the compat entry's own size.

import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { measure, measureFor, fmtTime, fmtBytes, row } from './lib.js';

/**
 * An app's bundle of module text `code` (esbuild, minified, split where it imports on first use):
 * gzip of its chunks that load at import (`first`) and of all of them (`all`), each as one file.
 * `edgegraph` resolves to the sources (js/browser.js), as the browser condition's bundle is built from them.
 */
async function appBundle(text, external = []) {
  const root = new URL('../', import.meta.url).pathname;
  const { outputFiles, metafile } = await build({
    stdin: { contents: text, resolveDir: root }, bundle: true, minify: true, splitting: true, format: 'esm', platform: 'browser',
    conditions: ['browser'], target: 'es2022', absWorkingDir: root, outdir: `${root}out`, write: false, metafile: true, logLevel: 'silent',
    alias: external.includes('edgegraph') ? {} : { edgegraph: `${root}js/browser.js` }, external: [...external, './edgegraph.wasm'],
  });
  // (the metafile names the files from root: out/<name>; nothing is written)
  const code = new Map(outputFiles.map((f) => [f.path.slice(root.length), f.contents]));
  // (The entry, then each chunk it imports statically, through the chunks'.)
  const first = new Set(), visit = (out) => { if (first.has(out)) return; first.add(out); for (const i of metafile.outputs[out].imports) if (i.kind === 'import-statement' && metafile.outputs[i.path]) visit(i.path); };
  visit(Object.keys(metafile.outputs).find((out) => metafile.outputs[out].entryPoint === '<stdin>'));
  const gzip = (outs) => gzipSync(Buffer.concat(outs.filter((o) => o.endsWith('.js')).map((o) => code.get(o))), { level: 9 }).length;
  return { first: gzip([...first]), all: gzip(Object.keys(metafile.outputs)) };
}

/** LangGraph's createSequential: `n` no-op nodes in a line over MessagesAnnotation. */
function createSequential(lib, n) {
  const builder = new lib.StateGraph(lib.MessagesAnnotation);
  let previous = '__start__';
  for (let i = 0; i < n; i++) {
    builder.addNode(`node_${i}`, () => ({}));
    builder.addEdge(previous, `node_${i}`);
    previous = `node_${i}`;
  }
  return builder.addEdge(previous, '__end__');
}

/** LangGraph's createLargeDataset(5, 5): the input of large_state_25x300. */
function largeDataset(outer, inner) {
  const messages = [];
  for (let i = 0; i < outer; i++) {
    const obj = {};
    for (let j = 0; j < inner; j++) {
      const row = ['hi?'.repeat(10), true, 1, 6327816386138, null];
      obj[String(j).repeat(10)] = row.concat(Array(5).fill(row)).flat();
    }
    messages.push({ role: 'user', content: JSON.stringify(obj), id: `m${i}` });
  }
  return { messages };
}

/**
 * A chat model stand-in: `turns` answers that each call the tool, then a final
 * answer. LangGraph's bench uses a fake LangChain chat model that sleeps 50 ms
 * a call, which would time the sleep; this one answers at once, so the rows
 * time the graph. Messages are plain OpenAI-shaped objects, which both accept.
 */
function fakeModel(turns) {
  const answers = [];
  for (let i = 0; i < turns; i++) answers.push({ role: 'assistant', content: '', tool_calls: [{ id: `call_${i}`, name: 'search', args: { query: `q${i}-`.repeat(100) } }], id: `ai_${i}` });
  answers.push({ role: 'assistant', content: 'answer'.repeat(100), id: `ai_${turns}` });
  let next = 0;
  return () => answers[next++];
}

/** LangGraph's reactAgent(n): model -> tools while the model calls one, then END; compiled with `checkpointer` if given. */
function createReactAgent(lib, turns, checkpointer) {
  const model = fakeModel(turns);
  const search = ({ query }) => `result for query: ${query}`.repeat(10);
  return new lib.StateGraph(lib.MessagesAnnotation)
    .addNode('agent', () => ({ messages: [model()] }))
    .addNode('tools', (state) => ({ messages: state.messages.at(-1).tool_calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: search(c.args) })) }))
    .addEdge(lib.START, 'agent')
    .addConditionalEdges('agent', (state) => (state.messages.at(-1).tool_calls?.length ? 'tools' : lib.END), ['tools', lib.END])
    .addEdge('tools', 'agent')
    .compile(checkpointer ? { checkpointer } : {});
}

const runConfig = () => ({ configurable: { thread_id: randomUUID() }, recursionLimit: 1e9 });

async function runGraph(graph, input) {
  let n = 0;
  for await (const chunk of await graph.stream(input, runConfig())) if (chunk) n++;
  return n;
}

/**
 * A graph the shape made for one iteration, let go: edgegraph's holds WebAssembly
 * memory, freed now (timed) rather than by a finalizer at some later GC (timed
 * in whichever iteration that GC lands). LangGraph's has nothing to free.
 */
const done = (graph, result) => { graph.dispose?.(); return result; };

/** LangGraph's runFirstEventLatency: until the stream's first chunk (then the rest is cancelled). */
async function firstEvent(graph, input) {
  const chunks = (await graph.stream(input, runConfig()))[Symbol.asyncIterator]();
  await chunks.next();
  await chunks.return?.();
  done(graph);
}

/** A new graph each time, as LangGraph's bench: compiled, run to the end, let go. */
async function runOnce(graph, input) { return done(graph, await runGraph(graph, input)); }

const hi = () => ({ messages: [{ role: 'user', content: 'hi?' }] });

export async function benchLangGraphCompat() {
  const lg = await import('@langchain/langgraph');
  const eg = await import('edgegraph/langgraph');
  console.log('LangGraph.js\'s benchmark shapes, the same program through @langchain/langgraph and edgegraph/langgraph');
  // As LangGraph's: each call makes its graph (compiled) and runs it to the end. large_state's
  // input is made once (LangGraph's makes it in the call: ~70 µs of Array.flat() both sides would time).
  const sequential = (n, input = { messages: [] }) => (lib) => () => runOnce(createSequential(lib, n).compile(), input);
  const shapes = [
    ['sequential_10 (stream)', sequential(10)],
    ['sequential_1000 (stream)', sequential(1000)],
    ['react_agent_10x', (lib) => () => runOnce(createReactAgent(lib, 10), hi())],
    ['react_agent_10x_checkpoint', (lib) => () => runOnce(createReactAgent(lib, 10, new lib.MemorySaver()), hi())],
    ['react_agent_100x', (lib) => () => runOnce(createReactAgent(lib, 100), hi())],
    ['react_agent_100x_checkpoint', (lib) => () => runOnce(createReactAgent(lib, 100, new lib.MemorySaver()), hi())],
    ['sequential_1000_first_event_latency', (lib) => () => firstEvent(createSequential(lib, 1000).compile(), { messages: [] })],
    ['sequential_1000_first_event_latency_checkpoint', (lib) => () => firstEvent(createSequential(lib, 1000).compile({ checkpointer: new lib.MemorySaver() }), { messages: [] })],
    ['large_state_25x300 (10 nodes)', sequential(10, largeDataset(5, 5))],
    ['sequential_1000_compilation', (lib) => () => done(createSequential(lib, 1000).compile())],
    ['react_agent_100x_compilation', (lib) => () => done(createReactAgent(lib, 100))],
  ];
  // The same program: both give the same number of chunks (a shape that ran differently would not compare).
  for (const turns of [10, 100]) {
    const counts = await Promise.all([lg, eg].map((lib) => runOnce(createReactAgent(lib, turns), hi())));
    if (counts[0] !== counts[1] || counts[0] !== 2 * turns + 1) throw new Error(`react_agent_${turns}x: ${counts.join(' vs ')} chunks`);
  }
  // Each shape timed as LangGraph's own bench times it (measureFor: tinybench's 100 ms warm-up,
  // then 500 ms and at least 10 calls), both sides, in batches after a full GC. The ratio of our
  // slowest batch to their fastest and of ours fastest to their slowest bound what this run can
  // tell (this machine's batches of one shape differ up to 2x).
  for (const [name, make] of shapes) {
    const ourSpread = [], theirSpread = [];
    const ours = await measureFor(make(eg), { spread: ourSpread });
    const theirs = await measureFor(make(lg), { spread: theirSpread });
    row(name, ours, theirs, fmtTime);
    console.log(`  ${''.padEnd(46)} batches: edgegraph ${fmtTime(ourSpread[0])}-${fmtTime(ourSpread[1])}, LangGraph.js ${fmtTime(theirSpread[0])}-${fmtTime(theirSpread[1])}: ${(theirSpread[0] / ourSpread[1]).toFixed(1)}x-${(theirSpread[1] / ourSpread[0]).toFixed(1)}x`);
  }
  // vitest's window catches both engines still warming up (LangGraph.js's react_agent_10x takes ~100
  // calls to settle, from ~12 ms a call to ~7; edgegraph's ~1,000, from ~0.7 ms to ~0.35): one shape
  // again after 1,000 calls a side, the ratio a long-lived worker sees.
  for (const [name, make] of shapes.filter(([n]) => n === 'react_agent_10x')) {
    const ours = await measureFor(make(eg), { warmup: 1000 });
    const theirs = await measureFor(make(lg), { warmup: 1000 });
    row(`${name}, after 1,000 calls`, ours, theirs, fmtTime);
  }
  // react_agent_100x_compilation times the program's own fakeModel(100) too (as LangGraph's shape
  // builds its fake model's answers): work both sides do, which bounds the ratio any engine can show.
  const floor = await measure(() => fakeModel(100), { iterations: 50, batches: 5, warmup: 1 });
  console.log(`  ${'  of which fakeModel(100) (both sides)'.padEnd(46)} ${fmtTime(floor).padStart(20)}   (the floor)`);
  // Sizes: an app's browser bundle (esbuild, minified, gzip), split as the app's bundler splits the
  // imports made on first use: what loads at import, and every chunk it may load later.
  const program = '{ StateGraph, Annotation, START, END, MemorySaver }';   // bench/run.js's LangGraph.js bundle's
  const root = new URL('../', import.meta.url).pathname;
  const wasm = gzipSync(readFileSync(`${root}wasm/edgegraph.wasm`), { level: 9 }).length;
  const engineOnly = await appBundle(`export { GraphEngine, GraphBuilder, createEndNode } from '${root}js/index.js';`);
  const ours = await appBundle(`export ${program} from '${root}js/langgraph.js';`);
  const theirs = await appBundle(`export ${program} from '@langchain/langgraph/web';`);
  console.log(`  ${'a LangGraph program\'s browser bundle, minified + gzip, JS + .wasm'}`);
  row('  at import', ours.first + wasm, theirs.all, fmtBytes, '<= 70 KB');
  console.log(`  ${'  with every chunk it may load'.padEnd(46)} ${fmtBytes(ours.all + wasm).padStart(20)}   (its first run's, getState's, edgegraph's providers, tracing, MCP)`);
  console.log(`  ${'  of which edgegraph/langgraph, at import'.padEnd(46)} ${fmtBytes(ours.first - engineOnly.first).padStart(20)}   (target: <= 10 KB; the engine's program: ${fmtBytes(engineOnly.first + wasm)})`);
  // The compat layer alone (edgegraph itself external), its chunks as one file: no app's code to share gzip's window with.
  const alone = await appBundle(`export * from '${root}js/langgraph.js';`, ['edgegraph']);
  console.log(`  ${'  edgegraph/langgraph alone, all of it'.padEnd(46)} ${fmtBytes(alone.first).padStart(20)} at import, ${fmtBytes(alone.all)} with its chunks`);
}

// `node --expose-gc bench/langgraph-compat.js`: this section alone (bench/run.js starts it so).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  (await import('edgegraph')).onLeakWarning(null);   // graphs are built and dropped here: the backstop's warnings are noise
  await benchLangGraphCompat();
}
