// A parallel map-reduce: split a list of documents, summarize each in its
// own task (a map edge: they run concurrently, one per item), then combine.
//   node examples/map-reduce.js

import { GraphEngine, createChatClient } from 'edgegraph';
import { llmConfig } from './llm-config.js';

export const documents = [
  'WebAssembly runs at near-native speed in every major browser.',
  'Durable Objects give each thread one place to run, with its own storage.',
  'Server-sent events stream a run to the page as it happens.',
  'Checkpoints store what changed, so a long run stays small.',
];

/** Offline: a summary is the document's first words; the report lists them. */
export function offline({ messages }) {
  const prompt = messages.at(-1).content;
  if (prompt.startsWith('SUMMARIZE: ')) return prompt.slice(11).split(/\s+/).slice(0, 5).join(' ') + '...';
  if (prompt.startsWith('COMBINE: ')) return `Report: ${JSON.parse(prompt.slice(9)).map((s, i) => `(${i + 1}) ${s}`).join(' ')}`;
  return 'I summarize and combine.';
}

/** The graph, talking to `llm`. */
export function mapReduceDefinition(llm) {
  const client = createChatClient(llm);
  const say = async (prompt, ctx) => (await client.chat({ messages: [{ role: 'user', content: prompt }], signal: ctx.signal, onToken: ctx.emit ? (text) => ctx.emit({ type: 'llm_token', text }) : undefined })).content;
  return {
    nodes: {
      split: (state) => ({ data: { items: state.data.documents.map((text, index) => ({ index, text })) } }),
      summarize: async (state, _e, ctx) => ({ summaries: [{ index: ctx.arg.index, summary: await say(`SUMMARIZE: ${ctx.arg.text}`, ctx) }] }),
      combine: async (state, _e, ctx) => {
        const ordered = [...state.summaries].sort((a, b) => a.index - b.index).map((s) => s.summary);
        const report = await say(`COMBINE: ${JSON.stringify(ordered)}`, ctx);
        return { data: { report }, messages: [{ role: 'assistant', content: report }] };
      },
    },
    edges: { split: { map: 'data.items', to: 'summarize', empty: 'combine' }, summarize: 'combine', combine: '__end__' },
    entryPoint: 'split',
    state: { shape: 'frame', reducers: { summaries: 'concat' }, defaults: { summaries: [] } },
  };
}

export const mapReduceInput = (docs = documents) => ({ messages: [{ role: 'user', content: `Summarize ${docs.length} documents` }], data: { documents: docs } });

if (globalThis.process?.argv && import.meta.url === `file://${process.argv[1]}`) {
  const { llm, label } = llmConfig(offline);
  console.log(`edgegraph example: parallel map-reduce\nmodel: ${label}\n`);
  const r = await new GraphEngine(mapReduceDefinition(llm)).execute(mapReduceInput(), {
    onEvent: (e) => { if (e.type === 'node_start') console.log(`-> ${e.node} ${e.taskId.split(':')[1]}`); },
  });
  console.log(`\nstatus: ${r.status} after ${r.state.stepCount} steps\n${r.state.data.report}`);
}
