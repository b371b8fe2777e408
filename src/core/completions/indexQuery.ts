// What to look up in the local index for a completion: the identifiers around the cursor. The lookup is
// keyword-only (BM25 and exact identifiers over the index's chunks): no query embedding, so no request to
// the service and nothing spent per completion, and a name the user is calling finds where it is defined.

const KEYWORDS = new Set([
  'abstract',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'boolean',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'def',
  'default',
  'del',
  'delete',
  'do',
  'elif',
  'else',
  'enum',
  'except',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'from',
  'func',
  'function',
  'global',
  'if',
  'implements',
  'import',
  'in',
  'instanceof',
  'interface',
  'is',
  'lambda',
  'let',
  'new',
  'none',
  'nonlocal',
  'not',
  'null',
  'number',
  'or',
  'pass',
  'private',
  'protected',
  'public',
  'raise',
  'readonly',
  'return',
  'self',
  'static',
  'string',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'type',
  'typeof',
  'undefined',
  'var',
  'void',
  'while',
  'with',
  'yield',
]);

/**
 * The index query for a cursor: distinct identifiers of the last `lines` lines before the cursor (nearest
 * first) and of the rest of the cursor's line, without keywords and one-letter names; '' when there are none.
 */
export function indexQueryFor(prefix: string, suffix: string, lines = 6, maxTerms = 12): string {
  const before = prefix.split('\n').slice(-lines).reverse();
  const after = suffix.split('\n', 1)[0] ?? '';
  const terms: string[] = [];
  for (const line of [before[0] ?? '', after, ...before.slice(1)]) {
    for (const match of line.matchAll(/[A-Za-z_$][\w$]*/g)) {
      const word = match[0];
      if (word.length < 2 || KEYWORDS.has(word.toLowerCase()) || terms.includes(word)) continue;
      terms.push(word);
      if (terms.length >= maxTerms) return terms.join(' ');
    }
  }
  return terms.join(' ');
}
