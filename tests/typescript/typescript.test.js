// TypeScript consumers of the packed package: strict mode, under
// moduleResolution "bundler" and "nodenext"; a type error in a node's return
// value must be caught.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;
const dir = join(root, 'build/ts-app');
const tsc = join(root, 'node_modules/.bin/tsc');
const base = { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom', 'esnext.disposable'], types: [], skipLibCheck: false, exactOptionalPropertyTypes: false };

before(() => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const pack = JSON.parse(execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }))[0];
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ts-app', private: true, type: 'module', dependencies: { edgegraph: `file:./${pack.filename}` } }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--offline'], { cwd: dir });
  cpSync(join(here, 'app.ts'), join(dir, 'app.ts'));
  cpSync(join(here, 'bad.ts'), join(dir, 'bad.ts'));
  cpSync(join(here, 'zod.ts'), join(dir, 'zod.ts'));
  // process.env in app.ts: a minimal declaration instead of @types/node.
  writeFileSync(join(dir, 'env.d.ts'), 'declare const process: { env: Record<string, string | undefined> };\n');
  // A project that names no lib (target es2022's default has no
  // esnext.disposable), and .d.ts files checked (skipLibCheck false, tsc's default).
  writeFileSync(join(dir, 'tsconfig.default-lib.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', types: [] }, files: ['env.d.ts', 'app.ts'] }));
  for (const [name, resolution, module] of [['bundler', 'bundler', 'esnext'], ['nodenext', 'nodenext', 'nodenext']]) {
    // zod.ts: the edgegraph/langgraph/zod subpath, resolved through the tarball's exports map.
    writeFileSync(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: { ...base, module, moduleResolution: resolution }, files: ['env.d.ts', 'app.ts', 'zod.ts'] }));
    writeFileSync(join(dir, `tsconfig.${name}.bad.json`), JSON.stringify({ compilerOptions: { ...base, module, moduleResolution: resolution }, files: ['bad.ts'] }));
  }
});

for (const name of ['bundler', 'nodenext']) {
  test(`strict TypeScript, moduleResolution ${name}: a realistic program type-checks`, () => {
    const r = spawnSync(tsc, ['-p', `tsconfig.${name}.json`], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
  test(`strict TypeScript, moduleResolution ${name}: a wrong return type in a node is an error`, () => {
    const r = spawnSync(tsc, ['-p', `tsconfig.${name}.bad.json`], { cwd: dir, encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /bad\.ts\(8,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  });
}

test('strict TypeScript with the default lib of target es2022 (no esnext.disposable): the package\'s types compile', () => {
  const r = spawnSync(tsc, ['-p', 'tsconfig.default-lib.json'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
