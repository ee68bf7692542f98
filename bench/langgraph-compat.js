// bench/langgraph-compat.js: LangGraph.js's own benchmark shapes (internal/bench in
// langchain-ai/langgraphjs: sequential_10, sequential_1000, large_state_25x300,
// sequential_1000_compilation), one program text run through @langchain/langgraph
// and through edgegraph/langgraph, with ratios; and the compat entry's own size.

import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { measure, fmtTime, fmtBytes, row } from './lib.js';

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

async function runGraph(graph, input) {
  let n = 0;
  for await (const chunk of await graph.stream(input, { recursionLimit: 1e9 })) if (chunk) n++;
  return n;
}

export async function benchLangGraphCompat() {
  const lg = await import('@langchain/langgraph');
  const eg = await import('edgegraph/langgraph');
  console.log('LangGraph.js\'s benchmark shapes, the same program through @langchain/langgraph and edgegraph/langgraph');
  const shapes = [
    ['sequential_10 (stream)', (lib) => { const g = createSequential(lib, 10).compile(); return () => runGraph(g, { messages: [] }); }, 100, 10],
    ['sequential_1000 (stream)', (lib) => { const g = createSequential(lib, 1000).compile(); return () => runGraph(g, { messages: [] }); }, 3, 1],
    ['large_state_25x300 (10 nodes)', (lib) => { const g = createSequential(lib, 10).compile(); const input = largeDataset(5, 5); return () => runGraph(g, input); }, 30, 5],
    ['sequential_1000_compilation', (lib) => () => createSequential(lib, 1000).compile(), 5, 2],
  ];
  for (const [name, make, egIterations, lgIterations] of shapes) {
    const ours = await measure(make(eg), { iterations: egIterations, batches: 5, warmup: 1 });
    const theirs = await measure(make(lg), { iterations: lgIterations, batches: 5, warmup: 1 });
    row(name, ours, theirs, fmtTime);
  }
  // The compat layer alone (edgegraph itself is the app's already): minified + gzip.
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(new URL('../js/langgraph.js', import.meta.url).pathname)};`, resolveDir: new URL('../', import.meta.url).pathname },
    bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, external: ['edgegraph'], logLevel: 'silent', target: 'es2022',
  });
  console.log(`  ${'edgegraph/langgraph alone, minified + gzip'.padEnd(46)} ${fmtBytes(gzipSync(result.outputFiles[0].contents, { level: 9 }).length).padStart(20)}   (target: <= 10 KB)`);
}
