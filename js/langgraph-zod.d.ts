// Types of `edgegraph/langgraph/zod` (js/langgraph-zod.js): @langchain/langgraph/zod's
// withLangGraph and registry, and MessagesZodState. They name no zod type (the package
// depends on nothing): a schema is any object, a field's value type is read from it by
// shape (Zod v4's `_zod.output`, v3's `_output`), and `registry` has the members of zod's
// $ZodRegistry, so Zod v4's `schema.register(registry, meta)` takes it.

/** The value a Zod schema parses to (v4 or v3), read by shape; `any` for anything else. */
export type ZodOutputOf<S> = S extends { _zod: { output: infer O } } ? O : S extends { _output: infer O } ? O : any;

/** What a field declares: a reducer (`fn(current, update)`, `schema` the update's), a default, JSON Schema extras. */
export interface SchemaMeta<TValue = any, TUpdate = TValue> {
  jsonSchemaExtra?: { langgraph_nodes?: string[]; langgraph_type?: 'prompt' | 'messages'; [key: string]: unknown };
  reducer?: { schema?: unknown; fn: (a: TValue, b: TUpdate) => TValue };
  default?: () => TValue;
}

/** A registry with zod's $ZodRegistry members; StateGraph reads the meta a field was given. */
export declare class LanggraphZodMetaRegistry {
  /** (Types only, as zod's: what register() checks a schema and its meta against.) */
  _meta: SchemaMeta & { [key: string]: unknown };
  _schema: any;
  _map: WeakMap<any, SchemaMeta & { [key: string]: unknown }>;
  _idmap: Map<string, any>;
  add(schema: object, meta?: SchemaMeta & { [key: string]: unknown }): this;
  clear(): this;
  remove(schema: object): this;
  get(schema: object): (SchemaMeta & { [key: string]: unknown }) | undefined;
  has(schema: object): boolean;
}

/** The registry StateGraph reads: `z.array(z.string()).register(registry, { reducer: { fn: (a, b) => a.concat(b) }, default: () => [] })`. */
export declare const registry: LanggraphZodMetaRegistry;

/** A field with a reducer: the schema itself, marked with its update's schema (as LangGraph's). */
export type ReducedZodChannel<TSchema, TReducerSchema = unknown> = TSchema & { lg_reducer_schema: TReducerSchema };

/** A field with a default and no reducer: the schema itself, recorded in `registry`. */
export declare function withLangGraph<TSchema extends object>(schema: TSchema, meta: SchemaMeta<ZodOutputOf<TSchema>> & { reducer?: undefined }): TSchema;
/** A field with a reducer (and a default): `withLangGraph(z.custom<Message[]>(), { reducer: { schema, fn }, default: () => [] })`. */
export declare function withLangGraph<TSchema extends object, TUpdate = ZodOutputOf<TSchema>>(schema: TSchema, meta: SchemaMeta<ZodOutputOf<TSchema>, TUpdate>): ReducedZodChannel<TSchema>;

/** The meta of a messages field: LangGraph's message reducer, `[]` by default. */
export declare const MessagesZodMeta: SchemaMeta<any[], any> & { jsonSchemaExtra: { langgraph_type: 'messages' }; [key: string]: unknown };

/** An object read by shape as StateGraph reads a Zod object: its `shape`, `extend` and `merge`. */
export interface ZodObjectLike<Shape extends object> {
  readonly shape: Shape;
  extend<More extends object>(shape: More): ZodObjectLike<Omit<Shape, keyof More> & More>;
  merge<Other extends { shape: object }>(other: Other): ZodObjectLike<Omit<Shape, keyof Other['shape']> & Other['shape']>;
}

/**
 * LangGraph's MessagesZodState: `{ messages }` with the message reducer and `[]` by default.
 * A stand-in read by shape (StateGraph, `.shape.messages` in a z.object, `.extend()`,
 * `.merge()`), not a zod object: zod cannot parse with it. Its field is typed `any`, so that a
 * z.object of zod v3 or v4 takes it.
 */
export declare const MessagesZodState: ZodObjectLike<{ messages: any }>;
