// records.js: how one checkpoint record is sealed into a store value, read
// back, and written exclusively. A record's checksum covers its thread and
// id as well as its text: a torn write, a record copied from another thread
// or another id, and garbage all fail the same check, and say which record.
//
// A record is written as text put together from the core's own text (the
// checkpoint's fields, the state of a snapshot): nothing is parsed or printed
// again on the way to the store, and the checksum reads the text once.

import { EdgegraphError } from './errors.js';

/**
 * The record format this version writes; a record from a newer one is
 * CHECKPOINT_VERSION. 1: an FNV-1a checksum (8 hex digits) over the UTF-16
 * text; 2: `digest` (16 hex digits) over the UTF-8 text. Both read.
 */
export const RECORD_FORMAT = 2;

const ZEROS = Array.from({ length: 11 }, (_, i) => '0'.repeat(i));
/** A record id as 10 digits (keys sort as numbers): one concatenation, not padStart's (a record's key, every step). */
export const pad = (n) => { const s = String(n); return s.length < 10 ? ZEROS[10 - s.length] + s : s; };
export const recordKey = (threadId, id) => `${threadId}/r/${pad(id)}`;

/** Format 1's checksum: FNV-1a over the text (one character at a time: slow on a large snapshot). */
function fnv(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return (h >>> 0).toString(16).padStart(8, '0');
}

const encoder = new TextEncoder();
/** The bytes being hashed, 64 KB at a time (and up to 15 a chunk leaves over), read as 32-bit words. */
const SIZE = 1 << 16;
const chunk = new Uint8Array(SIZE + 16);
const words = new Int32Array(chunk.buffer);
const whole64k = chunk.subarray(0, SIZE);
/** Words are read little-endian on every machine: a big-endian one swaps them first. */
const swap = new Uint8Array(Uint32Array.of(1).buffer)[0] !== 1;
const P1 = 0x9e3779b1 | 0, P2 = 0x85ebca77 | 0, P3 = 0xc2b2ae3d | 0;
const rotl = (x, r) => (x << r) | (x >>> (32 - r));

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The last mixing of a 32-bit lane sum, as 8 hex digits. */
function avalanche(h) {
  h = Math.imul(h ^ (h >>> 15), P2);
  h = Math.imul(h ^ (h >>> 13), P3);
  h ^= h >>> 16;
  return HEX[h >>> 24] + HEX[(h >>> 16) & 255] + HEX[(h >>> 8) & 255] + HEX[h & 255];
}

/** The hash in progress: four lanes, the bytes hashed so far, the bytes waiting at the start of `chunk`. */
const lanes = new Int32Array(4);
let total = 0, carry = 0;

/** Hash `text`'s UTF-8 bytes into the lanes, 64 KB at a time; bytes short of 16 wait for the next text. */
function absorb(text) {
  let a = lanes[0], b = lanes[1], c = lanes[2], d = lanes[3];
  for (let at = 0; at < text.length;) {
    // encodeInto stops before a character that does not fit, never inside one: `read` says where.
    const { read, written } = encoder.encodeInto(at === 0 ? text : text.substring(at), carry === 0 ? whole64k : chunk.subarray(carry, SIZE));
    at += read;
    const end = carry + written, whole = end & ~15, n = whole >> 2;
    if (swap) for (let i = 0; i < whole; i += 4) chunk.subarray(i, i + 4).reverse();
    for (let i = 0; i < n; i += 4) {
      a = Math.imul(rotl(a + Math.imul(words[i], P2) | 0, 13), P1);
      b = Math.imul(rotl(b + Math.imul(words[i + 1], P2) | 0, 13), P1);
      c = Math.imul(rotl(c + Math.imul(words[i + 2], P2) | 0, 13), P1);
      d = Math.imul(rotl(d + Math.imul(words[i + 3], P2) | 0, 13), P1);
    }
    total += whole;
    carry = end - whole;
    if (carry) chunk.copyWithin(0, whole, end);
  }
  lanes[0] = a; lanes[1] = b; lanes[2] = c; lanes[3] = d;
}

