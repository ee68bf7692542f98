// events.js: run events as a callback and as an async iterator.

import { EdgegraphError } from './errors.js';
import { EventChannel } from './event-channel.js';

export { EventChannel };

// Looked up at the first call, not at import: in Node, touching `performance`
// loads perf_hooks (a dozen internal modules, ~0.8 ms of a cold start).
let clock = null;
export const now = () => (clock ??= globalThis.performance?.now ? performance.now.bind(performance) : Date.now)();

/** stream()'s modes (stream-modes.js): what each yields is in docs/streaming.md. */
export const STREAM_MODES = Object.freeze(['values', 'updates', 'custom', 'messages', 'tasks', 'checkpoints', 'debug']);
/** stream()'s options beside the run's. */
export const STREAM_OPTIONS = ['streamMode', 'subgraphs'];
/** Where a run's options (and a node's context) carry the stream its modes go to. */
export const STREAM = Symbol.for('edgegraph.stream');
/** A run option: a stream's stop, { reason, onStop } (run.js sets onStop; the stream sets reason, then calls it). */
export const STOP = Symbol.for('edgegraph.stop');
/** Marks an onEvent of our own that never reads a state_update's patch (the run then builds none: run.js). */
export const PATCHLESS = Symbol.for('edgegraph.patchless');
/** A run option engine.js sets on a run restored from a checkpoint (resume): its first step may hold kept results (run.js). */
export const RESUMED = Symbol('resumed');

/** A run's event to the caller's onEvent, then to the stream's channel. */
function toChannel(onEvent, channel, event) {
  onEvent?.(event);
  channel.push(event);
}

/**
 * A run's events as an async iterator: `start(runOptions)` starts the run
 * with `options` plus the stream's onEvent and signal. Leaving the loop
 * (break, return, a throw, a cancelled SSE stream) aborts the run: nothing
 * after it runs unobserved. `options.onEvent` still hears every event, and
 * `options.signal` still aborts. With `options.streamMode`, the iterator
 * yields chunks of those modes instead (stream-run.js, loaded then).
 */
export function streamOf(start, options) {
  const { streamMode, subgraphs, ...run } = options;
  const stop = run[STOP] = { reason: undefined, onStop: null };
  const abort = () => { stop.reason ??= new EdgegraphError('ABORTED', 'the event stream was closed by its consumer'); stop.onStop?.(); };
  if (streamMode === undefined) {
    const channel = new EventChannel({ onReturn: abort });
    // A bound function, not a closure: with a closure here, every streamed run survived
    // minor GCs and was promoted (seen with node --trace-gc; context.js has the same).
    run.onEvent = toChannel.bind(undefined, options.onEvent, channel);
    start(run).then(() => channel.close(), (e) => channel.close(e));
    return channel;
  }
  const modes = Array.isArray(streamMode) ? streamMode : [streamMode];
  for (const mode of modes) {
    if (!STREAM_MODES.includes(mode)) throw new EdgegraphError('INVALID_OPTIONS', `unknown streamMode '${mode}' (expected ${STREAM_MODES.join(', ')})`);
  }
  if (subgraphs !== undefined && typeof subgraphs !== 'boolean') throw new EdgegraphError('INVALID_OPTIONS', 'options.subgraphs must be a boolean');
  const config = { modes, single: !Array.isArray(streamMode), subgraphs: subgraphs === true, stop: abort };
  const ready = import('./stream-run.js').then((m) => m.streamModes(start, run, config));
  const result = ready.then((s) => s.result);
  result.catch(() => {});   // a run that never started rejects next() too: that caller hears it
  return {
    [Symbol.asyncIterator]() { return this; },
    next: () => ready.then((s) => s.chunks.next()),
    return: () => ready.then((s) => s.chunks.return()),
    result,
  };
}
