import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os'; import { join } from 'node:path';
for (const root of process.argv.slice(2)) {
  const dir = mkdtempSync(join(tmpdir(), 'eg-bundle-')); const entry = join(dir, 'entry.js');
  writeFileSync(entry, `export { GraphEngine, GraphBuilder, createEndNode } from ${JSON.stringify(root + '/js/index.js')};`);
  const r = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, nodePaths: ['/work/main/node_modules'], logLevel: 'silent', target: 'es2022', conditions: ['browser'], loader: { '.wasm': 'file' }, outdir: dir });
  const js = r.outputFiles.filter((f) => f.path.endsWith('.js')).reduce((n, f) => n + gzipSync(f.contents, { level: 9 }).length, 0);
  const c = await build({ stdin: { contents: `export * from ${JSON.stringify(root + '/js/langgraph.js')};`, resolveDir: root }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, external: ['edgegraph', './stream-run.js'], logLevel: 'silent', target: 'es2022' });
  const compat = gzipSync(c.outputFiles[0].contents, { level: 9 }).length;
  let wasm = 0; try { wasm = gzipSync(readFileSync(root + '/wasm/edgegraph.wasm'), { level: 9 }).length; } catch {}
  console.log(root, 'js', js, 'wasm', wasm, 'main', ((js + wasm) / 1024).toFixed(2), 'compat', compat, (compat / 1024).toFixed(2), 'sum', ((js + wasm + compat) / 1024).toFixed(2));
}
