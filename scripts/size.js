// scripts/size.js: `make size`. What a user downloads: the .wasm and the
// bundled JS entry points, raw and gzip (level 9). The source maps beside them
// are fetched only by devtools, so they are not counted.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const files = ['dist/edgegraph.wasm', 'dist/browser.js', 'dist/node.js', 'dist/workerd.js'];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(9);
console.log(`${'file'.padEnd(24)}${'raw'.padStart(9)}${'gzip'.padStart(9)}`);
let rawSum = 0, gzSum = 0;
for (const f of files) {
  const data = readFileSync(new URL(`../${f}`, import.meta.url));
  const gz = gzipSync(data, { level: 9 }).length;
  console.log(`${f.padEnd(24)}${kb(data.length)}${kb(gz)}`);
  if (f === 'dist/edgegraph.wasm' || f === 'dist/browser.js') { rawSum += data.length; gzSum += gz; }
}
console.log(`${'browser total (.wasm + browser.js)'.padEnd(24)} ${kb(rawSum)}${kb(gzSum)}`);

// The providers other than OpenAI chat: each its own file, fetched only when a
// run names it (llm.provider) or a bundle imports edgegraph/providers/<name>.
for (const f of ['dist/provider-anthropic.js', 'dist/provider-gemini.js', 'dist/provider-responses.js', 'dist/provider-ai-sdk.js']) {
  const data = readFileSync(new URL(`../${f}`, import.meta.url));
  console.log(`${f.padEnd(27)}${kb(data.length)}${kb(gzipSync(data, { level: 9 }).length)}  (on demand)`);
}
