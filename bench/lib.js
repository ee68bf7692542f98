// bench/lib.js: timing helpers. Figures are medians of several batches,
// measured side by side in one process: these machines are shared and noisy.

export const now = () => performance.now();

/**
 * Median of `batches` timings of `fn` repeated `iterations` times, per iteration (ms),
 * after `warmup` untimed calls, and at least `warmupMs` of them (LangGraph's own bench,
 * vitest's bench over tinybench, warms each shape up for 100 ms and 5 calls).
 * `spread`, a list, gets the fastest and the slowest batch.
 */
export async function measure(fn, { iterations = 20, batches = 7, warmup = 3, warmupMs = 0, spread = null } = {}) {
  const start = now();
  for (let i = 0; i < warmup || now() - start < warmupMs; i++) await fn();
  const samples = [];
  for (let b = 0; b < batches; b++) {
    globalThis.gc?.();
    const t0 = now();
    for (let i = 0; i < iterations; i++) await fn();
    samples.push((now() - t0) / iterations);
  }
  samples.sort((a, b) => a - b);
  if (spread) spread.push(samples[0], samples[samples.length - 1]);   // the fastest and slowest batch
  return samples[samples.length >> 1];
}

/**
 * A shape timed as LangGraph's own bench times it (vitest bench over tinybench: warm up for
 * 100 ms and at least 5 calls, then call it for at least `timeMs` (500) and 10 calls), in
 * `batches` of an equal share of that time, each after a full GC: the median batch's time per
 * call (ms). `spread`, a list, gets the fastest and the slowest batch.
 */
export async function measureFor(fn, { timeMs = 500, calls = 10, batches = 5, warmupMs = 100, warmup = 5, spread = null } = {}) {
  const start = now();
  for (let i = 0; i < warmup || now() - start < warmupMs; i++) await fn();
  const samples = [];
  const batchMs = timeMs / batches, batchCalls = Math.ceil(calls / batches);
  for (let b = 0; b < batches; b++) {
    globalThis.gc?.();
    const t0 = now();
    let n = 0;
    while (n < batchCalls || now() - t0 < batchMs) { await fn(); n++; }
    samples.push((now() - t0) / n);
  }
  samples.sort((a, b) => a - b);
  if (spread) spread.push(samples[0], samples[samples.length - 1]);
  return samples[samples.length >> 1];
}

export function fmtTime(ms) {
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1000).toFixed(2)} µs`;
  return `${ms.toFixed(2)} ms`;
}

export function fmtBytes(n) {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;
}

/** One line: our figure, the peer's, and the ratio (> 1: edgegraph is better). */
export function row(name, ours, theirs, unit = fmtTime, target = '', peer = 'LangGraph.js', higherIsBetter = false) {
  const ratio = higherIsBetter ? ours / theirs : theirs / ours;
  console.log(`  ${name.padEnd(46)} edgegraph ${unit(ours).padStart(11)}   ${peer} ${unit(theirs).padStart(11)}   ${ratio >= 1 ? `${ratio.toFixed(1)}x better` : `${(1 / ratio).toFixed(1)}x worse`}${target ? `   (target: ${target})` : ''}`);
  return ratio;
}

/**
 * Per-step cost as a slope: the median over batches of (a run of `many`
 * steps - a run of `one` step) / (steps - 1), each pair timed back to back so
 * the machine's drift cancels out. `reset` (untimed) runs before each timing.
 */
export async function measureSlope(many, one, steps, { iterations = 5, batches = 9, warmup = 1, reset = async () => {} } = {}) {
  for (let i = 0; i < warmup; i++) { await many(); await one(); }
  const time = async (fn) => {
    await reset();
    globalThis.gc?.();
    const t0 = now();
    for (let i = 0; i < iterations; i++) await fn();
    return (now() - t0) / iterations;
  };
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const a = await time(many);
    samples.push((a - await time(one)) / (steps - 1));
  }
  samples.sort((x, y) => x - y);
  return samples[samples.length >> 1];
}
