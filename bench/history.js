// bench/history.js: chat-history trimming and exact token counting, beside
// LangChain's trimMessages, js-tiktoken and gpt-tokenizer.

import { ChatHistoryManager } from 'edgegraph';
import { loadEncoding } from 'edgegraph/tokenizer';
import { trimMessages, HumanMessage, AIMessage, SystemMessage } from '@langchain/core/messages';
import { getEncoding } from 'js-tiktoken';
import * as gptTokenizer from 'gpt-tokenizer/encoding/o200k_base';
import { measure, fmtTime, row } from './lib.js';

/** The default estimate of src/eg_tokens.c, in JS, so both sides count alike. */
export function estimateText(s) {
  let ascii = 0, other = 0;
  for (const ch of s) { const c = ch.codePointAt(0); if (c < 0x80) ascii++; else other += c > 0xffff ? 2 : 1; }
  return Math.ceil(ascii / 4) + other;
}

function history(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}: ${'some words about the topic at hand '.repeat(1 + (i % 5))}` });
  }
  return out;
}

export async function benchHistory() {
  const N = 10_000, BUDGET = 4000;
  const messages = history(N);
  const manager = new ChatHistoryManager({ maxContextTokens: BUDGET });
  manager.addSystemPrompt('You are a helpful assistant.');
  for (const m of messages) manager.addMessage(m);
  const ours = await measure(() => manager.getTrimmedHistory(), { iterations: 200 });
  const oursCold = await measure(() => { manager.importHistory(messages); return manager.getTrimmedHistory(); }, { iterations: 5 });
  const lcMessages = [new SystemMessage('You are a helpful assistant.'), ...messages.map((m) => (m.role === 'user' ? new HumanMessage(m.content) : new AIMessage(m.content)))];
  // Our estimate for ASCII text (all of it here), computed as cheaply as possible for LangChain.
  const tokenCounter = (msgs) => msgs.reduce((n, m) => n + 3 + Math.ceil(m.content.length / 4), 3);
  const theirs = await measure(() => trimMessages(lcMessages, { maxTokens: BUDGET, strategy: 'last', tokenCounter, includeSystem: true }), { iterations: 1, batches: 3, warmup: 1 });
  const kept = manager.getTrimmedHistory().length;
  const lcKept = (await trimMessages(lcMessages, { maxTokens: BUDGET, strategy: 'last', tokenCounter, includeSystem: true })).length;
  console.log(`chat history: trim ${N.toLocaleString('en')} messages to ${BUDGET} tokens (same estimate on both sides; kept ${kept} vs ${lcKept})`);
  row('trim (counts cached, as the manager keeps them)', ours, theirs, fmtTime, '>= 100x', 'trimMessages');
  row('import the 10k messages, then trim', oursCold, theirs, fmtTime, '', 'trimMessages');

  // Append one message and re-trim: flat in the history's length.
  const line = [];
  for (const size of [1_000, 10_000, 100_000]) {
    const h = new ChatHistoryManager({ maxContextTokens: BUDGET });
    h.importHistory(history(size));
    let i = 0;
    const t = await measure(() => { h.addMessage({ role: 'user', content: `new question ${i++}` }); h.getTrimmedHistory(); }, { iterations: 200 });
    line.push(`${size.toLocaleString('en')}: ${fmtTime(t)}`);
    h.dispose();
  }
  console.log(`  ${'append one message + re-trim, by history length'.padEnd(44)} ${line.join('   ')}`);
  console.log();

  // Exact BPE counting throughput on the same mixed text.
  const text = makeText(1 << 20);
  const ourEnc = await loadEncoding('o200k_base');
  const jsTiktoken = getEncoding('o200k_base');
  const mb = text.length / (1 << 20);
  const tTiktoken = await measure(() => jsTiktoken.encode(text, [], []).length, { iterations: 1, batches: 3, warmup: 1 });
  const tGpt = await measure(() => gptTokenizer.countTokens(text), { iterations: 1, batches: 7, warmup: 2 });
  const tOurs = await measure(() => ourEnc.countText(text), { iterations: 1, batches: 7, warmup: 2 });
  const tOursEncode = await measure(() => ourEnc.encode(text).length, { iterations: 1, batches: 7, warmup: 2 });
  const same = ourEnc.countText(text) === jsTiktoken.encode(text, [], []).length && ourEnc.countText(text) === gptTokenizer.countTokens(text);
  const rate = (ms) => `${(mb / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(`exact o200k_base counting, 1 MB of mixed prose, code, CJK and emoji (counts agree: ${same})`);
  row('countText', tOurs, tTiktoken, rate, 'faster than both', 'js-tiktoken');
  row('countText', tOurs, tGpt, rate, 'faster than both', 'gpt-tokenizer countTokens');
  row('encode', tOursEncode, tGpt, rate, '', 'gpt-tokenizer countTokens');
  // The text above repeats phrases (as real text repeats words); this one rarely repeats a segment.
  const varied = variedText(1 << 20);
  const tGptV = await measure(() => gptTokenizer.countTokens(varied), { iterations: 1, batches: 5, warmup: 1 });
  const tOursV = await measure(() => ourEnc.countText(varied), { iterations: 1, batches: 5, warmup: 1 });
  console.log(`  the same on 1 MB of seeded pseudo-random words (counts agree: ${ourEnc.countText(varied) === gptTokenizer.countTokens(varied)})`);
  row('countText, varied text', tOursV, tGptV, rate, '', 'gpt-tokenizer countTokens');
  console.log();
}

function variedText(bytes) {
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 2 ** 32; };
  const word = () => Array.from({ length: 2 + Math.floor(rand() * 9) }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join('');
  let s = '';
  while (s.length < bytes) s += `${word()}${rand() < 0.1 ? '. ' : rand() < 0.05 ? ', ' : ' '}${rand() < 0.03 ? Math.floor(rand() * 1e6) + ' ' : ''}`;
  return s;
}

function makeText(bytes) {
  const parts = [
    'The quick brown fox jumps over the lazy dog. ', 'function add(a, b) {\n  return a + b;\n}\n', '你好，世界！今天天气很好。',
    'Numbers like 3.14159 and 1234567890 appear too. ', '🎉🚀 emoji everywhere ', '    indented    text\n\n', "It's what they've said: ", 'Ünïcödé ñ ç ß ',
  ];
  let s = '', i = 0;
  while (s.length < bytes) s += parts[i++ % parts.length] + (i % 7) + ' ';
  return s;
}
