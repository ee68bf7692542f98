// tokenizer.js: exact token counts for OpenAI's o200k_base and cl100k_base
// encodings, loaded on demand (the tables are ~1-2 MB and not in the main
// bundle). Byte-level BPE as tiktoken does it: split the text with the
// encoding's pattern, then merge byte pairs lowest rank first (leftmost on
// ties). Text that looks like a special token (<|endoftext|>) is plain text.
//
//   import { loadEncoding } from 'edgegraph/tokenizer';
//   const enc = await loadEncoding('o200k_base');
//   enc.countText('hello world'); // 2

import { EdgegraphError } from './errors.js';

const loaders = {
  o200k_base: () => import('./encodings/o200k_base.js'),
  cl100k_base: () => import('./encodings/cl100k_base.js'),
};
const loaded = new Map();

/** Load an encoding by name; later calls share it. */
export function loadEncoding(name) {
  if (!Object.hasOwn(loaders, name)) {
    return Promise.reject(new EdgegraphError('INVALID_OPTIONS', `unknown encoding '${name}' (expected ${Object.keys(loaders).join(' or ')})`));
  }
  if (!loaded.has(name)) loaded.set(name, loaders[name]().then((m) => new Encoding(m.default)));
  return loaded.get(name);
}

/** Build an encoding from a table module's default export (for custom loading). */
export function encodingFromTable(table) { return new Encoding(table); }

const CACHE_LIMIT = 100_000;
const LONG_PIECE = 64;

export class Encoding {
  #ranks = new Map();   // token bytes as a latin1 string -> rank
  #tokens;              // rank -> latin1 string
  #pattern;
  #cache = new Map();       // segment -> token count
  #segmentIds = new Map();  // segment -> token ids
  #pieces = new Map();      // piece -> token ids

  constructor({ name, pattern, count, data }) {
    this.name = name;
    this.#pattern = new RegExp(pattern, 'gu');
    // atob gives a "binary string": one char per byte, i.e. latin1 already.
    const bin = atob(data);
    this.#tokens = new Array(count);
    for (let r = 0, p = 0; r < count; r++) {
      const len = bin.charCodeAt(p++);
      if (len) {
        const key = bin.substr(p, len);
        this.#ranks.set(key, r);
        this.#tokens[r] = key;
      }
      p += len;
    }
  }

  /** Token ids of `text`. */
  encode(text) {
    const out = [];
    this.#segments(String(text), (segment) => {
      let ids = this.#segmentIds.get(segment);
      if (ids === undefined) {
        ids = [];
        for (const match of segment.matchAll(this.#pattern)) for (const id of this.#piece(match[0])) ids.push(id);
        if (this.#segmentIds.size >= CACHE_LIMIT) this.#segmentIds.clear();
        this.#segmentIds.set(segment, ids);
      }
      for (let i = 0; i < ids.length; i++) out.push(ids[i]);
    });
    return out;
  }

  /** The number of tokens of `text` (cached per segment). */
  countText(text) {
    let n = 0;
    const cache = this.#cache;
    this.#segments(String(text), (segment) => {
      let c = cache.get(segment);
      if (c === undefined) {
        c = 0;
        for (const match of segment.matchAll(this.#pattern)) c += this.#piece(match[0]).length;
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(segment, c);
      }
      n += c;
    });
    return n;
  }

  /**
   * Cut the text where a piece boundary is certain, without the pattern: at
   * a space between two ASCII letters. In both encodings' patterns a run of
   * letters cannot take in a following space, and " letters" starts a piece,
   * so each segment splits into the same pieces alone as in the whole text.
   * Repeated segments (most words) then skip the regular expression.
   */
  #segments(text, each) {
    let start = 0;
    const n = text.length;
    for (let i = 1; i + 1 < n; i++) {
      if (text.charCodeAt(i) !== 32) continue;
      const a = text.charCodeAt(i - 1) | 32, b = text.charCodeAt(i + 1) | 32;
      if (a >= 97 && a <= 122 && b >= 97 && b <= 122) { each(text.slice(start, i)); start = i; }
    }
    if (start < n) each(text.slice(start));
  }

  /** Token ids of one piece of the pattern. */
  #piece(piece) {
    let ids = this.#pieces.get(piece);
    if (ids === undefined) {
      const bytes = latin1(piece);
      const rank = this.#ranks.get(bytes);
      ids = rank !== undefined ? [rank] : this.#merge(bytes);
      if (this.#pieces.size >= CACHE_LIMIT) this.#pieces.clear();
      this.#pieces.set(piece, ids);
    }
    return ids;
  }

