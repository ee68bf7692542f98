// patch.js: apply the core's state patch to the JS mirror of a run's state.
// The core is the authority; the mirror lets nodes read plain JS objects
// without copying the whole state across the boundary at every step, so a
// step costs what it changed, not what the state holds.
//
// Keys are data: "__proto__", "constructor" and "prototype" become own
// properties and never reach an object's prototype chain.
//
// Values are copied into the target, never shared with the ops: a later
// `push` must not grow the array a `set` op (or a caller's event) still holds.
// Sharing them once made a checkpoint's stored patch disagree with its
// checksum, and let a caller's copy of the state write into the run's own.

import { hasOwn } from './objects.js';

function child(parent, key) {
  return hasOwn(parent, key) ? parent[key] : undefined;
}

export function assign(parent, key, value) {
  if (key === '__proto__') Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
  else parent[key] = value;
}

/** A deep copy of a JSON value (the ops hold nothing else). */
export function copyJSON(value) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJSON(value[i]);
    return out;
  }
  const out = {};
  for (const key in value) if (hasOwn(value, key)) assign(out, key, copyJSON(value[key]));
  return out;
}

export const same = (v) => v;

/**
 * Apply one op to `root`: its path is segs[from .. from + n) (the last one
 * the key), `take` copies or keeps its value (copyJSON or same).
 */
export function applyOp(root, op, segs, from, n, value, take) {
  let parent = root;
  const last = from + n - 1;
  for (let k = from; k < last; k++) {
    let next = child(parent, segs[k]);
    if (next === null || typeof next !== 'object') { next = {}; assign(parent, segs[k], next); }
    parent = next;
  }
  const key = segs[last];
  if (op === 'set') assign(parent, key, take(value));
  else if (op === 'push') {
    let list = child(parent, key);
    if (!Array.isArray(list)) { list = []; assign(parent, key, list); }
    for (let v = 0; v < value.length; v++) list.push(take(value[v]));
  } else if (op === 'del') {
    if (Array.isArray(parent)) parent.splice(/** @type {number} */ (key), 1);
    else delete parent[key];
  }
}

/**
 * @param {Record<string, unknown>} root the mirror (mutated in place)
 * @param {Array<[string, Array<string|number>, unknown?]>} ops
 * @param {boolean} [shared] whether anything else keeps the ops (an event, a
 *   caller's list): false lets the mirror take their values as they are
 */
export function applyPatch(root, ops, shared = true) {
  const take = shared ? copyJSON : same;
  for (let i = 0; i < ops.length; i++) {
    const [op, path, value] = ops[i];
    applyOp(root, op, path, 0, path.length, value, take);
  }
}
