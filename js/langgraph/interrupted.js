// interrupted.js: a paused invoke()'s result, as LangGraph reads it: the
// state with the pending interrupts under INTERRUPT ([{ id, value }]).

export const INTERRUPT = '__interrupt__';

/** Whether `values` (an invoke() result, a values chunk) holds pending interrupts. */
export const isInterrupted = (values) => Array.isArray(values?.[INTERRUPT]);
