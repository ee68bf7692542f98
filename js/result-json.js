// result-json.js: a node's result as JSON, refusing what JSON would silently
// change. JSON.stringify turns a Map, a Set, a typed array or a class instance
// into {}, NaN and Infinity into null, and drops functions and symbols; in a
// state that is data lost without a word. Such a value is an INVALID_RESULT
// naming the node and the path, and so are the values JSON.stringify throws on
// (a BigInt, a cycle). JSON's own conversions are kept: toJSON (a Date: its
// ISO string), a boxed primitive (new String('x')) as its primitive, and an
// object property set to undefined is left out; undefined in an array (it
// would become null) is refused. Symbol-keyed and non-enumerable properties
// are not data, to JSON and here.
//
// A result holding long strings (RAW_MIN characters and more) crosses in
// parts instead (resultText): its JSON text cut where each long string stands,
// the strings going to the core as their UTF-8 bytes (core.js writeOne,
// eg_run_submit's raw segments). JSON.stringify costs 1.5-3.6 ns a character
// of a long string to escape, and the core more to unescape; encodeInto and
// a copy cost a fraction of that.

import { EdgegraphError } from './errors.js';
import { isPlainRecord } from './objects.js';


const isBoxed = (v) => v instanceof Number || v instanceof String || v instanceof Boolean;

// Whether a string may hold a lone surrogate: isWellFormed is O(1) for the
// common one-byte string (and missing on old runtimes: then always maybe).
const maybeLone = typeof ''.isWellFormed === 'function' ? (s) => !s.isWellFormed() : () => true;
let lone = false;   // keeps() met a string or key that maybe holds one
// Strings this long cross raw. Crossing one raw costs ~0.5-1.5 us of its own
// (the walk that cuts it out of the lists and records holding it, more the
// deeper it sits; an encodeInto call) and saves JSON.stringify's escaping and
// the core's unescaping: ~2 ns a character of plain ASCII, ~9 of text with a
// quote or newline every few characters. Plain text breaks even at ~256
// characters in a tool message, ~400 in a tool call's arguments; escaped text
// well below (Node 20, both ways interleaved in one process).
const RAW_MIN = 384;
let longs = 0;              // keeps() met strings that long
// The lists and records keeps() found long strings in, at any depth: a Set of
// its own per result, dropped after. One Set cleared per call kept the results
// alive: once its table is in the old generation, V8 allocates the next table
// there too, and a cleared table keeps its entries, so every result with a
// long string survived minor GCs until a full one (node --trace-gc-nvp: ~14 KB
// promoted a react_agent_10x run, ~0.5 KB with a Set per result).
let holders = null;
// The last result resultText returned whose every string and key is well-formed.
// JSON.stringify writes a surrogate escape (\ud800) only for a lone surrogate,
// so its text has none: core.js skips its scan for them (a search for "\u"
// stops at every backslash of a state's JSON text kept in a string).
let wellFormedText = null;
/** Whether `text` is a result (resultText's) known to hold no lone surrogate, nor an escape of one. */
export const knownWellFormed = (text) => text === wellFormedText;

/**
 * Whether JSON keeps `v` as it is: the fast check, before JSON.stringify (a
 * BigInt is false here; a cycle runs out of stack: refuse() names both). It
 * counts the long strings and marks what holds them on the way. A plain walk:
 * a replacer function makes JSON.stringify itself several times slower
 * (bench/result-check.js).
 */
function keeps(v) {
  switch (typeof v) {
    case 'string':
      if (maybeLone(v)) lone = true;
      if (v.length >= RAW_MIN) longs++;
      return true;
    case 'boolean': return true;
    case 'number': return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      const before = longs;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (v[i] === undefined || !keeps(v[i])) return false;
      } else {
        if (typeof v.toJSON === 'function') return keeps(v.toJSON());
        if (!isPlainRecord(v)) return isBoxed(v) && keeps(v.valueOf());
        for (const key in v) {
          if (v[key] === undefined) continue;
          if (maybeLone(key)) lone = true;
          if (!keeps(v[key])) return false;
        }
      }
      if (longs !== before) (holders ??= new Set()).add(v);
      return true;
    }
    default: return false;
  }
}

/** What is wrong with `v` itself (after toJSON and unboxing), or '' when JSON keeps it. */
function problem(v, inArray) {
  const type = typeof v;
  if (type === 'number') return Number.isFinite(v) ? '' : String(v);
  if (type === 'undefined') return inArray ? 'undefined in a list' : '';
  if (type === 'function' || type === 'symbol') return `a ${type}`;
  if (type === 'bigint') return 'a BigInt';
  return type !== 'object' || v === null || Array.isArray(v) || isPlainRecord(v) ? '' : `a ${v.constructor?.name || 'class instance'} without toJSON`;
}

