// scripts/serve.js: a small static server for the browser demo (`make demo`).
// Serves the repository read-only on loopback; prints the URL.
//   node scripts/serve.js [port]

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml' };
// Only what the page needs (and js/, the sources the bundles' source maps
// point at, for devtools): never the build folder, node_modules or tests.
const allowed = /^\/(web-demo|examples|dist|js)\//;

export function startServer(port = 0) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path === '/' ) { res.writeHead(302, { location: '/web-demo/' }); res.end(); return; }
    const file = path.endsWith('/') ? `${path}index.html` : path;
    if (!allowed.test(file) || file.includes('..')) { res.writeHead(404); res.end('not found'); return; }
    try {
      const body = await readFile(join(root, file));
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startServer(Number(process.argv[2] ?? process.env.PORT ?? 8080));
  console.log(`edgegraph demo: http://127.0.0.1:${server.address().port}/web-demo/   (Ctrl-C to stop)`);
}
