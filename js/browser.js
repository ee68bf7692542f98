// browser.js: entry point for browsers and bundlers (the "browser" and
// "default" conditions). Fetches edgegraph.wasm from beside this module: make
// copies it next to the bundle in dist/, and bundlers that understand
// `new URL(..., import.meta.url)` (webpack 5, Vite, Parcel) ship it as an asset.

import { init } from './loader.js';

await init(new URL('./edgegraph.wasm', import.meta.url));

export * from './index.js';
