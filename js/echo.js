// echo.js: what a step's tasks returned, kept for the core's echo ops. A push
// of a task's own result (a message through the messages reducer, a list
// through concat) comes back as where it is in that result (eg_run_next_flat's
// "e"), not printed once more for JSON.parse to read again: the mirror takes a
// copy made when the task returned, which is what JSON.parse of the text the
// core got gives. It is made then, because the node may change its object
// afterwards (even while sibling tasks of the step still run).

import { hasOwn, isPlainRecord } from './objects.js';
import { assign } from './patch.js';
import { jsonOf } from './result-json.js';

const GIVE_UP = {};   // (a value that needs JSON's own conversions: the text has it)

// A string as the core holds it: lone surrogates are U+FFFD (core.js sends
// them so; a u-flag class matches only a lone one), and cJSON's strings end at a NUL.
const wellFormed = ''.toWellFormed ? (s) => s.toWellFormed() : (s) => s.replace(/[\ud800-\udfff]/gu, '\ufffd');
function coreString(s) {
  s = wellFormed(s);
  const nul = s.indexOf('\0');
  return nul < 0 ? s : s.slice(0, nul);
}

/**
 * JSON.parse(JSON.stringify(v)) as the core holds it, for a value resultJSON
 * accepted. `strict`: GIVE_UP where that takes toJSON, unboxing, or a key the
 * core changes (two may become one: of duplicates, the core keeps the last,
 * last in order; loose, for JSON.parse's values, this does the same).
 */
function copy(v, strict) {
  if (typeof v === 'string') return coreString(v);
  if (v === null || typeof v !== 'object') return v === 0 ? 0 : v;   // -0 is 0 in JSON
  const list = Array.isArray(v);
  if (strict && (typeof v.toJSON === 'function' || !(list || isPlainRecord(v)))) return GIVE_UP;
  if (list) {
    const out = [];
    for (let i = 0; i < v.length; i++) {
      const item = copy(v[i], strict);
      if (item === GIVE_UP) return item;
      out.push(item);
    }
    return out;
  }
  const out = {};
  for (const key in v) {
    if (!hasOwn(v, key) || v[key] === undefined) continue;
    const item = copy(v[key], strict), name = coreString(key);
    if (item === GIVE_UP || (strict && name !== key)) return GIVE_UP;
    if (!strict && hasOwn(out, name)) delete out[name];
    assign(out, name, item);
  }
  return out;
}

/**
 * What a task submitted, for its echoes: [its text or resultText's parts, then copies of its values
 * at the paths echoed before (`paths`, learned per graph)].
 */
export function keep(paths, value, json) {
  const kept = [json];
  for (const path of paths) {
    let v = value;
    for (const seg of path) v = hasOwn(v, seg) && isPlainRecord(v) && typeof v.toJSON !== 'function' ? v[seg] : GIVE_UP;
    kept.push(v === undefined ? GIVE_UP : copy(v, true));
  }
  return kept;
}

/**
 * The items an echo op pushes: task `task`'s value at the path segs[from ..
 * from + depth), element `at` of it (-1: the value itself; -2: the whole list).
 * @param {{ paths: string[][], kept: any[] }} echo the run's kept results
 */
export function echoed(echo, segs, from, depth, task, at) {
  const { paths } = echo, kept = echo.kept[task];
  let i = paths.findIndex((p) => p.length === depth && p.every((s, j) => s === segs[from + j]));
  let v = kept[i + 1];
  if (i < 0 || v === undefined || v === GIVE_UP) {
    if (i < 0) paths.push(segs.slice(from, from + depth));   // copied from the next result on
    // The text (or resultText's parts), parsed once for the task's echoes (copy then makes it as the core holds it).
    v = kept.parsed ??= JSON.parse(jsonOf(kept[0]));
    for (i = 0; i < depth; i++) v = v[segs[from + i]];
    return at === -2 ? copy(v, false) : [copy(at === -1 ? v : v[at], false)];
  }
  return at === -2 ? v : [at === -1 ? v : v[at]];
}
