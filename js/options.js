// options.js: the options GraphEngine and its runs take, checked by name: a
// typo (`maxStep`, `checkpointr`) is an error listing the known ones, never a
// silently ignored setting.

import { EdgegraphError } from './errors.js';

export const ENGINE_OPTIONS = ['maxSteps', 'handlers', 'routers', 'checkpointer', 'limits', 'chatHistoryManager', 'maxContextTokens', 'tokenizer', 'tracer', 'traceContent', 'interruptBefore', 'interruptAfter', 'retry', 'cache'];
export const LIMIT_OPTIONS = ['maxResultBytes', 'maxInputBytes', 'maxStateBytes', 'maxMessages'];
export const RUN_OPTIONS = ['signal', 'onEvent', 'maxSteps', 'runId', 'threadId', 'traceContext', 'recover', 'configurable', 'interruptBefore', 'interruptAfter', 'maxConcurrency'];
export const RESUME_OPTIONS = [...RUN_OPTIONS, 'update'];

/** Throws INVALID_OPTIONS for a key of `options` not in `known`; `where` names the options in the message. */
export function checkOptions(options, known, where) {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object') throw new EdgegraphError('INVALID_OPTIONS', `${where} must be an object`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new EdgegraphError('INVALID_OPTIONS', `unknown option '${key}' in ${where}; the known options are ${known.join(', ')}`);
  }
}

/**
 * The run options the core reads, as JSON: the engine's limits, the call's
 * maxSteps (else the engine's), runId, and breakpoints (the call's, else the
 * engine's `breakpoints`). maxConcurrency is checked here: the JS side uses it.
 */
export function coreRunOptions({ limits, maxSteps, breakpoints }, options) {
  const width = options.maxConcurrency;
  if (width !== undefined && !(Number.isInteger(width) && width >= 1)) throw new EdgegraphError('INVALID_OPTIONS', 'options.maxConcurrency must be an integer of at least 1');
  const o = { ...limits };
  const max = options.maxSteps ?? maxSteps;
  if (max !== undefined) o.maxSteps = max;
  if (options.runId !== undefined) o.runId = options.runId;
  for (const key of ['interruptBefore', 'interruptAfter']) {
    const list = options[key] ?? breakpoints[key];
    if (list !== undefined) o[key] = list;
  }
  return JSON.stringify(o);
}

/** A run's id when the caller gives none: time, a counter and randomness, unique across processes. */
let runCounter = 0;
export function newRunId() {
  return `${Date.now().toString(36)}-${(++runCounter).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
