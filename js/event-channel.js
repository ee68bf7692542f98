// event-channel.js: an async-iterable queue, for a run's events (events.js)
// and its stream-mode chunks (stream-modes.js). It imports nothing: the
// lazily loaded stream bundles carry it alone.

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
      [Symbol.asyncIterator]() { return this; },
      next: () => {
        if (this.#queue.length) return Promise.resolve({ value: this.#queue.shift(), done: false });
        if (this.#done) {
          // The error once, then the end, as an async generator does.
          const error = this.#error;
          this.#error = undefined;
          return error ? Promise.reject(error) : Promise.resolve({ value: undefined, done: true });
        }
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
