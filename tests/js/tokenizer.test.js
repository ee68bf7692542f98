// Exact BPE counts: edgegraph's o200k_base and cl100k_base against the
// reference (js-tiktoken, a port of OpenAI's tiktoken) on a corpus of 1,200
// varied strings made by a seeded generator: code, CJK, emoji, whitespace
// runs, long numbers, contractions, mixed scripts, special-token look-alikes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEncoding } from 'js-tiktoken';
import { loadEncoding } from 'edgegraph/tokenizer';

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

function corpus(count) {
  const r = rng(42);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const pieces = [
    () => pick(['hello', 'world', 'The', 'quick', 'brown', 'fox', 'tokenizer', 'graph', 'edge', 'WebAssembly', 'résumé', 'naïve', 'Straße']),
    () => pick(["I'm", "you're", "they'VE", "it'S", "we'll", "she'd", "DON'T"]),
    () => pick(['你好', '世界', '日本語のテキスト', '한국어', 'Привет', 'مرحبا', 'שלום', 'नमस्ते', 'ไทย', 'Ελληνικά']),
    () => pick(['🎉', '👍🏽', '👨‍👩‍👧‍👦', '🇵🇹', '❤️', '🙂', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '∑∫√']),
    () => String(int(0, 9)).repeat(int(1, 30)),
    () => `${int(0, 1e9)}.${int(0, 99999)}`,
    () => ' '.repeat(int(1, 80)),
    () => pick(['\n', '\n\n', '\r\n', '\t', '\t\t\n', '  \n  ', '\u00a0', '\u2003', '\u3000']),
    () => pick(['function f(x) { return x * 2; }', 'def main():\n    print("hi")\n', 'const a = [1, 2, 3];', '#include <stdio.h>', 'SELECT * FROM t WHERE id = 1;', '<div class="x">y</div>', 'fn main() -> Result<(), E> {}']),
    () => pick(['<|endoftext|>', '<|endofprompt|>', '<|im_start|>', '<|fim_prefix|>']),
    () => pick(['https://example.com/a?b=c&d=e', 'user@example.org', '{"key": "value", "n": [1,2]}', 'C:\\path\\to\\file.txt', '/usr/local/bin']),
    () => pick(['!!!', '???', '...', '---', '***', '===>', '$$$', '@@', '%%', '^_^', '¿¡', '«»', '“quotes”']),
    () => String.fromCodePoint(int(0x20, 0x2fff)) + String.fromCodePoint(int(0x4e00, 0x9fff)),
    () => 'x'.repeat(int(50, 150)),
  ];
  const out = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const parts = int(1, 12);
    for (let k = 0; k < parts; k++) s += pick(pieces)() + (r() < 0.6 ? ' ' : '');
    out.push(s);
  }
  return out;
}

const strings = corpus(1200);

for (const name of ['o200k_base', 'cl100k_base']) {
  test(`${name}: exact tokens on ${strings.length} varied strings, same as the reference`, async () => {
    const ours = await loadEncoding(name);
    const reference = getEncoding(name);
    let mismatches = 0;
    for (const s of strings) {
      const want = reference.encode(s, [], []); // special tokens as plain text
      const got = ours.encode(s);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        if (++mismatches <= 3) assert.deepEqual(got, want, `encode(${JSON.stringify(s)})`);
      }
      assert.equal(ours.countText(s), want.length, `countText(${JSON.stringify(s)})`);
      assert.equal(ours.decode(got), s.replace(/[\ud800-\udfff]/g, (c, i) => c)); // round trip (no lone surrogates in the corpus)
    }
    assert.equal(mismatches, 0);
  });
}

test('special-token text is plain text, and a long whitespace run is counted exactly', async () => {
  const enc = await loadEncoding('o200k_base');
  const reference = getEncoding('o200k_base');
  for (const s of ['<|endoftext|>', 'a<|endoftext|>b', ' '.repeat(1500) + 'x', '\n'.repeat(1000)]) {
    assert.deepEqual(enc.encode(s), reference.encode(s, [], []));
  }
});

test('an unknown encoding is a typed error', async () => {
  await assert.rejects(loadEncoding('p50k_base'), (e) => e.code === 'INVALID_OPTIONS' && /p50k_base/.test(e.message));
});
