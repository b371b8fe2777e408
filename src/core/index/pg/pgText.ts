import { tokenize } from '../tokenize';

// Lexemes come from Cadenza's own tokenizer (identifier-aware, the same as the local BM25), not from
// a PostgreSQL text-search configuration, so both indexes split `parseHttpRequest` the same way.
// They travel as tsvector/tsquery *values* in parameters, never as SQL.

const quote = (lexeme: string): string => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const MAX_POSITION = 16383;

/** A chunk's text as a tsvector literal with each token's positions (term frequency for ts_rank). */
export function tsvectorLiteral(text: string): string {
  const positions = new Map<string, number[]>();
  tokenize(text).forEach((token, i) => {
    let list = positions.get(token);
    if (!list) positions.set(token, (list = []));
    if (list.length < 256) list.push(Math.min(i + 1, MAX_POSITION));
  });
  return [...positions].map(([token, list]) => `${quote(token)}:${[...new Set(list)].join(',')}`).join(' ');
}

/** A tsquery literal matching any of the lexemes; undefined for none. */
export function anyOfQuery(lexemes: readonly string[]): string | undefined {
  const unique = [...new Set(lexemes)];
  return unique.length === 0 ? undefined : unique.map(quote).join(' | ');
}

/** A tsquery literal matching chunks holding all of the lexemes; undefined for none. */
export function allOfQuery(lexemes: readonly string[]): string | undefined {
  const unique = [...new Set(lexemes)];
  return unique.length === 0 ? undefined : unique.map(quote).join(' & ');
}

/** One lexeme as a tsquery literal. */
export function lexemeQuery(lexeme: string): string {
  return quote(lexeme);
}

/** pgvector's text form of a vector. */
export function vectorLiteral(vector: ArrayLike<number>): string {
  return `[${Array.from(vector, (x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;
}

/** PostgreSQL text cannot hold NUL characters; a chunk's text keeps everything else. */
export function pgText(text: string): string {
  return text.includes('\u0000') ? text.split('\u0000').join('\uFFFD') : text;
}
