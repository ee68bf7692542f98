// What ships: the npm tarball holds the bundled entry points with their source
// maps, the .wasm beside them, the js/ sources the maps point at, the types,
// README and LICENSE, and nothing of the build; the package has no runtime
// dependencies and says where it lives.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: root, encoding: 'utf8' }))[0];
const files = packed.files.map((f) => f.path).sort();
const bundles = ['dist/node.js', 'dist/node-compat.js', 'dist/browser.js', 'dist/workerd.js', 'dist/index.js', 'dist/tokenizer.js', 'dist/testing.js', 'dist/langgraph-zod.js'];

test('npm pack contains LICENSE, README, the bundles, the .wasm and the .d.ts, and no C sources, tests or build', () => {
  for (const f of ['LICENSE', 'README.md', 'package.json', 'dist/edgegraph.wasm', ...bundles, 'js/index.d.ts', 'js/testing.d.ts', 'js/tokenizer.d.ts', ...readdirSync(`${root}js/types`).map((f) => `js/types/${f}`)]) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  assert.deepEqual(files.filter((f) => /^(src|tests|bench|build|node_modules|wasm|web-demo|scripts)\//.test(f)), []);
  // One copy of the .wasm: the one beside the bundles.
  assert.deepEqual(files.filter((f) => f.endsWith('.wasm')), ['dist/edgegraph.wasm']);
});

test('each entry loads the .wasm from beside itself, and that file is in the tarball', () => {
  for (const entry of ['dist/node.js', 'dist/node-compat.js', 'dist/browser.js', 'dist/workerd.js']) {
    const refs = [...readFileSync(root + entry, 'utf8').matchAll(/["']([^"'\s]*\.wasm)["']/g)].map((m) => m[1]);
    assert.deepEqual(refs, ['./edgegraph.wasm'], entry);
    assert.ok(files.includes(posix.join(posix.dirname(entry), refs[0])), entry);
  }
  assert.equal(pkg.exports['./edgegraph.wasm'], './dist/edgegraph.wasm');
  assert.ok(files.includes(pkg.exports['./edgegraph.wasm'].slice(2)));
});

test('the browser entry fetches edgegraph.wasm from beside the module', async () => {
  const asked = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url) => {
    asked.push(String(url));
    return new Response(readFileSync(new URL(url)), { headers: { 'content-type': 'application/wasm' } });
  };
  try {
    const eg = await import(`${new URL('../../dist/browser.js', import.meta.url)}?beside`);
    assert.equal(typeof eg.GraphEngine, 'function');
  } finally {
    globalThis.fetch = realFetch;
  }
  assert.deepEqual(asked, [new URL('../../dist/edgegraph.wasm', import.meta.url).href]);
});

test('every bundle has its source map in the tarball, pointing at js/ sources that are in it too', () => {
  // (edgegraph/langgraph's too: its bundles, and the chunks dist/langgraph.js loads, whose sources are in js/langgraph/)
  const compat = ['dist/langgraph.js', 'dist/langgraph-node.js', ...files.filter((f) => /^dist\/lg-[\w-]+\.js$/.test(f))];
  assert.ok(compat.length > 2, 'dist/langgraph.js has chunks');
  for (const bundle of [...bundles, ...compat]) {
    assert.ok(files.includes(`${bundle}.map`), `${bundle}.map is in the tarball`);
    const code = readFileSync(root + bundle, 'utf8');
    assert.match(code, new RegExp(`//# sourceMappingURL=${posix.basename(bundle)}\\.map\\n?$`));
    const map = JSON.parse(readFileSync(`${root}${bundle}.map`, 'utf8'));
    // (a chunk of dist/langgraph.js may only pass on another's exports: a map with no mappings)
    assert.ok((map.sources.length > 0 && map.mappings.length > 0) || /^dist\/lg-/.test(bundle), bundle);
    // The maps hold no copy of the sources (sourcesContent): they point at js/, shipped once.
    assert.equal(map.sourcesContent, undefined, bundle);
    for (const source of map.sources) {
      const shipped = posix.normalize(posix.join('dist', source));
      assert.match(shipped, /^js\/(langgraph\/)?[\w-]+\.js$/, `${bundle}: ${source}`);
      assert.ok(files.includes(shipped), `${shipped} (a source of ${bundle}) is in the tarball`);
    }
  }
});

test('the bundles keep their line structure: no line of code is a whole module', () => {
  for (const bundle of bundles) {
    const lines = readFileSync(root + bundle, 'utf8').split('\n');
    const longest = Math.max(...lines.map((l) => l.length));
    // Lines of ~80 characters (esbuild's --line-limit); a run it cannot break (class fields) may be longer.
    assert.ok(longest <= 500, `${bundle}: a line of ${longest} characters`);
    const average = Math.round(lines.reduce((n, l) => n + l.length, 0) / lines.length);
    assert.ok(average <= 100, `${bundle}: lines of ${average} characters on average`);
  }
});

test('zero runtime dependencies; exports map has workerd, browser, node and default', () => {
  assert.equal(pkg.dependencies, undefined);
  assert.equal(pkg.scripts?.postinstall, undefined);
  assert.deepEqual(Object.keys(pkg.exports['.']), ['types', 'workerd', 'browser', 'node', 'default']);
});

test('MIT LICENSE, and repository, homepage and bugs fields for the registry page', () => {
  assert.equal(pkg.license, 'MIT');
  const license = readFileSync(`${root}LICENSE`, 'utf8');
  assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 the edgegraph authors\n/);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS"/);
  assert.deepEqual(pkg.repository, { type: 'git', url: 'git+https://github.com/edgegraph/edgegraph.git' });
  assert.equal(pkg.homepage, 'https://github.com/edgegraph/edgegraph#readme');
  assert.deepEqual(pkg.bugs, { url: 'https://github.com/edgegraph/edgegraph/issues' });
});

