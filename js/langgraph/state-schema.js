// state-schema.js: LangGraph 1.x's StateSchema, the state declaration its docs
// prefer: `new StateSchema({ messages: MessagesValue, count: new ReducedValue(
// z.number().default(0), { reducer }), name: z.string() })`. Each field is a
// Standard Schema (Zod, Valibot, ArkType: a last-value channel whose default is
// what the schema parses nothing as), a ReducedValue (a reducer, its value
// schema's default), an UntrackedValue or a DeltaValue. StateGraph reads a
// StateSchema by shape (its `spec`, as an Annotation.Root's: annotation.js
// never imports this module), so a program that does not use it does not load it.
// Values are not validated with the schemas (LangGraph parses the input and each
// node's update with them): docs/migrating-from-langgraph.md.

import { messagesStateReducer } from './messages.js';
import { isStandardSchema } from '../standard-schema.js';

// LangGraph's own marks (Symbol.for), so its isInstance checks and these agree: a
// ReducedValue made by @langchain/langgraph (a library's state field) is read here too.
const REDUCED = Symbol.for('langgraph.state.reduced_value');
const UNTRACKED = Symbol.for('langgraph.state.untracked_value');
const DELTA = Symbol.for('langgraph.state.delta_value');
// Not LangGraph's: its StateGraph would ask this one for LangGraph channel objects.
const SCHEMA = Symbol.for('edgegraph.langgraph.state_schema');

const marked = (value, mark) => typeof value === 'object' && value !== null && value[mark] === true;

// Whether a value is a Standard Schema (`~standard.validate`): Zod 3.24+ and 4, Valibot, ArkType (a function): edgegraph's own test.
export { isStandardSchema };

/**
 * A factory of what `schema` parses `undefined` as (its `.default()`), made anew each call, or
 * undefined when it has none (it refuses `undefined`, accepts it as `undefined`, or validates asynchronously).
 */
export function getSchemaDefaultGetter(schema) {
  if (!isStandardSchema(schema)) return undefined;
  const made = () => {
    try {
      const result = schema['~standard'].validate(undefined);
      return typeof result?.then === 'function' || result?.issues ? undefined : result?.value;
    } catch {
      return undefined;
    }
  };
  return made() === undefined ? undefined : made;
}

/** The JSON Schema of a schema that gives one (`~standard.jsonSchema`, as Zod 4.2+), else undefined. */
export function getJsonSchemaFromSchema(schema) {
  try {
    return schema?.['~standard']?.jsonSchema?.input({ target: 'draft-07' });
  } catch {
    return undefined;
  }
}

/** A reduced field's parts (ReducedValue's, DeltaValue's): its value's schema, its writes' (the value's unless given), its reducer. */
function reduced(field, valueSchema, init) {
  field.valueSchema = valueSchema;
  field.inputSchema = 'inputSchema' in init ? init.inputSchema : valueSchema;
  field.reducer = init.reducer;
  field.jsonSchemaExtra = init.jsonSchemaExtra;
}

/** A field whose value a reducer computes: `new ReducedValue(valueSchema, { reducer, inputSchema?, jsonSchemaExtra? })`. */
export class ReducedValue {
  constructor(valueSchema, init) {
    this[REDUCED] = true;
    reduced(this, valueSchema, init);
  }

  static isInstance(value) { return marked(value, REDUCED); }
}

/**
 * A field LangGraph keeps out of checkpoints (`new UntrackedValue(schema?, { guard? })`). Here it is a
 * last-value channel, checkpointed as any other (docs/migrating-from-langgraph.md); `guard: false` keeps
 * the last of a step's writes.
 */
export class UntrackedValue {
  constructor(schema, init) {
    this[UNTRACKED] = true;
    this.schema = schema;
    this.guard = init?.guard ?? true;
  }

  static isInstance(value) { return marked(value, UNTRACKED); }
}

/**
 * LangGraph's DeltaValue (beta): a ReducedValue whose reducer folds a list of writes
 * (`reducer(current, writes)`). LangGraph stores deltas in its checkpoints; here the value, as any channel's.
 */
export class DeltaValue {
  constructor(valueSchema, init) {
    this[DELTA] = true;
    reduced(this, valueSchema, init);
    this.snapshotFrequency = init.snapshotFrequency;
  }

  static isInstance(value) { return marked(value, DELTA); }
}

/** A schema of anything, whose default is `[]` (a messages field's value; edgegraph imports no Zod). */
const messagesSchema = (fallback) => ({ '~standard': { version: 1, vendor: 'edgegraph', validate: (value) => ({ value: value === undefined ? fallback?.() : value }) } });
const messagesInit = { inputSchema: messagesSchema(), reducer: messagesStateReducer, jsonSchemaExtra: { langgraph_type: 'messages', description: 'A list of chat messages' } };

