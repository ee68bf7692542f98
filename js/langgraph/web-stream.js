// web-stream.js: what stream() returns, used as LangChain's IterableReadableStream
// is: iterated (`for await`, next(), return()), or as a web ReadableStream
// (`pipeThrough(encoder)` into a Response, getReader, cancel, tee). The
// ReadableStream is made on first use of one of its methods: most callers only
// iterate, and one costs microseconds to make (a sequential_10 run, ~30 µs).

export class IterableReadableStream {
  #chunks;
  #readable;
  /** @param {AsyncIterableIterator<unknown>} chunks the run's chunks (ModeStream's iterate()) */
  constructor(chunks) { this.#chunks = chunks; }

  [Symbol.asyncIterator]() { return this.#chunks; }
  next() { return this.#chunks.next(); }
  /** Leave early: the run stops (as a break out of `for await`). */
  return(value) { return this.#chunks.return(value); }

  /** The chunks as a web ReadableStream, made once; cancelling it stops the run. */
  #stream() {
    const chunks = this.#chunks;
    return (this.#readable ??= new ReadableStream({
      pull: async (controller) => { const { value, done } = await chunks.next(); if (done) controller.close(); else controller.enqueue(value); },
      cancel: () => chunks.return(),
    }));
  }

  get locked() { return this.#readable?.locked ?? false; }
  cancel(reason) { return this.#readable ? this.#readable.cancel(reason) : this.#chunks.return().then(() => {}); }
  getReader(options) { return this.#stream().getReader(options); }
  pipeThrough(transform, options) { return this.#stream().pipeThrough(transform, options); }
  pipeTo(destination, options) { return this.#stream().pipeTo(destination, options); }
  tee() { return this.#stream().tee(); }
}
