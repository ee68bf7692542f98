// schema.js: the JSON Schema subset tools use for their parameters: type,
// properties, required, additionalProperties, items, enum, const, min/max
// (length, items, value), pattern, anyOf, oneOf, allOf. Returns a list of
// problems, each naming the path; empty when the value fits.

import { hasOwn } from './objects.js';

const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

function fits(type, v) {
  const t = typeOf(v);
  return type === t || (type === 'number' && t === 'integer');
}

export function validate(schema, value, path = '$') {
  if (schema === true || schema === undefined || schema === null) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  const problems = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => fits(t, value))) return [`${path}: expected ${types.join(' or ')}, got ${typeOf(value)}`];
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) problems.push(`${path}: must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) problems.push(`${path}: must be ${JSON.stringify(schema.const)}`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path}: must be <= ${schema.maximum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) problems.push(`${path}: must be > ${schema.exclusiveMinimum}`);
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) problems.push(`${path}: must be < ${schema.exclusiveMaximum}`);
  }
  if (typeof value === 'string') {
    const n = [...value].length;
    if (schema.minLength !== undefined && n < schema.minLength) problems.push(`${path}: must have at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && n > schema.maxLength) problems.push(`${path}: must have at most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) problems.push(`${path}: must match ${schema.pattern}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${path}: must have at least ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push(`${path}: must have at most ${schema.maxItems} items`);
    if (schema.items && typeof schema.items === 'object') value.forEach((v, i) => problems.push(...validate(schema.items, v, `${path}[${i}]`)));
  }
  if (typeOf(value) === 'object') {
    const props = schema.properties ?? {};
    for (const key of schema.required ?? []) if (!hasOwn(value, key)) problems.push(`${path}.${key}: is required`);
    for (const [key, v] of Object.entries(value)) {
      if (hasOwn(props, key)) problems.push(...validate(props[key], v, `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key}: is not an allowed property`);
      else if (typeof schema.additionalProperties === 'object') problems.push(...validate(schema.additionalProperties, v, `${path}.${key}`));
    }
  }
  if (schema.allOf) for (const s of schema.allOf) problems.push(...validate(s, value, path));
  if (schema.anyOf && !schema.anyOf.some((s) => validate(s, value, path).length === 0)) problems.push(`${path}: matches none of anyOf`);
  if (schema.oneOf && schema.oneOf.filter((s) => validate(s, value, path).length === 0).length !== 1) problems.push(`${path}: must match exactly one of oneOf`);
  return problems;
}
