// options.js: the options GraphEngine and its runs take, checked by name: a
// typo (`maxStep`, `checkpointr`) is an error listing the known ones, never a
// silently ignored setting.

import { EdgegraphError } from './errors.js';

export const ENGINE_OPTIONS = ['maxSteps', 'handlers', 'routers', 'checkpointer', 'limits', 'chatHistoryManager', 'maxContextTokens', 'tokenizer', 'tracer', 'traceContent', 'interruptBefore', 'interruptAfter', 'retry'];
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
