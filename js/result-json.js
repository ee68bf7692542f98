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

import { EdgegraphError } from './errors.js';
import { isPlainRecord } from './objects.js';


const isBoxed = (v) => v instanceof Number || v instanceof String || v instanceof Boolean;

// Whether a string may hold a lone surrogate: isWellFormed is O(1) for the
// common one-byte string (and missing on old runtimes: then always maybe).
const maybeLone = typeof ''.isWellFormed === 'function' ? (s) => !s.isWellFormed() : () => true;
let lone = false;   // keeps() met a string or key that maybe holds one
// The last text resultJSON returned whose every string and key is well-formed.
// JSON.stringify writes a surrogate escape (\ud800) only for a lone surrogate,
// so this text has none: core.js skips its scan for them (a search for "\u"
// stops at every backslash of a state's JSON text kept in a string).
let wellFormedText = null;
/** Whether `text` is a result's JSON text known to hold no lone surrogate escape. */
export const knownWellFormed = (text) => text === wellFormedText;

/**
 * Whether JSON keeps `v` as it is: the fast check, run after JSON.stringify
 * succeeded (so no cycle, no BigInt). A plain walk: a replacer function makes
 * JSON.stringify itself several times slower (bench/result-check.js).
 */
function keeps(v) {
  switch (typeof v) {
    case 'string': if (maybeLone(v)) lone = true; return true;
    case 'boolean': return true;
    case 'number': return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (v[i] === undefined || !keeps(v[i])) return false;
        return true;
      }
      if (typeof v.toJSON === 'function') return keeps(v.toJSON());
      if (!isPlainRecord(v)) return isBoxed(v) && keeps(v.valueOf());
      for (const key in v) {
        if (v[key] === undefined) continue;
        if (maybeLone(key)) lone = true;
        if (!keeps(v[key])) return false;
      }
      return true;
    }
    default: return false;
  }
}

/** What is wrong with `v` itself (after toJSON and unboxing), or '' when JSON keeps it. */
function problem(v, inArray) {
  switch (typeof v) {
    case 'string': case 'boolean': return '';
    case 'number': return Number.isFinite(v) ? '' : String(v);
    case 'undefined': return inArray ? 'undefined in a list' : '';
    case 'function': return 'a function';
    case 'symbol': return 'a symbol';
    case 'bigint': return 'a BigInt';
    default: {
      if (v === null || Array.isArray(v)) return '';
      if (isPlainRecord(v)) return '';
      return `a ${v.constructor?.name || 'class instance'} without toJSON`;
    }
  }
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
 * The JSON text of a node's (or router's) result.
 * @throws {EdgegraphError} INVALID_RESULT naming the node and the path
 */
export function resultJSON(value, node) {
  let json, thrown;
  try {
    json = JSON.stringify(value);
  } catch (e) {
    thrown = e;   // a cycle, a BigInt, or too deep: located below
  }
  let deep = false;
  if (!thrown) {
    try {
      lone = false;
      if (keeps(value)) {
        wellFormedText = lone ? null : json;
        return json;
      }
    } catch {
      deep = true;   // nested deeper than the walk's stack
    }
  }
  let hit = null;
  try { hit = locate(value, '', false, new Set()); } catch { deep = true; }
  if (!hit) {
    const why = thrown ? `cannot be written as JSON (${thrown.message})` : deep ? 'is nested too deeply to check' : 'JSON would not keep as it is';
    throw new EdgegraphError('INVALID_RESULT', `node '${node}' returned a value that ${why}`, { node });
  }
  const where = hit.path ? ` at '${hit.path}'` : '';
  const verdict = thrown ? 'JSON cannot write' : 'JSON would not keep as it is';
  throw new EdgegraphError('INVALID_RESULT', `node '${node}' returned ${hit.what}${where}, which ${verdict}; return plain data (objects, lists, strings, finite numbers, booleans, null)`, { node });
}
