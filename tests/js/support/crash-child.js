// A run that kills its own process (SIGKILL: no cleanup, no finally) at a
// chosen point, checkpointing to a FileStore. Used by checkpoint.test.js.
//   node crash-child.js <store path> <log> <mode> [file | sqlite]
//   mode: between-steps | mid-parallel | resume

import { appendFileSync } from 'node:fs';
import { GraphEngine } from 'edgegraph';
import { definition } from './crash-graph.js';
import { storeOf } from './store-of.js';

const [path, log, mode, kind = 'file'] = process.argv.slice(2);
const record = (line) => appendFileSync(log, `${line}\n`);
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
