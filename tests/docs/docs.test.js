// Every code sample in README.md and docs/*.md runs: ```js blocks as ES
// modules in Node (with tests/docs/prelude.js standing in for LLM servers),
// ```c blocks compiled against the core and run under ASan + UBSan. A sample
// that throws, exits non-zero or does not compile fails the docs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { build, transformSync } from 'esbuild';
import { Miniflare } from 'miniflare';
import { startServer, reply, call } from '../js/support/openai-server.js';
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
  const all = blocks(readFileSync(join(root, doc), 'utf8'));
  const samples = all.filter((b) => b.lang === 'js' || b.lang === 'ts' || b.lang === 'c');
  for (const [i, s] of samples.entries()) {
    const name = `${doc.replace(/[/.]/g, '_')}_${i}`;
    test(`${doc}:${s.line} (${s.lang}${s.info ? ` ${s.info}` : ''}) runs`, { timeout: 60_000 }, async () => {
      if (s.info === 'bundler') {
        // Bundler code runs in tests/bundlers: the Vite app holds this very snippet.
        assert.ok(readFileSync(join(root, 'tests/bundlers/vite-app/main.js'), 'utf8').includes(s.code.trim()), 'the snippet is the Vite app\'s code');
      } else if (s.info === 'worker') {
        await runWorkerSample(s.code, name, curlRequests(all));
      } else if (s.lang === 'js' || s.lang === 'ts') {
        // TypeScript samples run as what esbuild makes of them (types stripped).
        const code = s.lang === 'ts' ? transformSync(s.code, { loader: 'ts', format: 'esm' }).code : s.code;
        const file = join(out, `${name}.mjs`);
        writeFileSync(file, `import '../../tests/docs/prelude.js';\n${code}`);
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

/**
 * The requests of a doc's `curl -X POST localhost:8787/... -d '...'` lines, in
 * order: the Worker sample gets exactly what its readers will send.
 */
function curlRequests(docBlocks) {
  const lines = docBlocks.filter((b) => b.lang === 'sh').flatMap((b) => b.code.split('\n'));
  return lines.map((l) => /^curl -X POST localhost:8787(\S+) -d '([^']*)'/.exec(l)).filter(Boolean).map((m) => ({ path: m[1], body: m[2] }));
}

/**
 * A Worker sample (```ts worker) runs in miniflare (workerd) as wrangler would
 * bundle it, with the bindings of examples/cloudflare/wrangler.toml and its LLM
 * the strict OpenAI stand-in. It gets the requests of the doc's curl lines: a
 * run that pauses for approval, then a resume of the same thread that finishes.
 */
async function runWorkerSample(code, name, requests) {
  assert.deepEqual(requests.map((r) => r.path), ['/threads/t1/run', '/threads/t1/resume'], 'the doc\'s curl lines: a run, then its resume');
  const toml = readFileSync(join(root, 'examples/cloudflare/wrangler.toml'), 'utf8');
  const binding = /\[\[durable_objects\.bindings\]\]\s*name = "(\w+)"\s*class_name = "(\w+)"/.exec(toml);
  const dir = join(out, name);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  await build({ stdin: { contents: code, loader: 'ts', resolveDir: root, sourcefile: `${name}.ts` }, bundle: true, format: 'esm', conditions: ['workerd', 'worker', 'browser'], external: ['*.wasm'], outfile: join(dir, 'dist/worker.js'), logLevel: 'silent' });
  cpSync(join(root, 'dist/edgegraph.wasm'), join(dir, 'dist/edgegraph.wasm'));
  const llm = await startServer([
    { json: reply(null, [call('c1', 'notify_ops', { text: 'the build is green' })]) },
    { json: reply('Ops know.') },
  ], { apiKey: 'sk-doc-sample' });
  const mf = new Miniflare({
    modulesRoot: dir,
    modules: [{ type: 'ESModule', path: join(dir, 'dist/worker.js') }, { type: 'CompiledWasm', path: join(dir, 'dist/edgegraph.wasm') }],
    compatibilityDate: /^compatibility_date = "([\d-]+)"/m.exec(toml)[1],
    durableObjects: { [binding[1]]: binding[2] },
    bindings: { OPENAI_API_KEY: 'sk-doc-sample', OPENAI_BASE_URL: llm.baseURL },
  });
  try {
    const answers = [];
    for (const { path, body } of requests) answers.push(await mf.dispatchFetch(`http://localhost:8787${path}`, { method: 'POST', body }).then((r) => r.json()));
    assert.equal(answers[0].status, 'PAUSED', JSON.stringify(answers[0]));
    assert.equal(answers[0].approval.toolCalls[0].name, 'notify_ops');
    // The model heard the message the first curl line sends.
    assert.equal(llm.requests[0].body.messages.at(-1).content, JSON.parse(requests[0].body).message);
    assert.deepEqual(answers[1], { status: 'FINISHED', approval: null, error: null });
    assert.deepEqual(llm.rejected, [], 'every request is one OpenAI accepts');
  } finally {
    await mf.dispose();
    await llm.close();
  }
}

// TypeScript is a first-class consumer: every JS sample is also compiled as
// .ts with tsc --strict against the package's own types (one program for all
// samples; each error is reported at its doc file and line).
test('every README and docs JS and TS sample type-checks with tsc --strict', () => {
  const dir = join(root, 'build/doctest-ts');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const where = new Map();
  for (const doc of docs) {
    const samples = blocks(readFileSync(join(root, doc), 'utf8')).filter((b) => (b.lang === 'js' || b.lang === 'ts') && b.info !== 'bundler');
    for (const [i, s] of samples.entries()) {
      const file = `${doc.replace(/[/.]/g, '_')}_${i}.ts`;
      writeFileSync(join(dir, file), `${s.code}\nexport {};\n`);
      where.set(file, { doc, line: s.line });
    }
  }
  // Samples read keys from the environment; a minimal declaration instead of @types/node.
  writeFileSync(join(dir, 'env.d.ts'), 'declare const process: { env: Record<string, string | undefined> };\n');
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom', 'esnext.disposable'], types: [], skipLibCheck: true },
    files: ['env.d.ts', ...where.keys()],
  }));
  const r = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: dir, encoding: 'utf8' });
  const errors = (r.stdout + r.stderr).split('\n').filter((l) => /error TS\d+/.test(l)).map((l) => {
    const m = /^([^(]+)\((\d+),(\d+)\): (.*)$/.exec(l);
    const at = m && where.get(m[1]);
    return at ? `${at.doc}:${at.line + Number(m[2])}: ${m[4]}` : l;
  });
  assert.equal(errors.length, 0, `${errors.length} type errors in the docs' samples:\n${errors.join('\n')}`);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('docs/errors.md explains every error code', () => {
  const def = [...readFileSync(join(root, 'src/eg_codes.def'), 'utf8').matchAll(/^EG_(?:JS_)?CODE\(\s*\w+,\s*\d+,\s*"(\w+)"/gm)].map((m) => m[1]).filter((c) => c !== 'OK');
  const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  for (const code of def) assert.match(doc, new RegExp(`\\| \`${code}\` \\|`), code);
});

test('the README opens with what edgegraph is, install and quick start, then make demo / make test; its links work on the npm page', () => {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const lines = text.split('\n');
  const at = (needle) => lines.findIndex((l) => l.includes(needle));
  assert.ok(at('AI-agent graph engine') < 10, 'what it is, first');
  assert.ok(at('npm install edgegraph') < at('make demo'), 'the user\'s install before the contributors\' commands');
  assert.ok(at('make demo') < 45 && at('make test') < 45, 'both commands on the first screen');
  // npm renders the README away from the repository: relative links would break there.
  const relative = [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]).filter((href) => !/^(https?:|#|mailto:)/.test(href));
  assert.deepEqual(relative, []);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const m of text.matchAll(/\]\((https:\/\/github\.com\/edgegraph\/edgegraph\/blob\/main\/([^)#]+))/g)) {
    assert.ok(readdirSync(join(root, m[2], '..')).includes(m[2].split('/').at(-1)), `${m[2]} exists in the repository`);
  }
  assert.match(pkg.repository.url, /github\.com\/edgegraph\/edgegraph/);
});