/** `s`, the hash of some text, continued over `text`'s characters. */
function hashOn(s, text) {
  for (let i = 0; i < text.length; i++) s = Math.imul(rotl(s + Math.imul(text.charCodeAt(i), P2), 13), P1);
  return s;
}

/** The hash of "thread/", where a thread's records' seeds start (a writer keeps it). */
export const seedStart = (threadId) => hashOn(0, `${threadId}/`);

/** The seed of a record's checksum: a hash of its "thread/id" (the core's eg_run_record takes it as a number). */
export const seedOf = (threadId, id, start = seedStart(threadId)) => hashOn(start, String(id));

/**
 * Format 2's checksum: 64 bits (16 hex digits) over the UTF-8 bytes of the
 * text `parts` make, seeded by `s` (seedOf the record's thread and id). Four
 * lanes take 32-bit words in turn, each word multiplied in and the lane
 * rotated (xxHash32's round), so every bit of every byte reaches the sum: a
 * 1 MB snapshot hashes in a fraction of a millisecond, where format 1's FNV,
 * one character at a time, took several. Each part is read where it is:
 * joining a snapshot's parts first would copy a megabyte to read it once.
 * The core seals the records it prints with the same sum (src/eg_record.c).
 */
export function digest(s, ...parts) {
  lanes[0] = s + P1 + P2; lanes[1] = s + P2; lanes[2] = s; lanes[3] = s - P1;
  total = 0;
  carry = 0;
  for (const text of parts) absorb(text);
  let [a, b, c, d] = lanes;
  // The bytes short of a whole 16, one at a time, and the length.
  for (let i = 0; i < carry; i++) a = Math.imul(rotl(a + Math.imul(chunk[i] + 1, P2) | 0, 13), P1);
  const n = total + carry;
  const high = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18) + n | 0;
  const low = (rotl(a, 18) ^ rotl(c, 1)) + (rotl(b, 12) ^ rotl(d, 7)) + Math.imul(n, P3) | 0;
  return avalanche(high) + avalanche(low);
}

const STATUS = ',"status":';

/** Date.now() as text, printed once a millisecond: a double's printing is a step's measurable share. */
let now = 0, nowText = '0';
function time() {
  const t = Date.now();
  if (t !== now) { now = t; nowText = String(t); }
  return nowText;
}

/**
 * Record `id` of a thread sealed for the store, from the core's text of it
 * from "m" on (`body`: eg_run_record without EG_RECORD_SEALED), `parent`
 * (null: none) and `depth`: the head, then the checksum. A small record is
 * hashed as one text, which the hash's read leaves flat (one string for the
 * collector to trace in a store holding many, and one call to encodeInto); a
 * large snapshot is hashed and kept in its pieces (copying a megabyte into
 * fresh pages costs more than the hash).
 */
export function seal(threadId, id, parent, depth, body) {
  const head = `{"v":${RECORD_FORMAT},"p":${parent},"t":${time()},"d":${depth},`;
  const seed = seedOf(threadId, id);
  if (body.length >= SIZE) return digest(seed, head, body) + head + body;
  const text = head + body;
  return digest(seed, text) + text;
}

/**
 * A record the core sealed (eg_run_record with EG_RECORD_SEALED, seeded by
 * seedOf(threadId, id)), as it is stored. The core hashed its bytes, a reader
 * hashes those of the decoded text: the same, unless the core held bytes that
 * are not UTF-8 (a cut error message), which decode to U+FFFD; such a record
 * (or one with a real U+FFFD) is sealed again here, as it reads.
 */
export function sealed(threadId, id, text) {
  if (!text.includes('\uFFFD')) return text;
  const record = text.slice(16);
  return digest(seedOf(threadId, id), record) + record;
}

/**
 * A record's text from "m" on (`body`, whole checkpoint fields) as a delta
 * on its parent, whose checkpoint fields before "status" are `prefix` (text):
 * when this one's (format, version, graph, graphVersion, runId) are the same,
 * only the fields from "status" on, which are all that change.
 */