/**
 * Where the first bad value is: the slow path, only once the fast one (or
 * JSON.stringify) refused. `open` holds the objects being walked, to name a cycle.
 */
function locate(value, path, inArray, open) {
  if (value !== null && typeof value === 'object') {
    if (typeof value.toJSON === 'function') value = value.toJSON();
    if (isBoxed(value)) value = value.valueOf();
  }
  const what = problem(value, inArray);
  if (what) return { path, what };
  if (value === null || typeof value !== 'object') return null;
  if (open.has(value)) return { path, what: 'a reference to an object that contains it (a cycle)' };
  open.add(value);
  let hit = null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && !hit; i++) hit = locate(value[i], `${path}[${i}]`, true, open);
  } else {
    for (const key of Object.keys(value)) if ((hit = locate(value[key], path ? `${path}.${key}` : key, false, open))) break;
  }
  open.delete(value);
  return hit;
}

/**
 * Why `value` is refused: JSON.stringify's error, or the first value JSON
 * would not keep (the slow path, once the fast one refused).
 * @throws {EdgegraphError} INVALID_RESULT naming the node and the path
 */
function refuse(value, node) {
  let thrown, hit = null, deep = false;
  try { JSON.stringify(value); } catch (e) { thrown = e; }   // a cycle, a BigInt, a toJSON that throws, or too deep
  try { hit = locate(value, '', false, new Set()); } catch { deep = true; }
  const what = hit
    ? `${hit.what}${hit.path ? ` at '${hit.path}'` : ''}, which ${thrown ? 'JSON cannot write' : 'JSON would not keep as it is'}; return plain data (objects, lists, strings, finite numbers, booleans, null)`
    : `a value that ${thrown ? `cannot be written as JSON (${thrown.message})` : deep ? 'is nested too deeply to check' : 'JSON would not keep as it is'}`;
  throw new EdgegraphError('INVALID_RESULT', `node '${node}' returned ${what}`, { node });
}

/** A result's JSON text (JSON.stringify's), also of one in parts (resultText): for whoever else reads it. */
export const jsonOf = (result) => (typeof result === 'string' ? result : result.map((p, i) => (i & 1 ? JSON.stringify(p) : p)).join(''));

let text = '', parts = null;

/**
 * Append `v` (the value of property `key`) as JSON.stringify writes it, its
 * long strings as parts of their own. Only the lists and records holding a
 * long string are walked here; every other value is JSON.stringify's own text
 * (one with toJSON written as a property, so toJSON gets its key).
 */
function put(v, key) {
  if (typeof v === 'string') {
    if (v.length < RAW_MIN) text += JSON.stringify(v);
    else {
      parts.push(text, v);
      text = '';
    }
  } else if (v === null || typeof v !== 'object') text += String(v);   // (finite numbers and booleans: as JSON writes them)
  else if (!holders.has(v)) {
    if (typeof v.toJSON === 'function') {
      // As a property, so toJSON gets its key (nothing left: a toJSON that changed its mind; the text's way).
      const k = JSON.stringify(String(key)).length + 2, whole = JSON.stringify({ [key]: v });
      if (whole.length <= k) throw 0;
      text += whole.slice(k, -1);
    } else text += JSON.stringify(v);
  } else if (Array.isArray(v)) {
    text += '[';
    for (let i = 0; i < v.length; i++) { if (i) text += ','; put(v[i], i); }
    text += ']';
  } else {
    let sep = '{';
    for (const k of Object.keys(v)) {
      if (v[k] === undefined) continue;
      text += `${sep}${JSON.stringify(k)}:`;
      sep = ',';
      put(v[k], k);
    }
    text += sep === '{' ? '{}' : '}';
  }
}

/**
 * A node's (or router's) result for the core: its JSON text, or when it holds
 * long strings, all well-formed, that text in parts: [text, string, text, ...,
 * text], each long string cut out (core.js writes it raw). A lone surrogate
 * takes the text's way, where core.js makes it U+FFFD as TextEncoder would.
 * @throws {EdgegraphError} INVALID_RESULT naming the node and the path
 */
export function resultText(value, node) {
  lone = false;
  longs = 0;
  let out;
  try {
    if (keeps(value)) {
      if (longs && !lone) {
        try {
          parts = [];
          put(value, '');
          (out = parts).push(text);
        } catch { /* a value that changed between the walks */ }
      }
      out ??= JSON.stringify(value);
    }
  } catch {
    // Too deep, a cycle, a toJSON that throws: refuse() names it.
  } finally {
    holders = null;
    text = '';
    parts = null;
  }
  if (out === undefined) refuse(value, node);
  wellFormedText = lone ? null : out;
  return out;
}

/** The JSON text of a node's result (resultText's, whole). */
export const resultJSON = (value, node) => jsonOf(resultText(value, node));
