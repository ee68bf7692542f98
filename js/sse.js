// sse.js: run events as server-sent events, from a Worker, a Node handler or
// any runtime with web streams, and back into events in a browser or client.
//
//   return eventStreamResponse(engine.stream(input));          // server
//   for await (const e of readServerSentEvents(await fetch(url))) ...   // client
// (In a browser, EventSource works too: each event's `data` is its JSON.)

const encoder = new TextEncoder();

/** An event as JSON-safe data: errors become { code, message, node }. */
export function eventData(event) {
  if (event?.type !== 'run_end') return event;
  const { result } = event;
  return {
    type: 'run_end',
    status: event.status,
    state: result?.state,
    checkpoint: result?.checkpoint,
    error: result?.error ? { code: result.error.code, message: result.error.message, node: result.error.node } : undefined,
  };
}

/**
 * A byte stream of SSE frames: `event: <type>` and `data: <json>` per event.
 * When the client goes away (the stream is cancelled, or `signal` aborts:
 * pass the request's signal), the events' iterator is returned, which aborts
 * an engine.stream() run.
 */
export function toServerSentEvents(events, { keepAliveMs = 15_000, signal } = {}) {
  const iterator = events[Symbol.asyncIterator]();
  let timer, onAbort;
  let ended = false;
  // The stream is over (the events ended, or the client left): no more frames.
  const end = (controller) => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    signal?.removeEventListener('abort', onAbort);
    try { controller?.close(); } catch { /* cancelled: already closed */ }
  };
  const leave = (controller) => { end(controller); iterator.return?.(); };
  return new ReadableStream({
    start(controller) {
      if (signal?.aborted) return leave(controller);
      onAbort = () => leave(controller);
      signal?.addEventListener('abort', onAbort, { once: true });
      // Comments keep proxies from closing a quiet connection.
      if (keepAliveMs > 0) timer = setInterval(() => controller.enqueue(encoder.encode(': keep-alive\n\n')), keepAliveMs);
    },
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (ended) return;
        if (done) return end(controller);
        const data = JSON.stringify(eventData(value));
        controller.enqueue(encoder.encode(`event: ${value.type}\ndata: ${data}\n\n`));
      } catch (e) {
        if (ended) return;
        controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { code: e?.code ?? 'ERROR', message: e?.message ?? String(e) } })}\n\n`));
        end(controller);
      }
    },
    cancel() { leave(null); },
  });
}

/**
 * A Response streaming the events (Workers, Deno, Bun, Node 18+).
 * `init.signal` (the request's signal) ends the stream, and the run, when the client leaves.
 */
export function eventStreamResponse(events, init = {}) {
  const { signal, keepAliveMs, ...responseInit } = init;
  return new Response(toServerSentEvents(events, { signal, keepAliveMs }), {
    ...responseInit,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', ...(responseInit.headers ?? {}) },
  });
}

/**
 * Incremental server-sent-events parsing: feed bytes as they arrive, get the
 * `data` of each event they complete (multi-line data joined by newlines).
 * Other fields (event:, id:, retry:) and comments are skipped.
 */
export class SseDecoder {
  #decoder = new TextDecoder();
  #buffer = '';
  #data = [];

  push(bytes) {
    this.#buffer += this.#decoder.decode(bytes, { stream: true });
    const events = [];
    let nl;
    while ((nl = this.#buffer.indexOf('\n')) >= 0) {
      let line = this.#buffer.slice(0, nl);
      this.#buffer = this.#buffer.slice(nl + 1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (this.#data.length) events.push(this.#data.join('\n'));
        this.#data = [];
      } else if (line.startsWith('data:')) {
        this.#data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
    }
    return events;
  }
}

/** Parse a Response (or byte stream) of server-sent events into event objects. */
export async function* readServerSentEvents(source) {
  const body = source?.body ?? source;
  const reader = body.getReader();
  const sse = new SseDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const data of sse.push(value)) yield JSON.parse(data);
  }
}
