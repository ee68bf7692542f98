// objects.js: small facts about plain JSON-like objects, in one place.

/** Whether `key` is an own property of `object` (false for non-objects). */
export const hasOwn = (object, key) => object !== null && typeof object === 'object' && Object.hasOwn(object, key);

/** An object that is not an array (null is not one). */
export const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An object JSON writes as its own members: made by a literal or Object.create(null), not a class instance. */
export const isPlainRecord = (v) => { const proto = Object.getPrototypeOf(v); return proto === Object.prototype || proto === null; };

/** Freeze a value and everything in it (the read-only input partition of seed 002). */
export function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

/**
 * Spread first in a copy that adds keys: { ...EMPTY, ...o, key }. V8 (Node 20)
 * makes { ...o, key } in its runtime with a hidden class of its own each time
 * (%HaveSameMap false from call to call, ~0.9 µs); spreading an object first
 * keeps it on the fast path with one class (~0.1 µs). Frozen: it is shared.
 */
export const EMPTY = Object.freeze({});

/**
 * A constructor's only argument that makes an instance for its hidden class
 * alone: one kept for good in a static field, so the class's object shapes
 * outlive a full GC between graphs and runs, and the optimized code that
 * checks for them stays (why: run.js's Run).
 */
export const SHAPE = Symbol('shape');
