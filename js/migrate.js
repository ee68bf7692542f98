// migrate.js: a restored run's state, from the graph version its checkpoint
// was written under to the engine's. The core has checked the checkpoint
// already (its checksum, the nodes its work needs); the definition's
// migrate(state, fromVersion) only reshapes the state.

import { EdgegraphError } from './errors.js';

/**
 * The state to continue with: `mirror` as is when the versions agree or the
 * definition has no migrate(); else migrate's answer, installed in the core.
 * The thread's next record is then a snapshot (a patch would apply to the
 * state as it was).
 * @param {{ core: any, handle: number, version: number, migrate?: Function, thread?: any, where: string }} run
 * @param {number} from the checkpoint's graphVersion (0 when it has none)
 * @param {object} mirror a fresh copy of the checkpoint's state: migrate may change it in place
 */
export async function migrateState({ core, handle, version, migrate, thread, where }, from, mirror) {
  if (!migrate || from === version) return mirror;
  const fail = (what, cause) => new EdgegraphError('MIGRATION_FAILED', `${where}: migrate(state, ${from}) to graph version ${version} ${what}; nothing ran`, cause === undefined ? undefined : { cause });
  let next;
  try {
    next = await migrate(mirror, from);
  } catch (e) {
    throw fail(`threw: ${e?.message ?? String(e)}`, e);
  }
  if (next === null || typeof next !== 'object' || Array.isArray(next)) throw fail(`returned ${next === null ? 'null' : Array.isArray(next) ? 'an array' : typeof next}, not a state object`);
  let text;
  try {
    text = JSON.stringify(next);
  } catch (e) {
    throw fail(`returned a state that is not JSON (${e?.message ?? e})`, e);
  }
  core.runSetState(handle, text);
  if (thread) thread.snapshotDue = true;
  return JSON.parse(text);
}
