// The bundles in dist/ read like code in a stack trace: an uncaught error
// thrown through the engine prints short lines (not kilobytes of one-line
// bundle before the message), frames point at dist/*.js lines of code, and
// with --enable-source-maps the same frames name the js/ sources.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const dir = join(root, 'build/bundle-test');
mkdirSync(dir, { recursive: true });
// Inside the package, so `edgegraph` is this package's dist/node.js (self-reference).
const script = join(dir, 'uncaught.mjs');
writeFileSync(script, `import { GraphEngine } from 'edgegraph';
const engine = new GraphEngine({ nodes: { a: () => { throw new Error('boom in node a'); } }, edges: { a: '__end__' }, entryPoint: 'a' });
const result = await engine.execute({});
throw result.error;
`);

function crash(...flags) {
  const child = spawnSync(process.execPath, [...flags, script], { cwd: dir, encoding: 'utf8' });
  assert.notEqual(child.status, 0);
  assert.match(child.stderr, /EdgegraphError: node 'a' failed: boom in node a/);
  return child.stderr;
}

/** [file, line, column] of each stack frame in a file (a file: URL, or a path once source-mapped). */
const frames = (stderr) => [...stderr.matchAll(/(?:file:\/\/)?(\/[^\s():]+):(\d+):(\d+)/g)].map((m) => [m[1], Number(m[2]), Number(m[3])]);
const lineOf = (file, n) => readFileSync(file, 'utf8').split('\n')[n - 1];

test('an uncaught error prints short lines; its frames point at lines of code in dist/', () => {
  const stderr = crash();
  const longest = Math.max(...stderr.split('\n').map((l) => l.length));
  assert.ok(longest <= 200, `longest stderr line: ${longest} characters`);
  assert.ok(stderr.length < 4096, `${stderr.length} bytes of stderr`);
  const inDist = frames(stderr).filter(([f]) => f.startsWith(join(root, 'dist/')));
  assert.ok(inDist.length >= 3, stderr);
  // Each frame's line is one statement of the bundle, not the whole bundle.
  for (const [file, line] of inDist) assert.ok(lineOf(file, line).length <= 200, `${file}:${line}`);
  const top = stderr.match(/^ {4}at .*$/m)[0];
  const [file, line] = frames(top)[0];
  assert.match(lineOf(file, line), /new (Edgegraph|LLM)?Error\(/, `${file}:${line} is where the error was made`);
});

test('with --enable-source-maps the frames name js/ sources at the line that made the error', () => {
  const stderr = crash('--enable-source-maps');
  const inSources = frames(stderr).filter(([f]) => f.startsWith(join(root, 'js/')));
  assert.ok(inSources.some(([f]) => f.endsWith('/js/engine.js')), stderr);
  assert.equal(frames(stderr).filter(([f]) => f.startsWith(join(root, 'dist/'))).length, 0, stderr);
  const top = stderr.match(/^ {4}at .*$/m)[0];
  const [file, line] = frames(top)[0];
  assert.ok(file.startsWith(join(root, 'js/')), top);
  assert.match(lineOf(file, line), /new (Edgegraph|LLM)?Error\(/, `${file}:${line} is where the error was made`);
  // The node's own frame sits under the engine frame that called it.
  assert.match(stderr, /at a \(\S*uncaught\.mjs:2:\d+\)\n\s+at .*\/js\/(engine|run|interrupt)\.js:\d+:\d+/);
});
