// node.js: entry point for Node.js, Deno and Bun (the "node" condition, where
// the runtime has require(esm): "module-sync" in package.json). Loads
// edgegraph.wasm, which ships beside the bundle in dist/, synchronously.

import { initSync } from './loader.js';

// node:fs without an ES import: importing node:fs makes Node load fs.promises
// and some twenty stream modules, and importing node:module (createRequire)
// two more of Node's own (~2.8M instructions of a cold start). Every runtime
// that takes the module-sync condition has process.getBuiltinModule (Node >=
// 20.16); the others get node-compat.js, which loads the core through
// createRequire. No top-level await here: require() of this entry (Node >=
// 20.19) needs a synchronous module.
const fs = globalThis.process?.getBuiltinModule?.('node:fs');
if (fs) initSync(fs.readFileSync(new URL('./edgegraph.wasm', import.meta.url)));

export * from './index.js';
export { FileStore } from './file-store.js';
export { sqliteStore } from './node-sqlite-store.js';
export { SqlStore, doSqlStore, d1Store } from './sql-store.js';
