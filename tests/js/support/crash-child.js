// A run that kills its own process (SIGKILL: no cleanup, no finally) at a
// chosen point, checkpointing to a FileStore or node:sqlite. Used by checkpoint.test.js.
//   node crash-child.js <store path> <log> <mode> [file | sqlite]
//   mode: between-steps | mid-parallel | mid-write | before-link | resume
// mid-write and before-link (FileStore) die inside the write of the run's
// third record: half its temporary file written, or all of it but not yet linked.

import { appendFileSync, promises as fsp, writeFileSync } from 'node:fs';
import { GraphEngine } from 'edgegraph';
import { definition } from './crash-graph.js';
import { storeOf } from './store-of.js';

const [path, log, mode, kind = 'file'] = process.argv.slice(2);
const record = (line) => appendFileSync(log, `${line}\n`);
const isRecord = (file) => String(file).includes('%2Fr%2F');
let recordWrites = 0;
const { writeFile, link } = fsp;
fsp.writeFile = async (file, data, ...rest) => {
  if (mode === 'mid-write' && isRecord(file) && ++recordWrites === 3) {
    writeFileSync(file, String(data).slice(0, String(data).length >> 1));
    process.kill(process.pid, 'SIGKILL');
  }
  return writeFile(file, data, ...rest);
};
fsp.link = async (from, to) => {
  if (mode === 'before-link' && isRecord(to) && ++recordWrites === 3) process.kill(process.pid, 'SIGKILL');
  return link(from, to);
};
const engine = new GraphEngine(definition(record, mode), { checkpointer: storeOf(kind, path) });
let checkpoints = 0;
const onEvent = (e) => {
  if (e.type !== 'checkpoint') return;
  checkpoints++;
  // After the checkpoint that follows step 'a' (two boundaries in), the process dies between steps.
  if (mode === 'between-steps' && checkpoints === 3) process.kill(process.pid, 'SIGKILL');
};
const result = mode === 'resume'
  ? await engine.resume({ threadId: 'job-1' }, undefined, { onEvent, recover: true })
  : await engine.execute({ data: { input: 3 } }, { threadId: 'job-1', onEvent });
process.stdout.write(JSON.stringify({ status: result.status, state: result.state }));
