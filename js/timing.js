// timing.js: waiting that an AbortSignal can cut short, for retry backoff in
// the engine and the LLM client (once two copies with opposite semantics).

/**
 * Resolves after `ms`: true when the time passed, false when `signal`
 * aborted first (at once if it already had). Never rejects; the caller
 * decides what an abort means.
 */
export function sleep(ms, signal) {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(true), ms);
    const onAbort = () => finish(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    function finish(slept) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(slept);
    }
  });
}

/** A signal that aborts when any of `signals` does (AbortSignal.any where the runtime has it). */
export function anySignal(signals) {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) { controller.abort(s.reason); break; }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/**
 * Call `run(item)` for every item, at most `limit` at a time, in order; stops
 * taking new items once `going()` is false. Resolves when the started ones end.
 */
export async function eachLimited(items, limit, run, going) {
  let next = 0;
  const worker = async () => {
    while (next < items.length && going()) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
