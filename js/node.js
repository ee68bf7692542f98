// node.js: entry point for Node.js, Deno and Bun (the "node" condition).
// Loads the .wasm that ships beside this file, synchronously.

import { readFileSync } from 'node:fs';
import { initSync } from './loader.js';

initSync(readFileSync(new URL('../wasm/edgegraph.wasm', import.meta.url)));

export * from './index.js';
export { FileStore } from './file-store.js';
