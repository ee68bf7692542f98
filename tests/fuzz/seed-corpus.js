// seed-corpus.js: starting inputs for the fuzz targets, from the shared
// fixtures and a few real checkpoints (written to build/fuzz/corpus/).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { GraphEngine } from 'edgegraph';

const out = new URL('../../build/fuzz/corpus/', import.meta.url);
const dirs = ['graph', 'checkpoint', 'submit', 'history', 'state', 'json'];
for (const d of dirs) mkdirSync(new URL(`${d}/`, out), { recursive: true });
const put = (dir, name, text) => writeFileSync(new URL(`${dir}/${name}`, out), text);

const fixtures = new URL('../fixtures/', import.meta.url);
for (const file of readdirSync(fixtures)) {
  const f = JSON.parse(readFileSync(new URL(file, fixtures), 'utf8'));
  put('graph', file, JSON.stringify(f.graph));
  put('json', file, JSON.stringify(f, null, 1));
  const results = Object.values(f.script ?? {}).flat().map((r) => JSON.stringify(r));
  put('submit', file, [JSON.stringify(f.input ?? {}), ...results].join('\0'));
  put('state', file, [JSON.stringify({ input: {}, scratch: f.input ?? {} }), JSON.stringify(results.slice(0, 3).map((r) => ({ input: {}, scratch: JSON.parse(r) })))].join('\0'));
}
// fuzz_json: the escapes, numbers and nesting a reader gets wrong.
put('json', 'escapes', '["\\u00e9\\ud83d\\ude00\\ud83d\\n\\"\\/\\\\", -0.0e+5, 1E-7, 123456789012345678, [[[{}]]], "caf\u00e9"]');
// fuzz_submit's interrupts: '!' interrupts a task, '?' answers, '>' goes elsewhere (see its comment).
put('submit', 'interrupts', ['{}', '{}', '!{"interrupts":[{"id":"b:2.0:0","value":1}],"keep":{"k":[1]}}', '!{"interrupts":[{"id":"c:2.1:0","value":2}]}', '?{"resume":{"b:2.0:0":"x","c:2.1:0":true}}', '{"l":[1]}', '"j"'].join('\0'));
put('submit', 'goto', ['{}', '{"shouldPause":true}', '>["j",{"node":"b","arg":3}]', '{}', '{}'].join('\0'));
// '$': a result submitted with its strings as raw segments (long strings from the JS layer), through the reducers.
put('submit', 'segments', ['{"messages":[{"role":"user","content":"hi"}]}', '${"messages":[{"role":"tool","tool_call_id":"c\\"1","content":"say \\"hi\\"\\n"}],"l":["a\\u0000b"],"m":{"k":"v"}}', '${"u":["x","x"],"lg":"longer \\u00e9","data":{"more":true}}', '"r"', '${"f":"first","msg":[{"role":"assistant","content":"ok","id":"m1"}]}'].join('\0'));
put('history', 'tools.json', JSON.stringify([
  { role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'r' }, { role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: 'u' } }] },
]));
// Real checkpoints of the graph fuzz_checkpoint.c restores into (the same JSON).
const graph = JSON.parse(readFileSync(new URL('./checkpoint-graph.json', import.meta.url), 'utf8'));
const handlers = { a: () => ({ data: { items: [1, 2] } }), b: () => ({ shouldPause: true }), c: () => ({ n: 1 }), d: () => ({}) };
const engine = new GraphEngine(graph, { handlers, routers: { r: () => 'd' } });
const paused = await engine.execute({ data: {} });
if (paused.checkpoint) { put('checkpoint', 'paused.json', paused.checkpoint); put('checkpoint', 'state.json', JSON.stringify(paused.state)); }
// One paused by interrupt(): its tasks carry interrupts, answers and kept data.
const asking = new GraphEngine(graph, { handlers: { ...handlers, b: (s, e, ctx) => ({ x: ctx.interrupt({ q: 1 }) }) }, routers: { r: () => 'd' } });
const interrupted = await asking.execute({ data: {} });
if (interrupted.checkpoint) put('checkpoint', 'interrupted.json', interrupted.checkpoint);
console.log(`  FUZZ   seed corpus in build/fuzz/corpus/ (${dirs.join(', ')})`);
