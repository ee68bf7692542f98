// The ABI and the code table cannot drift: wasm/exports.txt is what the
// .wasm exports and what js/core.js calls; src/eg_codes.def is what the core
// names and what js/index.d.ts declares.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { coreImports } from '../../js/core-imports.js';

const read = (p) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
const listed = read('wasm/exports.txt').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

test('the .wasm exports exactly the functions in wasm/exports.txt', () => {
  const module = new WebAssembly.Module(readFileSync(new URL('../../wasm/edgegraph.wasm', import.meta.url)));
  const functions = WebAssembly.Module.exports(module).filter((e) => e.kind === 'function').map((e) => e.name);
  // Emscripten adds its reactor and stack helpers; everything else is ours.
  const runtime = new Set(['_initialize', '__errno_location', 'stackSave', 'stackRestore', 'stackAlloc']);
  assert.deepEqual(functions.filter((f) => !runtime.has(f)).sort(), [...listed].sort());
  // It imports only what js/core.js gives it (no WASI): memory growth and numbers as text.
  const given = Object.keys(coreImports(() => null).env).map((name) => `env.${name}`);
  assert.deepEqual(WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`).sort(), given.sort());
  assert.deepEqual(given.sort(), ['env.eg_host_format_number', 'env.eg_host_parse_number', 'env.emscripten_notify_memory_growth']);
});

test('js/core.js calls only listed functions, and every listed one is used', () => {
  const core = read('js/core.js');
  const called = new Set([...core.matchAll(/\bx\.(\w+)\(/g)].map((m) => m[1]));
  for (const f of called) assert.ok(listed.includes(f) || f === '_initialize', `${f} is called but not exported`);
  for (const f of listed) assert.ok(called.has(f), `${f} is exported but never called`);
});

test('the types declare every code of src/eg_codes.def and no other', () => {
  const def = [...read('src/eg_codes.def').matchAll(/^EG_(?:JS_)?CODE\(\s*\w+,\s*\d+,\s*"(\w+)"/gm)].map((m) => m[1]);
  const dts = read('js/types/core.d.ts');   // ErrorCode, re-exported by js/index.d.ts
  const union = dts.slice(dts.indexOf('export type ErrorCode'), dts.indexOf(';', dts.indexOf('export type ErrorCode')));
  const declared = [...union.matchAll(/'(\w+)'/g)].map((m) => m[1]);
  assert.deepEqual([...declared].sort(), [...def].sort());
});
