// node-sqlite-store.js: checkpoints in a SQLite file through Node's built-in
// node:sqlite (Node 22.5 and later). Imported by the node entry only, and
// node:sqlite itself only when a store is made: the entry still loads on an
// older Node, and the store says what it needs.

import { EdgegraphError } from './errors.js';
import { SqlStore } from './sql-store.js';

/** Node's DatabaseSync class, or a clear error naming the Node version. */
async function databaseClass() {
  try {
    return (await import('node:sqlite')).DatabaseSync;
  } catch (cause) {
    throw new EdgegraphError('INVALID_OPTIONS', `sqliteStore needs node:sqlite (Node 22.5 or later; this is Node ${globalThis.process?.versions?.node ?? 'unknown'}): use FileStore, or a newer Node`, { cause });
  }
}

/**
 * A SqlStore over a SQLite database: a file path (opened here, in WAL mode
 * so other processes can read while one writes) or an open DatabaseSync.
 */
export function sqliteStore(pathOrDatabase) {
  const db = (async () => {
    if (typeof pathOrDatabase !== 'string') return pathOrDatabase;
    const Database = await databaseClass();
    const opened = new Database(pathOrDatabase);
    // Wait for another process's write instead of failing at once with SQLITE_BUSY.
    opened.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000');
    return opened;
  })();
  return new SqlStore({
    all: async (q, ...b) => (await db).prepare(q).all(...b).map((row) => ({ ...row })),
    run: async (q, ...b) => { (await db).prepare(q).run(...b); },
  });
}
