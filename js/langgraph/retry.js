// retry.js: LangGraph's retry policy for a node, run in this layer (not as
// the engine's retry) for `retryOn`.

import { isGraphInterrupt } from './edgegraph.js';

// Errors a retry cannot fix: client errors by HTTP status (400-409 but 408, a timeout), and aborts.
function retryable(error) {
  if (isGraphInterrupt(error)) return false;
  if (error?.name === 'AbortError' || /^(Cancel|AbortError)/.test(String(error?.message))) return false;
  const status = Number(error?.response?.status ?? error?.status);
  return !(status >= 400 && status <= 409 && status !== 408) && error?.code !== 'ECONNABORTED' && error?.error?.code !== 'insufficient_quota';
}

/**
 * A node with LangGraph's retry policy: { maxAttempts = 3, initialInterval = 500 ms,
 * backoffFactor = 2, maxInterval = 128 s, jitter = true (up to 1 s more), retryOn }.
 */
export function withRetry(fn, policy) {
  if (!policy) return fn;
  // The policy's fields with their defaults, read as engineRetry reads them.
  const { attempts, backoffMs, factor, maxBackoffMs, jitter } = engineRetry(policy);
  return async (input, config) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn(input, config);
      } catch (e) {
        if (attempt >= attempts || !(policy.retryOn ?? retryable)(e) || config.signal?.aborted) throw e;
        const wait = Math.min(maxBackoffMs, backoffMs * factor ** (attempt - 1));
        await new Promise((resolve) => setTimeout(resolve, wait + (jitter ? Math.random() * 1000 : 0)));
      }
    }
  };
}

/** LangGraph's retry policy as the engine's node retry (a subgraph node's, which the engine runs). */
export function engineRetry(policy) {
  return { attempts: policy.maxAttempts ?? 3, backoffMs: policy.initialInterval ?? 500, factor: policy.backoffFactor ?? 2, maxBackoffMs: policy.maxInterval ?? 128000, jitter: policy.jitter ?? true };
}
