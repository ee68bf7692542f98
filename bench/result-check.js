// bench/result-check.js: what the no-data-loss check on node results costs
// (issue 12: a step may cost at most 10% more), and the ways to do it.
// Before/after is the same engine built twice, with the check and with plain
// JSON.stringify in its place, run side by side in this process.

import { build } from 'esbuild';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '../js/result-json.js';
import { measure, fmtTime } from './lib.js';

const here = (p) => new URL(p, import.meta.url).pathname;

/** The Node entry bundled with results written by plain JSON.stringify: the engine before the check. */
async function uncheckedEdgegraph() {
  const dir = mkdtempSync(join(tmpdir(), 'eg-unchecked-'));
  const out = await build({
    entryPoints: [here('../js/node.js')], bundle: true, format: 'esm', platform: 'node', write: false,
    external: ['./edgegraph.wasm'], logLevel: 'silent',
    plugins: [{
      name: 'no-result-check',
      setup(b) {
        // (Without the check's walk nothing knows a text is free of lone surrogates: core.js scans each.)
        // (Nor are long strings cut out to cross raw: every result is one JSON text.)
        b.onLoad({ filter: /result-json\.js$/ }, () => ({ contents: 'export const resultJSON = (value) => JSON.stringify(value); export const resultText = resultJSON; export const jsonOf = (text) => text; export const knownWellFormed = () => false;', loader: 'js' }));
      },
    }],
  });
  writeFileSync(join(dir, 'node.js'), out.outputFiles[0].contents);
  copyFileSync(here('../dist/edgegraph.wasm'), join(dir, 'edgegraph.wasm'));
  const mod = await import(join(dir, 'node.js'));
  rmSync(dir, { recursive: true, force: true });
  mod.onLeakWarning(null);
  return mod;
}

/** The alternative the issue asked to measure: the check inside JSON.stringify, as a replacer. */
function replacerJSON(value) {
  return JSON.stringify(value, function check(key, v) {
    switch (typeof v) {
      case 'number': if (!Number.isFinite(v)) throw new Error(key); return v;
      case 'function': case 'symbol': case 'bigint': throw new Error(key);
      case 'undefined': if (Array.isArray(this)) throw new Error(key); return v;
      case 'object': {
        if (v === null || Array.isArray(v)) return v;
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) throw new Error(key);
        return v;
      }
      default: return v;
    }
  });
}

/** The other alternative: one walk of our own that checks and writes the text. */
function walkerJSON(v) {
  switch (typeof v) {
    case 'string': return JSON.stringify(v);
    case 'boolean': return v ? 'true' : 'false';
    case 'number': if (!Number.isFinite(v)) throw new Error('number'); return String(v);
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        let s = '[';
        for (let i = 0; i < v.length; i++) { if (v[i] === undefined) throw new Error('undefined'); s += (i ? ',' : '') + walkerJSON(v[i]); }
        return `${s}]`;
      }
      if (typeof v.toJSON === 'function') return walkerJSON(v.toJSON());
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) throw new Error('class');
      let s = '{', first = true;
      for (const k in v) {
        if (v[k] === undefined) continue;
        s += `${first ? '' : ','}${JSON.stringify(k)}:${walkerJSON(v[k])}`;
        first = false;
      }
      return `${s}}`;
    }
    default: throw new Error(typeof v);
  }
}

/** A chain of n nodes, each returning `result`, in the given build of edgegraph. */
function chain({ GraphEngine }, n, result) {
  const nodes = {}, edges = {};
  for (let i = 0; i < n; i++) { nodes[`n${i}`] = () => result; edges[`n${i}`] = i + 1 < n ? `n${i + 1}` : '__end__'; }
  const engine = new GraphEngine({ nodes, edges, entryPoint: 'n0' }, { maxSteps: n + 1 });
  return (state) => engine.execute(state);
}

/**
 * Prints the per-step figure before and after the check, and the check's
 * ways beside plain JSON.stringify. Returns the after/before ratio.
 */
export async function benchResultCheck(checked, { n = 100, state } = {}) {
  // ~1 KB a result: a list of records and some text.
  const typical = { data: { items: Array.from({ length: 16 }, (_, i) => ({ id: i, name: `record ${i}`, ok: i % 2 === 0 })), text: 'lorem ipsum '.repeat(40) } };
  const after = chain(checked, n, typical), before = chain(await uncheckedEdgegraph(), n, typical);
  // Interleaved rounds, each build first in every other one, so drift on a noisy machine
  // and what one leaves to the next (garbage, a cold cache) fall on both alike; the
  // change is the median of the rounds' own after/before ratios.
  const b = [], a = [], ratios = [];
  const time = async (fn) => await measure(() => fn(state), { iterations: 20, batches: 3 }) / n;
  for (let round = 0; round < 25; round++) {
    let tb, ta;
    if (round % 2) { ta = await time(after); tb = await time(before); } else { tb = await time(before); ta = await time(after); }
    b.push(tb); a.push(ta); ratios.push(ta / tb);
  }
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  const stepBefore = median(b), stepAfter = median(a), change = median(ratios);
  const per = async (fn) => (await measure(() => { for (let i = 0; i < 1000; i++) fn(typical); }, { iterations: 20 })) / 1000;
  const plain = await per(JSON.stringify), ours = await per((v) => resultText(v, 'n'));
  const replacer = await per(replacerJSON), walker = await per(walkerJSON);
  const line = (label, text, note = '') => console.log(`  ${label.padEnd(44)} ${text.padStart(20)}${note}`);
  console.log(`node results checked for values JSON would lose (chain of ${n}, a ~1 KB result per step)`);
  line('per node step, before (plain JSON.stringify)', fmtTime(stepBefore));
  const more = (change - 1) * 100;
  line('per node step, after (checked)', fmtTime(stepAfter), `  ${more >= 0 ? '+' : ''}${more.toFixed(1)}%   (target: <= +10%)`);
  line('one result: plain JSON.stringify', fmtTime(plain));
  line('  a walk, then JSON.stringify (used)', fmtTime(ours), `  ${ours >= plain ? '+' : '-'}${fmtTime(Math.abs(ours - plain))}`);
  line('  JSON.stringify with a checking replacer', fmtTime(replacer), `  +${fmtTime(replacer - plain)}`);
  line('  one JS walk that checks and writes', fmtTime(walker), `  +${fmtTime(walker - plain)}`);
  console.log();
  return change;
}