test('edgegraph/langgraph picks its bundle by the same conditions as edgegraph; in Node it imports ./node.js beside it: one engine', async () => {
  // [condition path, file]: under node, module-sync (runtimes with require(esm)) and default.
  const targets = (entry) => Object.entries(pkg.exports[entry]).filter(([c]) => c !== 'types')
    .flatMap(([c, t]) => (typeof t === 'string' ? [[c, t]] : Object.entries(t).map(([d, f]) => [`${c}/${d}`, f])));
  assert.deepEqual(targets('./langgraph').map(([c]) => c), targets('.').map(([c]) => c));
  assert.deepEqual(targets('.').map(([c]) => c), ['workerd', 'browser', 'node/module-sync', 'node/default', 'default']);
  const runtimeEntry = Object.fromEntries(targets('.'));
  for (const [c, file] of targets('./langgraph')) {
    // What the bundle and the chunks it loads (static or import()) import from outside them, and those chunks.
    const imported = new Set(), chunks = new Set();
    const read = (f) => {
      for (const [, to] of readFileSync(root + f, 'utf8').matchAll(/\b(?:from ?|import\()"([^"]+)"/g)) {
        const chunk = /^\.\/lg-[\w-]+\.js$/.test(to) && `dist/${to.slice(2)}`;
        if (!chunk) imported.add(to);
        else if (!chunks.has(chunk)) { chunks.add(chunk); read(chunk); }
      }
    };
    read(file.slice(2));
    // The node bundle names its runtime entry by path, the others by the package's own name;
    // it is one file carrying the stream-mode code and what the others load on first use (one
    // module to load in Node: see the Makefile). The others' chunks ship beside them.
    assert.deepEqual([...imported].sort(), c === 'node/module-sync' ? ['./node.js'] : ['./stream-run.js', 'edgegraph'], c);
    assert.equal(chunks.size === 0, c === 'node/module-sync', c);
    for (const chunk of chunks) assert.ok(files.includes(chunk), `${chunk} is in the tarball`);
  }
  assert.equal(runtimeEntry['node/module-sync'], './dist/node.js');
  // Where there is no require(esm), the node entry is node-compat.js, which imports node.js: one engine.
  assert.equal(runtimeEntry['node/default'], './dist/node-compat.js');
  assert.equal(pkg.main, './dist/node-compat.js');
  assert.match(readFileSync(`${root}dist/node-compat.js`, 'utf8'), /\bfrom ?"\.\/node\.js"/);
  assert.ok(files.includes('dist/langgraph-node.js') && files.includes('dist/langgraph-node.js.map'));
  // Self-reference: what an app in Node gets. The compat layer's errors are the engine's own class.
  assert.equal(import.meta.resolve('edgegraph/langgraph'), new URL('../../dist/langgraph-node.js', import.meta.url).href);
  const [{ EdgegraphError }, { GraphRecursionError }] = await Promise.all([import('edgegraph'), import('edgegraph/langgraph')]);
  assert.ok(new GraphRecursionError('too many steps') instanceof EdgegraphError);
});

test('edgegraph/langgraph/zod: its bundle and types are in the tarball, and it imports edgegraph/langgraph only (never zod or LangGraph)', async () => {
  assert.deepEqual(pkg.exports['./langgraph/zod'], { types: './js/langgraph-zod.d.ts', default: './dist/langgraph-zod.js' });
  for (const f of ['dist/langgraph-zod.js', 'dist/langgraph-zod.js.map', 'js/langgraph-zod.js', 'js/langgraph-zod.d.ts']) assert.ok(files.includes(f), `${f} is in the tarball`);
  const code = readFileSync(`${root}dist/langgraph-zod.js`, 'utf8');
  assert.deepEqual([...code.matchAll(/\b(?:import|from) ?["']([^"']+)["']/g)].map((m) => m[1]), ['edgegraph/langgraph']);
  // One registry in the process, whichever copy of the entry recorded a field: StateGraph finds it by a global key.
  const [one, two] = await Promise.all([import('edgegraph/langgraph/zod'), import(`${new URL('../../dist/langgraph-zod.js', import.meta.url)}?second`)]);
  assert.notEqual(one.withLangGraph, two.withLangGraph);
  assert.equal(one.registry, two.registry);
});