  /** Text from token ids. */
  decode(ids) {
    let bin = '';
    for (const id of ids) {
      const t = this.#tokens[id];
      if (t === undefined) throw new EdgegraphError('INVALID_INPUT', `token ${id} is not in ${this.name}`);
      bin += t;
    }
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  }

  #merge(bytes) {
    return bytes.length > LONG_PIECE ? this.#mergeLong(bytes) : this.#mergeShort(bytes);
  }

  /** tiktoken's byte-pair merge: fine for short pieces (quadratic). */
  #mergeShort(bytes) {
    const ranks = this.#ranks;
    const starts = [];
    for (let i = 0; i <= bytes.length; i++) starts.push(i);
    const pairRank = (i) => (i + 2 < starts.length ? ranks.get(bytes.slice(starts[i], starts[i + 2])) ?? Infinity : Infinity);
    const pr = [];
    for (let i = 0; i + 1 < starts.length; i++) pr.push(pairRank(i));
    for (;;) {
      let min = Infinity, at = -1;
      for (let i = 0; i < pr.length - 1; i++) if (pr[i] < min) { min = pr[i]; at = i; }
      if (at < 0) break;
      starts.splice(at + 1, 1);
      pr.splice(at + 1, 1);
      pr[at] = pairRank(at);
      if (at > 0) pr[at - 1] = pairRank(at - 1);
    }
    const out = [];
    for (let i = 0; i + 1 < starts.length; i++) out.push(ranks.get(bytes.slice(starts[i], starts[i + 1])));
    return out;
  }

  /** The same merge order with a heap and a linked list: n log n for long pieces (whitespace runs). */
  #mergeLong(bytes) {
    const ranks = this.#ranks;
    const n = bytes.length;
    const next = new Int32Array(n), prev = new Int32Array(n), rankAt = new Float64Array(n);
    const alive = new Uint8Array(n).fill(1);
    for (let i = 0; i < n; i++) { next[i] = i + 1; prev[i] = i - 1; }
    const pair = (i) => {
      const j = next[i];
      if (j >= n) return Infinity;
      return ranks.get(bytes.slice(i, next[j])) ?? Infinity;
    };
    const heap = new MinHeap();
    for (let i = 0; i < n; i++) { rankAt[i] = pair(i); if (rankAt[i] !== Infinity) heap.push(rankAt[i], i); }
    while (heap.size) {
      const [rank, i] = heap.pop();
      if (!alive[i] || rankAt[i] !== rank) continue; // stale
      const j = next[i];
      alive[j] = 0;
      next[i] = next[j];
      if (next[j] < n) prev[next[j]] = i;
      rankAt[i] = pair(i);
      if (rankAt[i] !== Infinity) heap.push(rankAt[i], i);
      const p = prev[i];
      if (p >= 0) { rankAt[p] = pair(p); if (rankAt[p] !== Infinity) heap.push(rankAt[p], p); }
    }
    const out = [];
    for (let i = 0; i < n; i = next[i]) out.push(ranks.get(bytes.slice(i, next[i])));
    return out;
  }
}

/** Min-heap of (rank, position): ties go to the leftmost pair, as in tiktoken. */
class MinHeap {
  #r = [];
  #p = [];
  get size() { return this.#r.length; }
  #less(a, b) { return this.#r[a] < this.#r[b] || (this.#r[a] === this.#r[b] && this.#p[a] < this.#p[b]); }
  #swap(a, b) {
    [this.#r[a], this.#r[b]] = [this.#r[b], this.#r[a]];
    [this.#p[a], this.#p[b]] = [this.#p[b], this.#p[a]];
  }
  push(rank, pos) {
    this.#r.push(rank); this.#p.push(pos);
    for (let i = this.#r.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (!this.#less(i, up)) break;
      this.#swap(i, up); i = up;
    }
  }
  pop() {
    const top = [this.#r[0], this.#p[0]];
    const lastR = this.#r.pop(), lastP = this.#p.pop();
    if (this.#r.length) {
      this.#r[0] = lastR; this.#p[0] = lastP;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < this.#r.length && this.#less(l, m)) m = l;
        if (r < this.#r.length && this.#less(r, m)) m = r;
        if (m === i) break;
        this.#swap(i, m); i = m;
      }
    }
    return top;
  }
}

/** UTF-8 bytes of `s` as a latin1 string (one char per byte); ASCII is itself. */
function latin1(s) {
  let ascii = true;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) { ascii = false; break; }
  if (ascii) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate encodes as U+FFFD, like TextEncoder
    if (c < 0x80) out += String.fromCharCode(c);
    else if (c < 0x800) out += String.fromCharCode(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out += String.fromCharCode(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out += String.fromCharCode(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}
