// node-compat.js: the node entry where the runtime does not take the
// module-sync condition (package.json): Node before 20.19, Bun, bundlers.
// It is node.js beside it, the same engine; where node.js found no
// process.getBuiltinModule (Node 18 to 20.15) this loads the core instead,
// through createRequire.

import { createRequire } from 'node:module';
import { initSync, isInitialized } from './node.js';

if (!isInitialized()) initSync(createRequire(import.meta.url)('node:fs').readFileSync(new URL('./edgegraph.wasm', import.meta.url)));

export * from './node.js';
