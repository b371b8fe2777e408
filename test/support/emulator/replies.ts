// What the emulator "generates": the deterministic default reply, JSON that satisfies a schema,
// tool-call arguments, and the splitting of text into streamed pieces.
import { tokenPieces } from './tokens';

/** The default reply: quotes the prompt so tests can see which message was answered. */
export function defaultReply(prompt: string): string {
  const words = prompt.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return 'Hello from the Cadenza emulator. Ask me anything and I will answer deterministically. Nothing here comes from a real model.';
  // Trailing punctuation is dropped so the quote does not end in "?." .
  const head =
    words
      .slice(0, 30)
      .join(' ')
      .replace(/[.?!,;:]+$/u, '') + (words.length > 30 ? ' …' : '');
  return (
    `You asked: ${head}. ` +
    'This is a deterministic answer from the Cadenza emulator. ' +
    'It is long enough to arrive in several chunks when streamed. ' +
    'Nothing here comes from a real model.'
  );
}

/** Extends `text` with numbered filler words until it has at least `tokens` tokens (for huge chunkCount benchmarks). */
export function padToTokens(text: string, tokens: number): string {
  const have = tokenPieces(text).length;
  if (have >= tokens) return text;
  const extra: string[] = [];
  for (let i = have; i < tokens; i++) extra.push(` w${i % 1000}`);
  return text + extra.join('');
}

/** Splits text into streamed pieces: several tokens each by default, or exactly `count` pieces. */
export function splitPieces(text: string, count?: number): string[] {
  if (text === '') return count === undefined ? [] : Array.from({ length: count }, () => '');
  const pieces = tokenPieces(text);
  const joined = pieces.join('');
  // tokenPieces always reproduces the text; the guard keeps a future regex change from losing text.
  const source = joined === text ? pieces : [...text];
  if (count === undefined) {
    const out: string[] = [];
    for (let i = 0; i < source.length; i += 3) out.push(source.slice(i, i + 3).join(''));
    return out;
  }
  const units = source.length >= count ? source : [...text];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    // Spread units evenly; with fewer characters than chunks some pieces are empty (still valid deltas).
    const from = Math.floor((i * units.length) / count);
    const to = Math.floor(((i + 1) * units.length) / count);
    out.push(units.slice(from, to).join(''));
  }
  return out;
}

/** Cuts text before the first stop sequence, if any occurs. */
export function applyStop(text: string, stops: readonly string[]): { text: string; stopped: boolean } {
  let cut = -1;
  for (const stop of stops) {
    if (stop === '') continue;
    const at = text.indexOf(stop);
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  return cut < 0 ? { text, stopped: false } : { text: text.slice(0, cut), stopped: true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value satisfying a simple JSON Schema (type string/number/integer/boolean/array/object/null,
 * required, enum, const, anyOf/oneOf, min/max). `$ref` and pattern are not supported.
 */
export function valueForSchema(schema: unknown, name = 'value', depth = 0, onlyRequired = false): unknown {
  if (!isRecord(schema) || depth > 8) return null;
  if ('const' in schema) return schema['const'];
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0) return enumValues[0];
  const alternatives = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(alternatives) && alternatives.length > 0) return valueForSchema(alternatives[0], name, depth + 1, onlyRequired);
  const rawType = schema['type'];
  const type = Array.isArray(rawType) ? (rawType.find((t) => t !== 'null') ?? 'null') : rawType;
  const num = (key: string): number | undefined => (typeof schema[key] === 'number' ? schema[key] : undefined);
  switch (type) {
    case 'string': {
      const text = `example ${name}`;
      const min = num('minLength') ?? 0;
      const max = num('maxLength') ?? Infinity;
      return text.padEnd(min, 'x').slice(0, max);
    }
    case 'integer':
    case 'number': {
      const exclusive = num('exclusiveMinimum');
      const fallback = type === 'integer' ? 1 : 1.5;
      const low = num('minimum') ?? (exclusive === undefined ? fallback : exclusive + (type === 'integer' ? 1 : 0.5));
      const value = Math.min(low, num('maximum') ?? low);
      return type === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const length = Math.max(num('minItems') ?? 1, 1);
      const capped = Math.min(length, num('maxItems') ?? length);
      return Array.from({ length: capped }, (_, i) => valueForSchema(schema['items'], `${name} ${i + 1}`, depth + 1, onlyRequired));
    }
    case 'object':
    default: {
      const properties = isRecord(schema['properties']) ? schema['properties'] : {};
      const required = Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : [];
      const keys = onlyRequired ? required : [...new Set([...Object.keys(properties), ...required])];
      const out: Record<string, unknown> = {};
      for (const key of keys) out[key] = valueForSchema(properties[key] ?? { type: 'string' }, key, depth + 1, onlyRequired);
      return out;
    }
  }
}

/** The arguments object for an unscripted tool call: exactly the required parameters. */
export function argumentsForTool(parameters: unknown): Record<string, unknown> {
  const value = valueForSchema(isRecord(parameters) ? parameters : { type: 'object' }, 'argument', 0, true);
  return isRecord(value) ? value : {};
}
