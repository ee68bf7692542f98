// node.js: entry point for Node.js, Deno and Bun (the "node" condition).
// Loads edgegraph.wasm, which ships beside the bundle in dist/, synchronously.

import { createRequire } from 'node:module';
import { initSync } from './loader.js';

// node:fs without an ES import: importing node:fs makes Node load fs.promises
// and some twenty stream modules, a few ms of every cold start. Through
// process.getBuiltinModule where the runtime has it (Node >= 20.16, Deno,
// Bun): createRequire costs ~0.2 ms of a cold start more. No top-level await
// here: require() of this entry (Node >= 22.12) needs a synchronous module.
const { readFileSync } = globalThis.process?.getBuiltinModule?.('node:fs') ?? createRequire(import.meta.url)('node:fs');
initSync(readFileSync(new URL('./edgegraph.wasm', import.meta.url)));

export * from './index.js';
export { FileStore } from './file-store.js';
export { sqliteStore } from './node-sqlite-store.js';
export { SqlStore, doSqlStore, d1Store } from './sql-store.js';
