// One of two processes resuming the same paused thread of a FileStore.
//   node busy-child.js <store path> <effects-file> [file | sqlite]
// stdout: "ready" once loaded; then, after "go" on stdin, resumes. Its `send`
// node appends to the effects file, prints "in-node" and waits for
// "release" on stdin. Last line: {"status"} or {"code"}.
//   node busy-child.js <store path> - <kind> start   runs the thread to its pause, and exits.

import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { GraphEngine } from 'edgegraph';
import { busyGraph } from './busy-graph.js';
import { storeOf } from './store-of.js';

const [path, effects, kind = 'file', start] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin });
const waiting = new Map();
lines.on('line', (l) => waiting.get(l)?.());
const heard = (word) => new Promise((r) => waiting.set(word, r));

const engine = new GraphEngine(busyGraph(async () => {
  appendFileSync(effects, `${process.pid}\n`);
  process.stdout.write('in-node\n');
  await heard('release');
}), { checkpointer: storeOf(kind, path) });
if (start) {
  process.stdout.write(`${JSON.stringify({ status: (await engine.execute({}, { threadId: 'mail' })).status })}\n`);
  process.exit(0);
}
const go = heard('go');
process.stdout.write('ready\n');
await go;
let out;
try {
  out = { status: (await engine.resume({ threadId: 'mail' }, { role: 'user', content: 'yes' })).status };
} catch (e) {
  out = { code: e.code, message: e.message };
}
process.stdout.write(`${JSON.stringify(out)}\n`);
lines.close();
