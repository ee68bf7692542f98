// node-policy.js: a node with a retry and/or timeout policy (its definition's
// `retry` and `timeoutMs`): each try gets its own signal, aborted by the step's
// or by the timeout; a failed try is tried again after a backoff until the
// attempts are used up or the run stops. An interrupt is not a failure: never
// retried. The Run (run.js) submits what this resolves with, or fails the task
// with what it rejects with.

import { EdgegraphError, describeThrown } from './errors.js';
import { sleep } from './timing.js';
import { isGraphInterrupt, TASK } from './interrupt.js';

/**
 * @param {{ retry?: object, timeoutMs?: number }} policy
 * @param {string} node the node's name (the timeout error names it)
 * @param {object} run what the Run lends: `call(attempt, signal)` runs the node once;
 *   `stepSignal()` the step's cancellation (the run's abort in it), which cuts a backoff short too;
 *   `stopped()` whether the run is over (no more tries); `onRetry(attempt, message, delayMs)`;
 *   `child`: the node runs a subgraph (js/subgraph.js), which its timeout waits for: see below
 */
export async function withPolicy({ retry = {}, timeoutMs }, node, run) {
  const attempts = retry.attempts ?? 1;
  let delay = retry.backoffMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    // Each try gets its own signal: aborted by the step's signal or the timeout.
    const controller = new AbortController();
    const stepSignal = run.stepSignal();
    const onStepAbort = () => controller.abort(stepSignal.reason);
    if (stepSignal.aborted) onStepAbort();
    else stepSignal.addEventListener('abort', onStepAbort, { once: true });
    let timer;
    try {
      const work = Promise.resolve().then(() => run.call(attempt, controller.signal));
      let late;   // the timeout's error, once it fired
      // A subgraph's child stops at a step and keeps it (its error's [TASK]): its timeout waits for that, and
      // carries it, so a resume goes on in the child (one that finished meanwhile is the result).
      return timeoutMs === undefined ? await work : await Promise.race([
        run.child ? work.catch((x) => { throw late ? Object.assign(late, { [TASK]: x?.[TASK] }) : x; }) : work,
        new Promise((_, reject) => {
          timer = setTimeout(() => {
            late = new EdgegraphError('NODE_TIMEOUT', `timed out after ${timeoutMs} ms`, { node });
            controller.abort(late);
            if (!run.child) reject(late);
          }, timeoutMs);
        }),
      ]);
    } catch (e) {
      // retry.retryOn(error): false for an error no retry can fix (the policy's own filter; JSON drops it, the core never sees it).
      if (attempt >= attempts || run.stopped() || isGraphInterrupt(e) || retry.retryOn?.(e) === false) throw e;
      const wait = retry.jitter === false ? delay : delay * (0.5 + Math.random() / 2);
      run.onRetry(attempt, describeThrown(e).message, wait);
      delay = Math.min(delay * (retry.factor ?? 2), retry.maxBackoffMs ?? Infinity);
      clearTimeout(timer);
      // The wait ends early when the step's signal fires (the run stopped, or a sibling failed): then no next
      // try; this try's error, and what it keeps, stand.
      if (!(await sleep(wait, stepSignal)) || run.stopped()) throw e;
    } finally {
      clearTimeout(timer);
      stepSignal.removeEventListener('abort', onStepAbort);
    }
  }
}
