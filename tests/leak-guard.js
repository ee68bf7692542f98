// Preloaded into every test file by `make test-js` (node --test --import
// ./tests/leak-guard.js): a file fails when an object it made was
// garbage-collected without dispose(). Leak warnings (js/leaks.js) are
// recorded instead of printed; after the file's last test the garbage is
// collected, and what leaked is the failure, each kind of object named.
// EDGEGRAPH_LEAK_GUARD=each collects after every test instead, and names the
// test each leak came from (slower: for finding a leak, not for every run).

import { after, afterEach } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { onLeakWarning } from 'edgegraph';
import { onLeakWarning as onSourceLeakWarning } from '../js/leaks.js';

const guarding = process.env.NODE_TEST_CONTEXT?.startsWith('child');   // a file run by node --test, not the runner
const leaked = [];

/** Where leak warnings go in a guarded file, else undefined (support/leaks.js puts it back after its own hook). */
export const recordLeak = guarding ? (message) => { leaked.push(message); } : undefined;

// Registered from its own frame: a target still in the caller's registers would survive gc().
const watch = (registry) => { registry.register({}, undefined); };

/**
 * Collect the garbage until every FinalizationRegistry callback it queued has
 * run, waiting on events, not on time. V8 calls dirty registries back in the
 * order they became dirty, so a sentinel collected in collection N calls back
 * after every callback of the collections before N. Three rounds: the leaks
 * are collected by the first; what their callbacks released, by the second;
 * the third sentinel's callback comes after the second's callbacks.
 */
async function collectAll(gc) {
  const sentinels = [];   // a registry that is itself collected never calls back
  for (let round = 0; round < 3; round++) {
    let keepAlive;
    await new Promise((resolve) => {
      const sentinel = new FinalizationRegistry(resolve);
      sentinels.push(sentinel);
      watch(sentinel);
      // A pending callback alone would let the process exit. (The timer only bounds
      // the wait, should a runtime keep the sentinel alive: the callback comes at once.)
      keepAlive = setTimeout(resolve, 10_000);
      gc();
    });
    clearTimeout(keepAlive);
  }
}

if (guarding) {
  onLeakWarning(recordLeak);
  onSourceLeakWarning(recordLeak);   // files importing js/ directly have their own copy of leaks.js
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  if (process.env.EDGEGRAPH_LEAK_GUARD === 'each') {
    let named = 0;
    afterEach(async (t) => {
      await collectAll(gc);
      for (; named < leaked.length; named++) leaked[named] = `in test '${t.name}': ${leaked[named]}`;
    });
  }
  after(async () => {
    await collectAll(gc);
    if (leaked.length) throw new Error(`${leaked.length} object(s) garbage-collected without dispose() in ${process.argv[1]}:\n${leaked.join('\n')}`);
  });
}
