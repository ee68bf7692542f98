// retry.js: LangGraph's retry policy for a node, run in this layer (not as
// the engine's retry) for `retryOn`.

import { isGraphInterrupt } from './edgegraph.js';

// Errors a retry cannot fix: client errors by HTTP status, and aborts.
const NO_RETRY_STATUS = new Set([400, 401, 402, 403, 404, 405, 406, 407, 409]);
function retryable(error) {
  if (isGraphInterrupt(error)) return false;
  if (error?.name === 'AbortError' || /^(Cancel|AbortError)/.test(String(error?.message))) return false;
  const status = Number(error?.response?.status ?? error?.status);
  return !NO_RETRY_STATUS.has(status) && error?.code !== 'ECONNABORTED' && error?.error?.code !== 'insufficient_quota';
}

/**
 * A node with LangGraph's retry policy: { maxAttempts = 3, initialInterval = 500 ms,
 * backoffFactor = 2, maxInterval = 128 s, jitter = true (up to 1 s more), retryOn }.
 */
export function withRetry(fn, policy) {
  if (!policy) return fn;
  return async (input, config) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn(input, config);
      } catch (e) {
        if (attempt >= (policy.maxAttempts ?? 3) || !(policy.retryOn ?? retryable)(e) || config.signal?.aborted) throw e;
        const wait = Math.min(policy.maxInterval ?? 128000, (policy.initialInterval ?? 500) * (policy.backoffFactor ?? 2) ** (attempt - 1));
        await new Promise((resolve) => setTimeout(resolve, wait + ((policy.jitter ?? true) ? Math.random() * 1000 : 0)));
      }
    }
  };
}

/** LangGraph's retry policy as the engine's node retry (a subgraph node's, which the engine runs). */
export function engineRetry(policy) {
  return { attempts: policy.maxAttempts ?? 3, backoffMs: policy.initialInterval ?? 500, factor: policy.backoffFactor ?? 2, maxBackoffMs: policy.maxInterval ?? 128000, jitter: policy.jitter ?? true };
}
