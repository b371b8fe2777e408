// Field checks shared by every operation, each with the real status/type/code/param and message
// wording (docs/service.md#error-codes; OpenAI's wording where SambaNova copies it).
import { invalidRequest } from './errors';

/** A JSON object body (a record). */
export type Json = Record<string, unknown>;

/** Narrows to a plain JSON object. */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type name used in "expected X, but got Y" messages. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a decimal';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** Throws invalid_type. */
export function invalidType(param: string, expected: string, value: unknown): never {
  throw invalidRequest(`Invalid type for '${param}': expected ${expected}, but got ${jsonTypeName(value)} instead.`, param, 'invalid_type');
}

/** Throws missing_required_parameter. */
export function missing(param: string): never {
  throw invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

/** An optional decimal within [min, max]; null counts as absent. */
export function optionalDecimal(body: Json, param: string, min: number, max: number): number | undefined {
  const value = body[param];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return invalidType(param, 'a decimal', value);
  if (value > max) {
    throw invalidRequest(
      `Decimal above maximum value. Expected a value between ${min} and ${max}, but got ${value} instead.`,
      param,
      'decimal_above_max_value',
    );
  }
  if (value < min) {
    throw invalidRequest(
      `Decimal below minimum value. Expected a value between ${min} and ${max}, but got ${value} instead.`,
      param,
      'decimal_below_min_value',
    );
  }
  return value;
}

/** An optional integer within [min, max]; null counts as absent. */
export function optionalInteger(body: Json, param: string, min: number, max: number): number | undefined {
  const value = body[param];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) return invalidType(param, 'an integer', value);
  if (value > max) {
    throw invalidRequest(
      `Integer above maximum value. Expected a value between ${min} and ${max}, but got ${value} instead.`,
      param,
      'integer_above_max_value',
    );
  }
  if (value < min) {
    throw invalidRequest(
      `Integer below minimum value. Expected a value between ${min} and ${max}, but got ${value} instead.`,
      param,
      'integer_below_min_value',
    );
  }
  return value;
}

/** An optional boolean; null counts as absent. */
export function optionalBoolean(body: Json, param: string): boolean | undefined {
  const value = body[param];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') return invalidType(param, 'a boolean', value);
  return value;
}

/** `stop`: a string, an array of at most 4 strings, or null (the spec's limit). */
export function stopSequences(body: Json): string[] {
  const value = body['stop'];
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return invalidType('stop', 'a string or an array of strings', value);
  if (value.length > 4) {
    throw invalidRequest(
      `Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length ${value.length} instead.`,
      'stop',
      'array_above_max_length',
    );
  }
  return value.map((entry, i) => (typeof entry === 'string' ? entry : invalidType(`stop[${i}]`, 'a string', entry)));
}
