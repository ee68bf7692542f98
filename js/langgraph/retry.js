// retry.js: LangGraph's retry policy for a node, as the engine's node retry
// (js/node-policy.js), with LangGraph's retryOn and its default.

// Errors a retry cannot fix: client errors by HTTP status (400-409 but 408, a timeout), and aborts.
// (An interrupt is never retried: the engine checks that before it asks retryOn.)
function retryable(error) {
  if (error?.name === 'AbortError' || /^(Cancel|AbortError)/.test(String(error?.message))) return false;
  const status = Number(error?.response?.status ?? error?.status);
  return !(status >= 400 && status <= 409 && status !== 408) && error?.code !== 'ECONNABORTED' && error?.error?.code !== 'insufficient_quota';
}

/**
 * LangGraph's retry policy ({ maxAttempts = 3, initialInterval = 500 ms, backoffFactor = 2,
 * maxInterval = 128 s, jitter = true, retryOn }) as the engine's node retry (node-policy.js),
 * whose own defaults are the factor and the jitter's (a field left out of its JSON is its default).
 */
export function engineRetry(policy) {
  return { attempts: policy.maxAttempts ?? 3, backoffMs: policy.initialInterval ?? 500, factor: policy.backoffFactor, maxBackoffMs: policy.maxInterval ?? 128000, jitter: policy.jitter, retryOn: policy.retryOn ?? retryable };
}
