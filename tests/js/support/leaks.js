// The leak backstop in tests: what onLeakWarning reports while objects are
// dropped and the garbage is collected (node --test runs without --expose-gc).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { onLeakWarning } from 'edgegraph';
import { recordLeak } from '../../leak-guard.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

/** Collect, and let FinalizationRegistry callbacks run, until `enough()` or `rounds` rounds. */
export async function collect({ rounds = 5, enough = () => false } = {}) {
  for (let i = 0; i < rounds && !enough(); i++) { gc(); await new Promise((r) => setTimeout(r, 10)); }
}

/** Run `fn(warnings)` with the leak warnings collected into `warnings`; the file's leak guard after. */
export async function withLeakWarnings(fn) {
  const warnings = [];
  onLeakWarning((m) => warnings.push(m));
  try {
    return await fn(warnings);
  } finally {
    onLeakWarning(recordLeak);
  }
}