/** The messages field: LangGraph's message reducer (edgegraph's core runs it), `[]` by default. */
export const MessagesValue = new ReducedValue(messagesSchema(() => []), messagesInit);

/** LangGraph's MessagesDeltaValue: the same messages field here (the channel is the core's either way). */
export const MessagesDeltaValue = new DeltaValue(messagesSchema(() => []), { ...messagesInit, reducer: (current, writes) => writes.reduce(messagesStateReducer, current) });

const isMessages = (field) => field.jsonSchemaExtra?.langgraph_type === 'messages';

/** One field as a channel: { reducer?, default? } (annotation.js's channelsOf reads it). */
function channelOf(key, field) {
  if (DeltaValue.isInstance(field) || ReducedValue.isInstance(field)) {
    // A messages field (this module's, or LangGraph's own MessagesValue) runs on the core's message reducer.
    const batch = DeltaValue.isInstance(field) && !isMessages(field);
    const reducer = isMessages(field) ? messagesStateReducer : batch ? (current, write) => field.reducer(current, [write]) : field.reducer;
    return { reducer, default: getSchemaDefaultGetter(field.valueSchema) };
  }
  if (UntrackedValue.isInstance(field)) {
    return { reducer: field.guard ? undefined : (current, write) => write, default: getSchemaDefaultGetter(field.schema) };
  }
  if (isStandardSchema(field)) return { default: getSchemaDefaultGetter(field) };
  throw new Error(`Invalid state field "${key}": must be a schema, ReducedValue, DeltaValue, UntrackedValue, or ManagedValue`);
}

/** A state declaration: `new StateSchema(fields)`, given to `new StateGraph(schema)` (or as its input or output schema). */
export class StateSchema {
  constructor(fields) {
    this.fields = fields;
    Object.defineProperty(this, SCHEMA, { value: true });
  }

  /** Its channels as StateGraph reads them by shape (an Annotation.Root's `spec`): { key: { reducer?, default? } }. */
  get spec() { return this.getChannels(); }

  /** Its channels, { key: { reducer?, default? } } (LangGraph's are its channel classes). */
  getChannels() {
    return Object.fromEntries(Object.entries(this.fields).map(([key, field]) => [key, channelOf(key, field)]));
  }

  getChannelKeys() { return Object.keys(this.fields); }

  getAllKeys() { return Object.keys(this.fields); }

  /** The JSON Schema of the state (each field's, where its schema gives one; `required`: those without a default). */
  getJsonSchema() { return jsonSchemaOf(this.fields, false); }

  /** The JSON Schema of an update: every field optional, a reducer's field by its input schema. */
  getInputJsonSchema() { return jsonSchemaOf(this.fields, true); }

  /**
   * `data` parsed field by field with each field's schema (a reducer's by its input schema, an
   * Overwrite's value by its value schema); keys it does not declare pass as they are. Rejects with
   * the field's issues. (StateGraph does not call it here: a program may.)
   */
  async validateInput(data) {
    if (data == null || typeof data !== 'object') return data;
    const result = {};
    for (const [key, value] of Object.entries(data)) {
      const field = this.fields[key];
      const reduced = ReducedValue.isInstance(field) || DeltaValue.isInstance(field);
      const overwrite = reduced && typeof value === 'object' && value !== null && '__overwrite__' in value;
      const schema = reduced ? (overwrite ? field.valueSchema : field.inputSchema) : UntrackedValue.isInstance(field) ? field.schema : field;
      if (!isStandardSchema(schema)) {
        result[key] = value;
        continue;
      }
      const parsed = await schema['~standard'].validate(overwrite ? value.__overwrite__ : value);
      if (parsed.issues) throw new Error(`Validation failed for field "${key}": ${JSON.stringify(parsed.issues)}`);
      result[key] = overwrite ? { __overwrite__: parsed.value } : parsed.value;
    }
    return result;
  }

  static isInstance(value) { return typeof value === 'object' && value !== null && value[SCHEMA] === true; }
}

function jsonSchemaOf(fields, input) {
  const properties = {};
  const required = [];
  for (const [key, field] of Object.entries(fields)) {
    const reduced = ReducedValue.isInstance(field) || DeltaValue.isInstance(field);
    const schema = reduced ? (input ? field.inputSchema : field.valueSchema) : UntrackedValue.isInstance(field) ? field.schema : field;
    let json = getJsonSchemaFromSchema(schema);
    if (reduced && field.jsonSchemaExtra) json = { ...json, ...field.jsonSchemaExtra };
    if (!json) continue;
    properties[key] = json;
    if (!input && !getSchemaDefaultGetter(reduced ? field.valueSchema : schema)) required.push(key);
  }
  return input ? { type: 'object', properties } : { type: 'object', properties, required: required.length ? required : undefined };
}
