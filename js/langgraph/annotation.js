// annotation.js: LangGraph's state declarations. Each key is a channel: a
// last value (no reducer) or a reducer with an optional default. They become
// an edgegraph state definition: JS reducers by path, defaults as data.

import { messagesStateReducer } from './messages.js';

const CHANNEL = Symbol.for('edgegraph.langgraph.channel');

/** One channel: `Annotation()` (last value) or `Annotation({ reducer, default })`. */
export function Annotation(spec = {}) {
  const reducer = spec.reducer ?? spec.value;
  return { [CHANNEL]: true, reducer: typeof reducer === 'function' ? reducer : undefined, default: spec.default };
}

/** A state of channels: `Annotation.Root({ key: Annotation(...) })`. */
Annotation.Root = function Root(channels) {
  return { lc_graph_name: 'AnnotationRoot', spec: channels, State: undefined, Update: undefined, Node: undefined };
};

/** The messages channel with LangGraph's message reducer. */
export const MessagesAnnotation = Annotation.Root({
  messages: Annotation({ reducer: messagesStateReducer, default: () => [] }),
});

const isChannel = (c) => c !== null && typeof c === 'object' && (c[CHANNEL] === true || typeof c.reducer === 'function' || 'default' in c || c.lc_graph_name !== undefined);

/**
 * The channels of what StateGraph was given: an Annotation.Root, its `spec`,
 * `{ channels }` (LangGraph's older form), or `{ stateSchema, input, output }`.
 * @returns {Map<string, { reducer?: Function, default?: Function }>}
 */
export function channelsOf(schema) {
  const out = new Map();
  const add = (root) => {
    if (!root) return;
    const spec = root.spec ?? root.channels ?? root;
    for (const [key, c] of Object.entries(spec)) {
      if (c === null || c === undefined) { out.set(key, {}); continue; }
      const ch = isChannel(c) && typeof c.reducer !== 'object' ? c : {};
      out.set(key, { reducer: ch.reducer, default: typeof ch.default === 'function' ? ch.default : undefined });
    }
  };
  if (schema && (schema.stateSchema || schema.input || schema.output) && !schema.spec) {
    add(schema.stateSchema); add(schema.input); add(schema.output);
  } else add(schema);
  return out;
}
