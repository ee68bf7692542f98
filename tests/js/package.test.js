// What ships: the npm tarball holds the .wasm, the bundled entry points and
// the types, and nothing of the build; the package has no runtime dependencies.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url).pathname;

test('npm pack contains the .wasm, dist/ and the .d.ts, and no sources or tests', () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: root, encoding: 'utf8' });
  const files = JSON.parse(out)[0].files.map((f) => f.path).sort();
  for (const f of ['wasm/edgegraph.wasm', 'dist/node.js', 'dist/browser.js', 'dist/workerd.js', 'dist/index.js', 'js/index.d.ts', 'package.json', 'README.md']) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  assert.deepEqual(files.filter((f) => /^(src|tests|bench|build|node_modules)\//.test(f)), []);
});

test('zero runtime dependencies; exports map has workerd, browser, node and default', () => {
  const pkg = JSON.parse(readFileSync(new URL('package.json', `file://${root}`), 'utf8'));
  assert.equal(pkg.dependencies, undefined);
  assert.equal(pkg.scripts?.postinstall, undefined);
  assert.deepEqual(Object.keys(pkg.exports['.']), ['types', 'workerd', 'browser', 'node', 'default']);
});
