import Ajv from 'ajv';

/** The outcome of checking a JSON-mode answer. */
export interface JsonCheck {
  readonly valid: boolean;
  /** The answer pretty-printed, when it parses. */
  readonly pretty?: string;
  /** What is wrong: a parse error, or each schema mismatch with its path. */
  readonly problems: readonly string[];
}

/** Models sometimes wrap JSON in a Markdown fence even in JSON mode; accept that. */
function unfence(text: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n```\s*$/.exec(text);
  return match?.[1] ?? text;
}

/**
 * Parses a JSON-mode answer and, when a schema is given, validates it with Ajv (draft-07 and the
 * common keywords of later drafts; unknown keywords are tolerated so user schemas are not refused).
 */
export function checkJsonAnswer(text: string, schema?: Record<string, unknown>): JsonCheck {
  let value: unknown;
  try {
    value = JSON.parse(unfence(text));
  } catch (error) {
    return { valid: false, problems: [`The answer is not valid JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const pretty = JSON.stringify(value, null, 2);
  if (!schema) return { valid: true, pretty, problems: [] };
  const ajv = new Ajv({ allErrors: true, strict: false });
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    return { valid: false, pretty, problems: [`The schema itself is invalid: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (validate(value)) return { valid: true, pretty, problems: [] };
  const problems = (validate.errors ?? []).map((issue) => `${issue.instancePath || '(root)'} ${issue.message ?? 'does not match'}`);
  return { valid: false, pretty, problems };
}