export function asDelta(body, prefix) {
  // A JSON string never holds `,"status":` (its quotes are escaped): this is the top-level field.
  // (Slices compared: String.prototype.startsWith is several times slower in V8.)
  const at = 4 + prefix.length, end = at + STATUS.length;   // after `"m":` and the prefix
  return body.slice(4, at) === prefix && body.slice(at, end) === STATUS ? `"m":{${body.slice(at + 1)}` : body;
}

/** A checkpoint's fields before "status", as text (`{"format":...,"runId":"..."`). */
export const prefixOf = (meta) => meta.slice(0, meta.indexOf(STATUS));

/**
 * The checkpoint fields of a record on top of those of the record it is built
 * on: a format 2 delta holds every field from "status" on, so a field the
 * step dropped (held joins, an error) is gone; format 1 held only the fields
 * that changed.
 */
export function mergeMeta(base, record) {
  if (record.m.format !== undefined) return record.m;
  if ((record.v ?? 1) === 1) return { ...base, ...record.m };
  const out = {};
  for (const k of Object.keys(base)) { if (k === 'status') break; out[k] = base[k]; }
  return Object.assign(out, record.m);
}

/**
 * The record stored as `text` under thread/id: { record } when it reads,
 * { missing: true } when there is none, { error } (an EdgegraphError naming
 * the thread and record) when the store gave something else.
 */
export function unseal(threadId, id, text) {
  if (text === undefined || text === null) return { missing: true };
  const bad = (why, code = 'INVALID_CHECKPOINT') => ({ error: new EdgegraphError(code, `record ${id} of thread '${threadId}' ${why}`) });
  if (typeof text !== 'string') return bad(`is not text (the store returned ${typeof text})`);
  // Format 1: 8 hex digits, then the record; format 2: 16.
  const v1 = text.charCodeAt(8) === 123;
  const body = text.slice(v1 ? 8 : 16);
  const sum = v1 ? fnv(`${threadId}/${id}\n${body}`) : digest(seedOf(threadId, id), body);
  if (text.length < 9 || sum !== text.slice(0, v1 ? 8 : 16)) return bad('does not match its checksum: it is torn, damaged, or a record of another thread or id');
  let record;
  try { record = JSON.parse(body); } catch { return bad('is not JSON'); }
  if ((record?.v ?? 1) > RECORD_FORMAT) return bad(`was written in record format ${record.v}, newer than this edgegraph reads (${RECORD_FORMAT}): upgrade edgegraph to read it`, 'CHECKPOINT_VERSION');
  const fields = record !== null && typeof record === 'object' && (record.p === null || Number.isInteger(record.p)) && record.m !== null && typeof record.m === 'object';
  if (!fields) return bad('is not a record (no parent id or checkpoint fields)');
  record.id = id;
  return { record };
}

const warned = new WeakSet();

/** Whether create() is exclusive for this store; warns once per store when it is not. */
function exclusive(store) {
  if (typeof store.create === 'function' && store.exclusive !== false) return true;
  if (!warned.has(store)) {
    warned.add(store);
    console.warn('edgegraph: this checkpoint store has no exclusive create(key, value) (Workers KV, or a store without create): two resumes of one thread at once may both run. See docs/checkpoints.md.');
  }
  return false;
}

/**
 * Write `value` under `key` only if the key is absent; answers truthy when
 * this call wrote it. A store's own createNow (synchronous: the write is done
 * when it returns) answers at once; its create is called directly (a step's
 * record takes no extra turn here); a store without one gets a check, then a
 * put. Anything but createNow answers with a promise.
 */
export function createOnce(store, key, value) {
  if (typeof store.createNow === 'function' && store.exclusive !== false) return store.createNow(key, value);
  if (exclusive(store) || typeof store.create === 'function') return store.create(key, value);
  return checkThenPut(store, key, value);
}

async function checkThenPut(store, key, value) {
  const seen = await store.get(key);
  if (seen !== undefined && seen !== null) return false;
  await store.put(key, value);
  return true;
}

export function threadBusy(threadId, detail) {
  return new EdgegraphError('THREAD_BUSY', `thread '${threadId}' is busy: ${detail}; nothing ran, and the thread is unchanged`);
}
