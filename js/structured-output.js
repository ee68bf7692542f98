// structured-output.js: replies that must be JSON of a given schema. The
// schema (JSON Schema or a Standard Schema) becomes what a provider's strict
// mode accepts, the request carries it as `responseFormat`, and the reply is
// parsed and checked against the original schema by its own validator.
//
// OpenAI's strict mode (Structured Outputs) accepts a subset of JSON Schema
// and refuses a request otherwise: every object lists all its properties in
// `required` and has `additionalProperties: false` ("'additionalProperties'
// is required to be supplied and to be false", "'required' is required to be
// supplied and to be an array including every key in properties"); the root
// is an object; allOf, not, if/then/else, dependent* and patternProperties
// are not supported. So here an optional property becomes required and
// nullable (a null in the reply is dropped again before validation), oneOf
// becomes anyOf, constraints strict mode does not take (minLength,
// uniqueItems, ...) leave the sent schema but are still enforced locally,
// and what cannot be expressed is a typed error naming the path.

import { EdgegraphError } from './errors.js';
import { check, jsonSchemaOf } from './standard-schema.js';

// Kept out of the schema sent in strict mode; the local validation still applies them.
const LOCAL_ONLY = ['minLength', 'maxLength', 'uniqueItems', 'minProperties', 'maxProperties', 'contains', 'minContains', 'maxContains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'default', 'examples', '$schema', '$id'];
const REFUSED = ['allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'patternProperties'];
const FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];

const isObjectSchema = (s) => s?.type === 'object' || (Array.isArray(s?.type) && s.type.includes('object')) || (s?.properties !== undefined && s?.type === undefined);

/** `schema` also accepting null: the way strict mode spells an optional property. */
function nullable(schema) {
  if (typeof schema.type === 'string' && !schema.enum) return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type) && !schema.enum) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** The strict-mode form of a JSON Schema; `where` names the response format, `path` the place. */
export function strictSchema(schema, where, path = '$') {
  if (schema === true || schema === undefined) throw new EdgegraphError('INVALID_DEFINITION', `${where}: ${path} accepts any value, which strict mode cannot express; give it a type`);
  if (typeof schema !== 'object' || schema === null) throw new EdgegraphError('INVALID_DEFINITION', `${where}: ${path} is not a schema`);
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (REFUSED.includes(key)) throw new EdgegraphError('INVALID_DEFINITION', `${where}: ${path} uses '${key}', which OpenAI's strict mode does not support; rewrite it, or pass strict: false`);
    if (LOCAL_ONLY.includes(key) || (key === 'format' && !FORMATS.includes(value))) continue;
    if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value).map(([k, s]) => [k, strictSchema(s, where, `${path}.${k}`)]));
    else if (key === 'items') out.items = strictSchema(value, where, `${path}[]`);
    else if (key === 'anyOf' || key === 'oneOf') out.anyOf = value.map((s, i) => strictSchema(s, where, `${path}.${key}[${i}]`));
    else if (key === '$defs' || key === 'definitions') out[key] = Object.fromEntries(Object.entries(value).map(([k, s]) => [k, strictSchema(s, where, `${path}.${key}.${k}`)]));
    else out[key] = value;
  }
  if (isObjectSchema(schema)) {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
      throw new EdgegraphError('INVALID_DEFINITION', `${where}: ${path} allows additional properties (a record), which OpenAI's strict mode does not support; list the properties`);
    }
    const props = out.properties ?? {};
    const required = new Set(schema.required ?? []);
    for (const [k, s] of Object.entries(props)) if (!required.has(k)) props[k] = nullable(s);
    out.properties = props;
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  return out;
}

/** Drop the nulls strict mode put for optional properties, so the original schema sees them absent. */
function dropNullOptionals(schema, value) {
  if (Array.isArray(value)) return schema?.items && typeof schema.items === 'object' ? value.map((v) => dropNullOptionals(schema.items, v)) : value;
  if (value === null || typeof value !== 'object' || !schema?.properties) return value;
  const required = new Set(schema.required ?? []);
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null && !required.has(k) && Object.hasOwn(schema.properties, k)) continue;
    out[k] = Object.hasOwn(schema.properties, k) ? dropNullOptionals(schema.properties[k], v) : v;
  }
  return out;
}

/**
 * A response format from { name, schema, jsonSchema?, strict? } (strict by
 * default): `request` is what the client sends ({ name, schema, strict }),
 * `parse(text, node)` the checked value or a STRUCTURED_OUTPUT_INVALID error.
 */
export function responseFormat(config) {
  const { name, schema, jsonSchema, strict = true, description } = config ?? {};
  const where = `responseFormat '${name}'`;
  if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name)) throw new EdgegraphError('INVALID_DEFINITION', `a responseFormat needs a name of 1-64 letters, digits, _ or - (got ${JSON.stringify(name)})`);
  if (schema === undefined || schema === null) throw new EdgegraphError('INVALID_DEFINITION', `${where} needs a schema`);
  const described = jsonSchemaOf(schema, jsonSchema, where);
  if (strict && !isObjectSchema(described)) throw new EdgegraphError('INVALID_DEFINITION', `${where}: the root of a strict schema must be an object (got ${JSON.stringify(described?.type)})`);
  const request = { name, schema: strict ? strictSchema(described, where) : described, strict, ...(description ? { description } : {}) };
  async function parse(text, node) {
    const fail = (message) => Object.assign(new EdgegraphError('STRUCTURED_OUTPUT_INVALID', `node '${node}': the reply for ${name} ${message}`, { node }), { text });
    if (typeof text !== 'string') throw fail('has no text (the model may have refused)');
    let value;
    // Providers without a strict mode (a schema in the prompt) may fence the JSON as Markdown.
    const body = text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
    try { value = JSON.parse(body); } catch (e) { throw fail(`is not JSON (${e.message})`); }
    if (strict) value = dropNullOptionals(described, value);
    const checked = await check(schema, value);
    if (checked.problems) throw fail(`does not fit the schema: ${checked.problems.join('; ')}`);
    return checked.value;
  }
  return { request, parse };
}
