/**
 * How a message from the webview is declared: one valibot object schema keyed on `type`, so one
 * declaration gives both the message's TypeScript type and its run-time check (the webview is untrusted
 * input). A request also names the message that answers it, as GitLens's `IpcRequest<P, R>` and
 * Continue's `[request, response]` do; the host's router posts what its handler returns as that answer.
 * Why valibot and not a checker of our own: ARCHITECTURE.md, "Dependencies and why".
 */
import * as v from 'valibot';

/** A message the webview sends that has no answer of its own. */
export function message<const T extends string, const E extends v.ObjectEntries>(
  type: T,
  entries: E,
): v.ObjectSchema<{ readonly type: v.LiteralSchema<T, undefined> } & E, undefined> {
  return v.object({ type: v.literal(type), ...entries });
}

/** A request: a message whose answer is the host's message `reply` (or, when it cannot answer, a notice). */
export function request<const T extends string, const E extends v.ObjectEntries, const R extends string>(
  type: T,
  entries: E,
  reply: R,
): ReturnType<typeof message<T, E>> & { readonly reply: R } {
  return Object.assign(message(type, entries), { reply });
}

/**
 * An optional field: absent, or present and valid. A present `undefined` is accepted too (structured
 * cloning keeps such a key), yet the type says "absent or T" like the protocol's interfaces, which the
 * strictest tsconfig's `exactOptionalPropertyTypes` tells apart.
 */
export function optional<const S extends v.GenericSchema>(schema: S): v.ExactOptionalSchema<S, undefined> {
  return v.optional(schema) as unknown as v.ExactOptionalSchema<S, undefined>;
}

/** A plain object: an array is an object too, and an object schema would take one whose fields are all optional. */
const plainObject = v.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value));

/** A nested object of known fields (never an array). */
export function record<const E extends v.ObjectEntries>(entries: E): v.SchemaWithPipe<readonly [typeof plainObject, v.ObjectSchema<E, undefined>]> {
  return v.pipe(plainObject, v.object(entries));
}

/** Any string. */
export const text = v.string();

/** A string of at most `max` characters. */
export function shortText(max: number): v.SchemaWithPipe<readonly [v.StringSchema<undefined>, v.MaxLengthAction<string, number, undefined>]> {
  return v.pipe(v.string(), v.maxLength(max));
}

/** A finite number (what a user's option or a limit can be). */
export const finite = v.pipe(v.number(), v.finite());

/** A token the host issued (an attached audio file, a mention): short and plain, so nothing else rides in its place. */
export const hostToken = v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,64}$/));

/** A read-only list of at most `max` items. */
export function list<const S extends v.GenericSchema>(
  item: S,
  max: number,
): v.SchemaWithPipe<readonly [v.ArraySchema<S, undefined>, v.MaxLengthAction<v.InferOutput<S>[], number, undefined>, v.ReadonlyAction<v.InferOutput<S>[]>]> {
  return v.pipe(v.array(item), v.maxLength(max), v.readonly());
}
