// usage.js: the tokens of a run's model calls, in edgegraph's own shape,
// whichever provider answered: each call (node, provider, model, input,
// output and cached tokens) and the totals. result.usage holds the calls of
// that run (a resumed run counts its own).

/**
 * @param {Array<{ node: string, provider: string, model: string|null, inputTokens: number, outputTokens: number, cachedTokens: number }>} calls
 */
export function usageOf(calls) {
  const total = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, totalTokens: 0, calls: calls.map((c) => ({ ...c })) };
  for (const c of calls) {
    total.inputTokens += c.inputTokens;
    total.outputTokens += c.outputTokens;
    total.cachedTokens += c.cachedTokens;
  }
  total.totalTokens = total.inputTokens + total.outputTokens;
  return total;
}

/** The usage record of one chat() reply; undefined when the provider reported no tokens. */
export function usageRecord(reply) {
  if (!reply?.tokens) return undefined;
  const { inputTokens, outputTokens, cachedTokens } = reply.tokens;
  return { provider: reply.provider ?? 'openai', model: reply.model ?? null, inputTokens, outputTokens, cachedTokens };
}
