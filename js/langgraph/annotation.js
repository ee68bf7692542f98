// annotation.js: LangGraph's state declarations. Each key is a channel: a
// last value (no reducer) or a reducer with an optional default. They become
// an edgegraph state definition: JS reducers by path, defaults as data.

import { messagesStateReducer, isObject } from './messages.js';
import { GraphValidationError } from './errors.js';

/** One channel: `Annotation()` (last value) or `Annotation({ reducer, default })`. */
export function Annotation(spec = {}) {
  // (channelsOf keeps a reducer and a default only if they are functions. A last value has no
  // default, as LangGraph's: its key stays unset until written.)
  const reducer = spec.reducer ?? spec.value;
  return { reducer, default: reducer ? spec.default : undefined };
}

/** A state of channels: `Annotation.Root({ key: Annotation(...) })` (its State, Update and Node are types only, as in LangGraph). */
Annotation.Root = function Root(channels) {
  return { lc_graph_name: 'AnnotationRoot', spec: channels };
};

/** The messages channel with LangGraph's message reducer. */
export const MessagesAnnotation = Annotation.Root({
  messages: Annotation({ reducer: messagesStateReducer, default: () => [] }),
});

/** A Zod object schema (v3 or v4), by shape: its keys are last-value channels. */
const isZodObject = (v) => isObject(v) && (v._def !== undefined || v._zod !== undefined) && isObject(v.shape);

/**
 * A Zod field's channel: the reducer and default edgegraph/langgraph/zod recorded for it (that entry's
 * registry, under a global key: it is another bundle), else its `.default()`, what it parses nothing as
 * (v3 and v4 alike), made anew each time. A reducer given by @langchain/langgraph/zod (which marks the
 * field with lg_reducer_schema) is in LangGraph's own registry, out of reach: refused, or its writes
 * would overwrite.
 */
function zodChannel(field, key) {
  const meta = globalThis[Symbol.for('edgegraph.langgraph.zod')]?._map.get(field);
  if (!meta && field?.lg_reducer_schema) {
    throw new GraphValidationError(`channel '${key}' has a reducer from @langchain/langgraph/zod, which edgegraph cannot read: import from 'edgegraph/langgraph/zod' instead`, { code: 'FOREIGN_ZOD_REDUCER' });
  }
  const made = () => field?.safeParse?.()?.data;
  return { reducer: meta?.reducer?.fn, default: meta?.default ?? (made() !== undefined ? made : undefined) };
}

function specOf(root) {
  if (isZodObject(root)) return Object.fromEntries(Object.entries(root.shape).map(([k, field]) => [k, zodChannel(field, k)]));
  return root.spec ?? root.channels ?? root;
}

/**
 * The channels of what StateGraph was given: an Annotation.Root, its `spec`,
 * `{ channels }` (LangGraph's older form), a Zod object, or
 * `{ stateSchema | state, input, output }` (the union of their channels; the
 * output schema's keys are what invoke() returns, the input schema's what it
 * takes). The same key with two different reducers is an error, as in LangGraph.
 * @returns {{ channels: Map<string, { reducer?: Function, default?: Function }>, input: Set<string> | null, output: Set<string> | null }}
 */
export function channelsOf(schema) {
  const channels = new Map();
  const add = (root) => {
    if (!root) return [];
    const spec = specOf(root);
    for (const [key, c] of Object.entries(spec)) {
      // A channel's reducer (`value` in the older `{ channels }` form) and default are functions; anything
      // else there (a Zod field, a value) is a last-value channel.
      const reducer = c?.reducer ?? c?.value;
      const entry = { reducer: typeof reducer === 'function' ? reducer : undefined, default: typeof c?.default === 'function' ? c.default : undefined };
      const seen = channels.get(key);
      if (seen?.reducer && entry.reducer && seen.reducer !== entry.reducer) {
        throw new GraphValidationError(`channel '${key}' is declared twice with different reducers`);
      }
      if (!seen || (!seen.reducer && entry.reducer)) channels.set(key, entry);
    }
    return Object.keys(spec);
  };
  const parts = schema && !schema.spec && !isZodObject(schema) && (schema.stateSchema || schema.state || schema.input || schema.output);
  const [, inputKeys, outputKeys] = parts ? [add(schema.stateSchema ?? schema.state), add(schema.input), add(schema.output)] : [add(schema)];
  return { channels, input: parts && schema.input ? new Set(inputKeys) : null, output: parts && schema.output ? new Set(outputKeys) : null };
}
