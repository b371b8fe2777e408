// Checks a tool call's arguments against its function's schema before anything runs. Hand-rolled for the
// small subset our schemas use (object, properties of type string/integer/number/boolean, required, enum,
// minimum): ajv would cost a compile per schema and a module load on the agent's hot path for no gain.
import type { ToolDefinition } from '../api/types';
import type { ToolArgs } from './toolTypes';
import { isRecord } from '../../shared/jsonObject';

/** The outcome: the arguments, or what is wrong with them in words the model can act on. */
export type ArgsCheck = { readonly ok: true; readonly args: ToolArgs } | { readonly ok: false; readonly problem: string };

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function matchesType(value: unknown, type: unknown): boolean {
  const actual = typeOf(value);
  if (Array.isArray(type)) return type.some((entry) => matchesType(value, entry));
  if (type === 'number') return actual === 'integer' || actual === 'number';
  if (type === 'object') return isRecord(value);
  return typeof type !== 'string' || actual === type;
}

/**
 * Parses `argumentsText` (the model's JSON) and checks it against `definition.parameters`. An empty
 * string counts as `{}` (some servers send no arguments for a function without parameters). Unknown
 * argument names are refused: the schemas leave out `additionalProperties: false` to save tokens, and a
 * misspelt optional argument would otherwise be ignored without the model ever knowing (unless the schema
 * says `additionalProperties: true` or gives one a schema, as another extension's tool may).
 */
export function checkArguments(definition: ToolDefinition, argumentsText: string): ArgsCheck {
  let value: unknown;
  const text = argumentsText.trim() === '' ? '{}' : argumentsText;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `The arguments are not valid JSON (${error instanceof Error ? error.message : String(error)}). Send a JSON object.` };
  }
  if (!isRecord(value)) return { ok: false, problem: `The arguments must be a JSON object, not ${typeOf(value)}.` };
  const schema = definition.parameters ?? {};
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'].filter((name): name is string => typeof name === 'string') : [];
  const problems: string[] = [];
  // Another extension's schema may allow more arguments than it lists; those go through unchecked.
  const additional = schema['additionalProperties'] === true || isRecord(schema['additionalProperties']);
  for (const name of required) if (value[name] === undefined) problems.push(`"${name}" is required`);
  for (const [name, argument] of Object.entries(value)) {
    const property = properties[name];
    if (!isRecord(property) && additional) continue;
    if (!isRecord(property)) {
      problems.push(
        `"${name}" is not an argument of ${definition.name} (it takes ${
          Object.keys(properties)
            .map((key) => `"${key}"`)
            .join(', ') || 'none'
        })`,
      );
      continue;
    }
    if (argument === null && !required.includes(name)) continue;
    if (!matchesType(argument, property['type'])) {
      problems.push(`"${name}" must be ${String(property['type'])}, not ${typeOf(argument)}`);
      continue;
    }
    const allowed = property['enum'];
    if (Array.isArray(allowed) && !allowed.includes(argument))
      problems.push(`"${name}" must be one of ${allowed.map((entry) => JSON.stringify(entry)).join(', ')}`);
    const minimum = property['minimum'];
    if (typeof minimum === 'number' && typeof argument === 'number' && argument < minimum) problems.push(`"${name}" must be at least ${minimum}`);
  }
  if (problems.length > 0) return { ok: false, problem: `Invalid arguments for ${definition.name}: ${problems.join('; ')}.` };
  // null for an optional argument means "not given".
  const args: Record<string, unknown> = {};
  for (const [name, argument] of Object.entries(value)) if (argument !== null) args[name] = argument;
  return { ok: true, args };
}
