// result-json.js: a node's result as JSON, refusing what JSON would silently
// change. JSON.stringify turns a Map, a Set, a typed array or a class instance
// into {}, NaN and Infinity into null, and drops functions and symbols; in a
// state that is data lost without a word. Such a value is an INVALID_RESULT
// naming the node and the path. Values with toJSON (Date: an ISO string) keep
// JSON's meaning, and an object property set to undefined is left out, as
// JSON does; undefined in an array (it would become null) is refused.

import { EdgegraphError } from './errors.js';

const objectProto = Object.prototype;

/** What is wrong with `v` (after toJSON), or '' when JSON keeps it as it is. */
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
      const proto = Object.getPrototypeOf(v);
      if (proto === objectProto || proto === null) return '';
      return `a ${v.constructor?.name ?? 'class instance'} without toJSON`;
    }
  }
}

/**
 * Whether JSON keeps `v` as it is: the fast check, a plain walk (a replacer
 * function would slow JSON.stringify down several times over).
 */
function keeps(v) {
  switch (typeof v) {
    case 'string': case 'boolean': return true;
    case 'number': return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (v[i] === undefined || !keeps(v[i])) return false;
        return true;
      }
      if (typeof v.toJSON === 'function') return keeps(v.toJSON());
      const proto = Object.getPrototypeOf(v);
      if (proto !== objectProto && proto !== null) return false;
      for (const key in v) if (v[key] !== undefined && !keeps(v[key])) return false;
      return true;
    }
    default: return false;
  }
}

/** Where the first bad value is (the slow path, only after the fast one found one). */
function locate(value, path, inArray) {
  if (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') value = value.toJSON();
  const what = problem(value, inArray);
  if (what) return { path, what };
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = locate(value[i], `${path}[${i}]`, true);
      if (hit) return hit;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const hit = locate(value[key], path ? `${path}.${key}` : key, false);
    if (hit) return hit;
  }
  return null;
}

/**
 * The JSON text of a node's (or router's) result.
 * @throws {EdgegraphError} INVALID_RESULT naming the node and the path
 */
export function resultJSON(value, node) {
  let json;
  try {
    // First: cycles, BigInt and depth are JSON.stringify's own errors, so the walk below always ends.
    json = JSON.stringify(value);
  } catch (e) {
    throw new EdgegraphError('INVALID_RESULT', `node '${node}' returned a value that cannot be written as JSON (${e.message})`, { node });
  }
  let kept;
  try { kept = keeps(value); } catch (e) {
    throw new EdgegraphError('INVALID_RESULT', `node '${node}' returned a value nested too deeply to check (${e.message})`, { node });
  }
  if (!kept) {
    const hit = locate(value, '', false);
    const where = hit?.path ? ` at '${hit.path}'` : '';
    throw new EdgegraphError('INVALID_RESULT', `node '${node}' returned ${hit?.what ?? 'a value JSON cannot hold'}${where}: JSON would change or drop it; convert it to plain data (an object, a list, a string, a finite number)`, { node });
  }
  return json;
}
