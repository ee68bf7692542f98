// edge.js: the matrix's Vercel Edge function body, run in edge-runtime. Edge
// functions get the .wasm as a precompiled module (like `import wasm from
// './edgegraph.wasm?module'`); here the host passes it as WASM_MODULE.
import * as eg from 'edgegraph/core';
import { pause, resume } from './graph.js';

eg.initSync(globalThis.WASM_MODULE);
globalThis.__edgegraph = { pause: () => pause(eg), resume: (cp, baseURL) => resume(eg, cp, baseURL) };
