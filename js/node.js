// node.js: entry point for Node.js, Deno and Bun (the "node" condition).
// Loads edgegraph.wasm, which ships beside the bundle in dist/, synchronously.

import { readFileSync } from 'node:fs';
import { initSync } from './loader.js';

initSync(readFileSync(new URL('./edgegraph.wasm', import.meta.url)));

export * from './index.js';
export { FileStore } from './file-store.js';
export { sqliteStore } from './node-sqlite-store.js';
export { SqlStore, doSqlStore, d1Store } from './sql-store.js';
