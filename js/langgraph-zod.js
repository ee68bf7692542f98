// langgraph-zod.js: the entry `edgegraph/langgraph/zod`: what
// @langchain/langgraph/zod gives a Zod state (withLangGraph, registry) and
// LangGraph's MessagesZodState. It never imports zod (the package has no
// runtime dependencies): it records each field's meta ({ reducer: { fn },
// default }) by the field's schema object, and edgegraph/langgraph's
// StateGraph reads it there (js/langgraph/annotation.js).

import { messagesStateReducer } from 'edgegraph/langgraph';

/**
 * A registry for Zod v4's `schema.register(registry, meta)`, as zod's own
 * $ZodRegistry (zod calls add(); z.toJSONSchema's `metadata` option calls
 * get() and reads _idmap), written out because this entry cannot import zod.
 */
export class LanggraphZodMetaRegistry {
  _map = new WeakMap();
  _idmap = new Map();

  add(schema, meta) {
    this._map.set(schema, meta);
    if (meta && typeof meta === 'object' && 'id' in meta) this._idmap.set(meta.id, schema);
    return this;
  }

  clear() {
    this._map = new WeakMap();
    this._idmap = new Map();
    return this;
  }

  remove(schema) {
    const meta = this._map.get(schema);
    if (meta && typeof meta === 'object' && 'id' in meta) this._idmap.delete(meta.id);
    this._map.delete(schema);
    return this;
  }

  /** A schema's meta; one zod derived from another (`_zod.parent`) has its parent's too, as in zod's registries. */
  get(schema) {
    const parent = schema?._zod?.parent;
    if (!parent) return this._map.get(schema);
    const { id, ...inherited } = this.get(parent) ?? {};
    const meta = { ...inherited, ...this._map.get(schema) };
    return Object.keys(meta).length ? meta : undefined;
  }

  has(schema) {
    return this._map.has(schema);
  }
}

// One registry in the process, kept under a global key: edgegraph/langgraph
// is another bundle (and an app may load either twice), so a module variable
// here would not be the one StateGraph reads. (StateGraph reads _map: the meta
// a field itself was given, as LangGraph's StateGraph does.)
const KEY = Symbol.for('edgegraph.langgraph.zod');
/** The registry StateGraph reads: `z.array(z.string()).register(registry, { reducer: { fn }, default })`. */
export const registry = (globalThis[KEY] ??= new LanggraphZodMetaRegistry());

/**
 * A field with a reducer and/or a default, recorded in `registry`:
 * `withLangGraph(z.custom(), { reducer: { schema, fn }, default })`. Returns
 * the schema itself; with a reducer it gets `lg_reducer_schema` (the update's
 * schema), as LangGraph's does.
 */
export function withLangGraph(schema, meta) {
  if (meta.reducer) Object.assign(schema, { lg_reducer_schema: meta.reducer.schema ?? schema });
  registry.add(schema, meta);
  return schema;
}

/** The meta of a messages field: LangGraph's message reducer, `[]` by default. */
export const MessagesZodMeta = {
  reducer: { fn: messagesStateReducer },
  jsonSchemaExtra: { langgraph_type: 'messages' },
  default: () => [],
};

/**
 * A stand-in for a Zod object, read by shape as StateGraph reads Zod's: its
 * `shape`, `extend(shape)` and `merge(object)`. (LangGraph's MessagesZodState
 * is a z.object, which this entry cannot make without importing zod.)
 */
function zodObjectLike(shape) {
  return {
    _def: { type: 'object' },
    shape,
    extend: (more) => zodObjectLike({ ...shape, ...more }),
    merge: (other) => zodObjectLike({ ...shape, ...other.shape }),
  };
}

/** The messages field: any value passes (as LangGraph's z.custom()); the reducer combines. */
const messagesField = withLangGraph({
  _def: { type: 'custom' },
  safeParse: (data) => ({ success: true, data }),
  parse: (data) => data,
}, MessagesZodMeta);

/** LangGraph's MessagesZodState: `{ messages }` with the message reducer and `[]` by default. */
export const MessagesZodState = zodObjectLike({ messages: messagesField });
