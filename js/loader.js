// loader.js: one way to load the WebAssembly core in every runtime.
// Accepts a precompiled WebAssembly.Module (Cloudflare Workers require one),
// bytes, a URL / path string, a Response, or a promise of one.

import { Core } from './core.js';
import { coreImports } from './core-imports.js';
import { EdgegraphError } from './errors.js';

let core = null;
let loading = null;

function instantiate(module) {
  let target = null;
  const instance = new WebAssembly.Instance(module, coreImports(() => target));
  target = new Core(instance);
  return target;
}

/**
 * Load the core synchronously from a compiled module or bytes. Returns true
 * when this call loaded it, false when it was loaded already.
 * @param {WebAssembly.Module | BufferSource} source
 */
/** A compiled module, also one made in another realm (an iframe, a VM context). */
const isModule = (v) => v instanceof WebAssembly.Module || Object.prototype.toString.call(v) === '[object WebAssembly.Module]';

export function initSync(source) {
  if (core) return false;
  const module = isModule(source) ? source : new WebAssembly.Module(source);
  core = instantiate(module);
  return true;
}

/**
 * Load the core. Resolves once it can be used; later calls are no-ops.
 * @param {WebAssembly.Module | BufferSource | URL | string | Response | Promise<Response>} source
 */
export function init(source) {
  if (core) return Promise.resolve();
  if (loading) return loading;
  loading = (async () => {
    let s = await source;
    if (isModule(s) || ArrayBuffer.isView(s) || s instanceof ArrayBuffer) { initSync(s); return; }
    if (typeof s === 'string' || s instanceof URL) s = await fetch(s);
    if (!s || typeof s.arrayBuffer !== 'function') throw new TypeError('init() takes a WebAssembly.Module, bytes, a URL or a Response');
    if (!s.ok) throw new EdgegraphError('NOT_INITIALIZED', `could not load the edgegraph .wasm: HTTP ${s.status}`);
    let module;
    if (typeof WebAssembly.compileStreaming === 'function' && s.headers?.get('content-type')?.startsWith('application/wasm')) {
      module = await WebAssembly.compileStreaming(s);
    } else {
      module = await WebAssembly.compile(await s.arrayBuffer());
    }
    initSync(module);
  })();
  loading.catch(() => { loading = null; });
  return loading;
}

export function isInitialized() { return core !== null; }

/** @returns {Core} */
export function getCore() {
  if (!core) throw new EdgegraphError('NOT_INITIALIZED', 'the edgegraph WebAssembly core is not loaded: call `await init()` first (the node, browser and workerd entry points do it for you)');
  return core;
}

/** Bytes of WebAssembly memory the core holds (it grows, never shrinks). */
export function memoryUsage() {
  return { wasmMemoryBytes: core ? core.memory.buffer.byteLength : 0 };
}
