// workerd.js: entry point for Cloudflare Workers (the "workerd" condition).
// Workers may not compile WebAssembly from bytes; the .wasm beside the bundle
// in dist/ is imported as a module (wrangler and miniflare bundle it as CompiledWasm).

import wasmModule from './edgegraph.wasm';
import { initSync } from './loader.js';

initSync(wasmModule);

export * from './index.js';
// SQL stores: Durable Object SQLite and D1 (not in the browser entry: a page has neither).
export { SqlStore, doSqlStore, d1Store } from './sql-store.js';
