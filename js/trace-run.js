// trace-run.js: a run's OpenTelemetry tracing, for an engine that has a
// tracer. Spans come from the run's events and from ctx.trace (model and tool
// calls); tracing.js is loaded here, on first use, so an engine without a
// tracer never fetches it.

/**
 * @param {{ tracer: object, content: boolean }} config the engine's tracer settings
 * @param {object} options the run's options
 * @returns {Promise<{ options: object, tracing: object }>} the options with the tracing's event observer
 */
export async function traceRun(config, options) {
  const { RunTracing } = await import('./tracing.js');
  const tracing = new RunTracing(config.tracer, { content: config.content, parent: options.traceContext, runId: options.runId, threadId: options.threadId });
  return { options: { ...options, onEvent: tracing.observe(options.onEvent), tracing }, tracing };
}
