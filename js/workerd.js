// workerd.js: entry point for Cloudflare Workers (the "workerd" condition).
// Workers may not compile WebAssembly from bytes; the .wasm is imported as
// a module (wrangler and miniflare bundle it as CompiledWasm).

import wasmModule from '../wasm/edgegraph.wasm';
import { initSync } from './loader.js';

initSync(wasmModule);

export * from './index.js';
