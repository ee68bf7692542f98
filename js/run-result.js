// run-result.js: what a run hands its caller when it stops. The core's final
// status (or a checkpoint write that failed) becomes the result: { status,
// state, usage, interrupts?, parentCommand?, error?, checkpoint? }, and a
// listener hears the run's last events (pause, error, run_end). It lives apart
// from run.js because none of it is the drive loop: it runs once a run, on
// what the Run gathered, while the core's run is still open. Each function
// takes that first, as (core, handle, state, usage, handoff): the core's run
// (for the checkpoint), the mirror, the model calls' records (usage.js) and
// a node's Command.PARENT (the parent graph's command), then its own inputs.

import { EdgegraphError } from './errors.js';
import { usageOf } from './usage.js';

function resultOf(core, handle, state, usage, handoff, status, error, interrupts) {
  const result = { status, state, usage: usageOf(usage) };
  if (interrupts) result.interrupts = interrupts;
  if (handoff) result.parentCommand = handoff;
  Object.defineProperty(result, 'finalState', { value: state, enumerable: false });
  if (error) result.error = error;
  // Anything that can be continued gets a checkpoint, to store or send.
  if (status !== 'FINISHED') result.checkpoint = core.runCheckpoint(handle);
  return result;
}

/**
 * The store failed a write: the run stops before anything else happens and
 * resolves with its state, like any failed run. The thread's last written
 * checkpoint stays its readable latest; `checkpoint` holds where this run got to.
 */
export function writeFailedResult(core, handle, state, usage, handoff, emit, thread) {
  const cause = thread.error;
  // Another run holds the thread: before this run's first record nothing
  // ran, and the caller gets the error itself; after it, the run stops.
  if (cause?.code === 'THREAD_BUSY' && !thread.claimed) throw cause;
  const error = cause?.code === 'THREAD_BUSY' ? cause : new EdgegraphError('CHECKPOINT_WRITE_FAILED', `could not write a checkpoint of thread '${thread.id}': ${cause?.message ?? String(cause)}; the run stopped, and the thread's last written checkpoint is still readable`, { cause });
  const result = resultOf(core, handle, state, usage, handoff, 'ERROR', error);
  emit?.({ type: 'error', error: { code: error.code, message: error.message } });
  emit?.({ type: 'run_end', status: 'ERROR', result });
  return result;
}

/**
 * The result of the core's last step `out` (step.js): its status, and its
 * error with the cause the node threw (`thrown`: node -> error), or ABORTED
 * when the run's signal (`aborted`) interrupted it.
 */
export function finalResult(core, handle, state, usage, handoff, emit, out, thrown, aborted) {
  let error;
  if (out.error) error = new EdgegraphError(out.error.code, out.error.message, { node: out.error.node, cause: thrown.get(out.error.node) });
  if (aborted && out.status === 'INTERRUPTED') error = new EdgegraphError('ABORTED', 'the run was interrupted by its AbortSignal');
  const result = resultOf(core, handle, state, usage, handoff, out.status, error, out.interrupts);
  if (emit) {
    if (out.status === 'PAUSED') emit({ type: 'pause', pendingAskUser: state.pendingAskUser ?? null, ...(out.interrupts ? { interrupts: out.interrupts } : {}) });
    if (out.error) emit({ type: 'error', error: out.error });
    emit({ type: 'run_end', status: out.status, result });
  }
  return result;
}
