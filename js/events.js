// events.js: run events as a callback and as an async iterator.

import { EdgegraphError } from './errors.js';
import { anySignal } from './timing.js';

/** An async-iterable queue: push events, close (or fail) at the end. */
export class EventChannel {
  #queue = [];
  #waiters = [];
  #done = false;
  #error = undefined;
  #onReturn;

  /** @param {{ onReturn?: () => void }} [options] onReturn: the consumer left early (break, return, cancel) */
  constructor({ onReturn } = {}) {
    this.#onReturn = onReturn;
  }

  push(event) {
    if (this.#done) return;
    const w = this.#waiters.shift();
    if (w) w.resolve({ value: event, done: false });
    else this.#queue.push(event);
  }

  close(error) {
    if (this.#done) return;
    this.#done = true;
    this.#error = error;
    for (const w of this.#waiters.splice(0)) {
      if (error) w.reject(error);
      else w.resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator]() {
    return {
      next: () => {
        if (this.#queue.length) return Promise.resolve({ value: this.#queue.shift(), done: false });
        if (this.#done) return this.#error ? Promise.reject(this.#error) : Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
      },
      return: () => {
        this.#queue.length = 0;
        if (!this.#done) {
          this.#done = true;
          // A next() still waiting (an SSE pull when its client left) ends too.
          for (const w of this.#waiters.splice(0)) w.resolve({ value: undefined, done: true });
          this.#onReturn?.();
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

export const now = typeof performance !== 'undefined' && performance.now ? () => performance.now() : () => Date.now();

/**
 * A run's events as an async iterator: `start(onEvent, signal)` starts the
 * run. Leaving the loop (break, return, a throw, a cancelled SSE stream)
 * aborts the run: nothing after it runs unobserved. `options.onEvent` still
 * hears every event, and `options.signal` still aborts.
 */
export function streamOf(start, options) {
  const stop = new AbortController();
  const channel = new EventChannel({ onReturn: () => stop.abort(new EdgegraphError('ABORTED', 'the event stream was closed by its consumer')) });
  const user = options.onEvent;
  const signal = options.signal ? anySignal([options.signal, stop.signal]) : stop.signal;
  start((event) => { user?.(event); channel.push(event); }, signal).then(() => channel.close(), (e) => channel.close(e));
  return channel;
}
