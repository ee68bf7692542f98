// standard-schema.js: one way to check a value and to describe it to a model,
// whether the schema is plain JSON Schema or a Standard Schema object (Zod,
// Valibot, ArkType...: anything with a `~standard` property, version 1). A
// Standard Schema validates with its own validator (possibly async); its
// JSON Schema comes from the library's own conversion: the Standard JSON
// Schema interface (`~standard.jsonSchema.input`), or a schema's own
// toJSONSchema() (Zod 4), or a `jsonSchema` the user gives beside it. No
// library is imported: they are recognised by shape.

import { validate } from './schema.js';
import { EdgegraphError } from './errors.js';

export const isStandardSchema = (s) => s !== null && (typeof s === 'object' || typeof s === 'function') && typeof s['~standard']?.validate === 'function';

/** A Standard Schema issue's path ([key, { key }, ...]) as `$.a[0].b`, like schema.js names paths. */
function pathOf(issue) {
  let out = '$';
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return out;
}

/**
 * Check `value` against `schema`: { value } (the schema's output: a Standard
 * Schema may transform or fill defaults) or { problems: ['$.path: what', ...] }.
 * Synchronous for JSON Schema, a promise when the Standard Schema is async.
 */
export function check(schema, value) {
  if (!isStandardSchema(schema)) {
    const problems = validate(schema ?? { type: 'object' }, value);
    return problems.length ? { problems } : { value };
  }
  const outcome = schema['~standard'].validate(value);
  const read = (r) => (r.issues ? { problems: r.issues.map((i) => `${pathOf(i)}: ${i.message}`) } : { value: r.value });
  return typeof outcome?.then === 'function' ? outcome.then(read) : read(outcome);
}

/**
 * The JSON Schema to send to a model for `schema` (JSON Schema as given; a
 * Standard Schema converted by its library). `given` is a JSON Schema the
 * user put beside a schema whose library has no conversion; `what` names
 * the tool or response format in errors.
 */
export function jsonSchemaOf(schema, given, what) {
  if (given !== undefined) return given;
  if (!isStandardSchema(schema)) return schema;
  const std = schema['~standard'];
  let converted;
  try {
    if (typeof std.jsonSchema?.input === 'function') converted = std.jsonSchema.input({ target: 'draft-2020-12' });
    else if (typeof schema.toJSONSchema === 'function') converted = schema.toJSONSchema();
  } catch (e) {
    throw new EdgegraphError('INVALID_DEFINITION', `${what}: the ${std.vendor} schema cannot be converted to JSON Schema (${e?.message ?? e}); pass \`jsonSchema\` beside it`);
  }
  if (converted === undefined) {
    throw new EdgegraphError('INVALID_DEFINITION', `${what}: ${std.vendor} schemas have no JSON Schema conversion edgegraph can call; pass the JSON Schema as \`jsonSchema\` beside it (for Valibot: toJsonSchema() of @valibot/to-json-schema)`);
  }
  // A meta-schema URI is noise to a model, and some providers refuse it.
  const { $schema, ...rest } = converted;
  return rest;
}
