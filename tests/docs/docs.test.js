// Every code sample in README.md and docs/*.md runs: ```js blocks as ES
// modules in Node (with tests/docs/prelude.js standing in for LLM servers),
// ```c blocks compiled against the core and run under ASan + UBSan. A sample
// that throws, exits non-zero or does not compile fails the docs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const out = join(root, 'build/doctest');
mkdirSync(out, { recursive: true });
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

function blocks(text) {
  const found = [];
  const re = /^```(\w+)([^\n]*)\n([\s\S]*?)^```/gm;
  let m;
  while ((m = re.exec(text))) found.push({ lang: m[1], info: m[2].trim(), code: m[3], line: text.slice(0, m.index).split('\n').length });
  return found;
}

const cjson = join(root, 'build/third_party/cjson');
const sources = readdirSync(join(root, 'src')).filter((f) => f.endsWith('.c')).map((f) => join(root, 'src', f));

for (const doc of docs) {
  const samples = blocks(readFileSync(join(root, doc), 'utf8')).filter((b) => b.lang === 'js' || b.lang === 'c');
  for (const [i, s] of samples.entries()) {
    const name = `${doc.replace(/[/.]/g, '_')}_${i}`;
    test(`${doc}:${s.line} (${s.lang}${s.info ? ` ${s.info}` : ''}) runs`, { timeout: 60_000 }, () => {
      if (s.info === 'bundler') {
        // Bundler code runs in tests/bundlers: the Vite app holds this very snippet.
        assert.ok(readFileSync(join(root, 'tests/bundlers/vite-app/main.js'), 'utf8').includes(s.code.trim()), 'the snippet is the Vite app\'s code');
      } else if (s.lang === 'js') {
        const file = join(out, `${name}.mjs`);
        writeFileSync(file, `import '../../tests/docs/prelude.js';\n${s.code}`);
        execFileSync(process.execPath, [file], { cwd: out, stdio: 'pipe', timeout: 50_000 });
      } else {
        const file = join(out, `${name}.c`);
        writeFileSync(file, s.code);
        const bin = join(out, name);
        execFileSync('clang', ['-std=c11', '-g', '-fsanitize=address,undefined', '-fno-sanitize-recover=all', `-I${join(root, 'src')}`, `-I${cjson}`, file, ...sources, join(cjson, 'cJSON.c'), '-o', bin, '-lm'], { stdio: 'pipe' });
        execFileSync(bin, { stdio: 'pipe', timeout: 50_000 });
      }
    });
  }
}

test('docs/errors.md explains every error code', () => {
  const def = [...readFileSync(join(root, 'src/eg_codes.def'), 'utf8').matchAll(/^EG_CODE\(\s*\w+,\s*\d+,\s*"(\w+)"/gm)].map((m) => m[1]).filter((c) => c !== 'OK');
  const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  for (const code of def) assert.match(doc, new RegExp(`\\| \`${code}\` \\|`), code);
});
