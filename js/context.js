// context.js: a node's third argument. Its signal is made on first read: most
// nodes never read it, and an AbortController per step (combined with the
// run's signal) costs more than the rest of a no-op node's call.

export class NodeContext {
  #signal;   // an AbortSignal, or a function that makes it

  /** @param {AbortSignal | (() => AbortSignal)} signal */
  constructor(signal) {
    this.#signal = signal;
  }

  /**
   * Send `chunk` to the run's stream: the `custom` stream mode yields it, and
   * onEvent and the raw stream() see a `custom` event with the node and task.
   * A function of its own, so `const { writer } = context` works too.
   */
  get writer() {
    return (chunk) => this.emit?.({ type: 'custom', data: chunk });
  }

  /** Fires when the run is aborted, the try times out, or a task of the same step fails for good. */
  get signal() {
    if (typeof this.#signal === 'function') this.#signal = this.#signal();
    return this.#signal;
  }
}
