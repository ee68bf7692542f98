// browser.js: entry point for browsers and bundlers (the "browser" and
// "default" conditions). Fetches the .wasm next to this module; bundlers
// that understand `new URL(..., import.meta.url)` ship it as an asset.

import { init } from './loader.js';

await init(new URL('../wasm/edgegraph.wasm', import.meta.url));

export * from './index.js';
