// The leak guard (tests/leak-guard.js, preloaded by `make test-js`) fails a
// test file whose objects were garbage-collected without dispose(), naming
// the file and each kind of object, and prints no leak warning of its own; a
// file that disposes everything passes. Run on a small file in a child
// `node --test`, as make runs every test file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const guard = fileURLToPath(new URL('../leak-guard.js', import.meta.url));
const leaky = fileURLToPath(new URL('./support/leaky-file.js', import.meta.url));

/** node --test --import the guard on the leaky file; its exit code and output. */
function runGuarded(env) {
  const childEnv = { ...process.env, ...env };
  delete childEnv.NODE_TEST_CONTEXT;   // a test run of its own, reporting to its stdout
  return new Promise((resolve) => {
    execFile(process.execPath, ['--test', '--test-reporter=tap', '--import', guard, leaky], { env: childEnv }, (error, stdout, stderr) => {
      resolve({ code: error?.code ?? 0, output: stdout + stderr });
    });
  });
}

test('a file that drops a GraphEngine and a StateManager without dispose() fails, naming the file and both kinds; nothing is printed as a warning', async () => {
  const { code, output } = await runGuarded({ LEAK: '1' });
  assert.notEqual(code, 0, output);
  assert.match(output, /# fail 1\b/);
  assert.match(output, new RegExp(`2 object\\(s\\) garbage-collected without dispose\\(\\) in ${leaky.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  assert.match(output, /a GraphEngine was garbage-collected without dispose/);
  assert.match(output, /a StateManager was garbage-collected without dispose/);
  assert.doesNotMatch(output, /^# edgegraph:/m, 'the warnings are the failure, not diagnostics');
});

test('EDGEGRAPH_LEAK_GUARD=each names the test each leak came from', async () => {
  const { code, output } = await runGuarded({ LEAK: '1', EDGEGRAPH_LEAK_GUARD: 'each' });
  assert.notEqual(code, 0, output);
  assert.match(output, /in test 'drops what it made when LEAK=1': edgegraph: a GraphEngine was garbage-collected/);
  assert.match(output, /in test 'drops what it made when LEAK=1': edgegraph: a StateManager was garbage-collected/);
  assert.doesNotMatch(output, /in test 'disposes what it made'/);
});

test('the same file disposing everything passes', async () => {
  const { code, output } = await runGuarded({ LEAK: '0' });
  assert.equal(code, 0, output);
  assert.match(output, /# pass 2\b/);
  assert.doesNotMatch(output, /garbage-collected/);
});
