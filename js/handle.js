// handle.js: the one lifetime of every object that owns WebAssembly memory
// (GraphEngine, ChatHistoryManager, StateManager). dispose() is final: every
// later call is a DISPOSED error naming the object, never a call into the core
// with a freed handle. Work already under way (a run in flight) keeps the
// memory alive through retain(); the memory is freed when the last of it ends.
// A FinalizationRegistry frees a dropped object's memory as a backstop, and
// warns (leaks.js), so the missing dispose() can be fixed at its source.

import { EdgegraphError } from './errors.js';
import { warnLeak } from './leaks.js';

// The held value must not reference the object, or it would never be collected.
// It must stay small too: V8 keeps a held value (and all it reaches) through
// minor GCs even after unregister(), so whatever it reaches is promoted to the
// old generation, whose collection is slow.
const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ kind, free, quiet }) => { free(); if (!quiet) warnLeak(kind); })
  : null;

/**
 * An option of an object whose owner's own API has no dispose() (edgegraph/langgraph's
 * compiled graph, over a GraphEngine): freed when collected, without the leak warning.
 */
export const FREED_WHEN_COLLECTED = Symbol.for('edgegraph.freedWhenCollected');

export class CoreObject {
  #kind;
  #free;
  #disposed = false;
  #freed = false;
  #busy = 0;

  /**
   * @param {string} kind the class name, for messages
   * @param {() => void} free frees every core handle the object owns (must not reference the object)
   * @param {boolean} [quiet] collection without dispose() is expected (an owner whose API has none): no warning
   */
  constructor(kind, free, quiet = false) {
    this.#kind = kind;
    this.#free = free;
    if (free) registry?.register(this, { kind, free, quiet }, this);   // (none: a class's shape, below)
  }

  /** Throws DISPOSED once dispose() was called. */
  assertAlive() {
    if (this.#disposed) throw new EdgegraphError('DISPOSED', `this ${this.#kind} was disposed; create a new one`);
  }

  /** Whether dispose() was called (work in flight may still be finishing). */
  get disposed() { return this.#disposed; }

  /** Whether work in flight holds the memory (see retain()). */
  get busy() { return this.#busy > 0; }

  /** Keep the memory alive for work that may outlive dispose(); call the returned function when it ends. */
  retain() {
    this.#busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#busy === 0 && this.#disposed) this.#release();
    };
  }

  /** Free the object's WebAssembly memory (now, or when the work in flight ends). Idempotent. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    registry?.unregister(this);
    if (this.#busy === 0) this.#release();
  }

  #release() {
    if (this.#freed) return;
    this.#freed = true;
    this.#free();
  }
}

// `using engine = new GraphEngine(...)` where the runtime has explicit resource
// management; elsewhere no method named "undefined" appears.
if (typeof Symbol.dispose === 'symbol') {
  Object.defineProperty(CoreObject.prototype, Symbol.dispose, { value() { this.dispose(); }, writable: true, configurable: true });
}
