/**
 * The text a chunk is embedded and keyword-indexed with. A chunk cut from the middle of a method
 * otherwise carries no word saying which class or function it belongs to, nor which file, and a
 * question in plain words ("how is the bearer token created?") often matches those names better than
 * the body (bench/retrieval/retrievalQuestions.ts, docs/decisions/0002-retrieval-text-and-tokens.md).
 *
 * - Embedded (and keyword-indexed): a header line with the declarations enclosing the chunk, outermost
 *   first (`BearerToken > create_token`), then the chunk's lines. The header is part of the chunk's
 *   text and so of its hash: a vector embedded with one header is never reused for another. It depends
 *   only on the file's content, so a renamed or copied file still reuses every vector.
 * - Keyword-indexed only: the file's path, before all that (`keywordDocuments`). The keyword index is
 *   rebuilt from the files each session, so a rename costs nothing there either.
 *
 * Line numbers stay those of the file.
 */
import { estimateTokens, type TextChunk } from './chunker';
import { contentHash } from './hashing';

/** A declaration and its name: `def x`, `class X`, `function x`, `fn x`, `interface X`, `const x = (…) =>`, ... */
const DECLARATION =
  /^(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|internal|static|abstract|final|sealed|async|declare|override|virtual|partial|open|data|suspend|unsafe|extern|inline)\s+)*(?:def|class|function\*?|interface|enum|struct|trait|impl|fn|func|module|namespace|object|record|type)\s+([A-Za-z_$][\w$]*)/;
const ARROW =
  /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/;
/** A Go method `func (r *T) Name(` names its receiver first. */
const GO_METHOD = /^func\s+\([^)]*\)\s+([A-Za-z_]\w*)/;
/** A method of a class in TypeScript, JavaScript, Java, C#, ...: `async save(path: string): Promise<void> {`. */
const METHOD =
  /^(?:(?:public|private|protected|internal|static|abstract|final|async|override|virtual|get|set)\s+)*(?!(?:if|for|while|switch|catch|with|return|else|do|try|new|await|function)\b)([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\([^;]*\)\s*(?::\s*[^{;]+)?\{\s*$/;

function declaredName(trimmed: string): string | undefined {
  const m = GO_METHOD.exec(trimmed) ?? DECLARATION.exec(trimmed) ?? ARROW.exec(trimmed) ?? METHOD.exec(trimmed);
  return m?.[1];
}

/**
 * The names of the declarations enclosing each of the 1-based `starts` of `lines` (outermost first), in
 * one pass, found by indentation: a declaration encloses the lines after it that are indented deeper
 * than it, up to the first line of text at its own depth or shallower. Blank lines do not count.
 */
export function enclosingDeclarations(lines: readonly string[], starts: readonly number[]): string[][] {
  const order = starts.map((line, at) => ({ line, at })).sort((a, b) => a.line - b.line);
  const out: string[][] = starts.map(() => []);
  const stack: { indent: number; name: string }[] = [];
  let i = 0;
  for (const { line, at } of order) {
    for (; i < Math.min(line - 1, lines.length); i++) {
      const raw = lines[i] ?? '';
      const trimmed = raw.trimStart();
      if (trimmed === '') continue;
      const indent = raw.length - trimmed.length;
      while (stack.length > 0 && (stack[stack.length - 1]?.indent ?? 0) >= indent) stack.pop();
      const name = declaredName(trimmed);
      if (name) stack.push({ indent, name });
    }
    out[at] = stack.map((s) => s.name);
  }
  return out;
}

/**
 * `chunks` of a file (`text` is the whole file), each with a header line naming the declarations it
 * sits in put before its text, and its hash and token estimate updated; a chunk outside any declaration
 * is unchanged. With `path`, the header starts with it (the bench measures that variant; the index does
 * not embed paths, see the module comment).
 */
export function withContext(text: string, chunks: readonly TextChunk[], path?: string): TextChunk[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const enclosing = enclosingDeclarations(
    lines,
    chunks.map((c) => c.startLine),
  );
  return chunks.map((c, i) => {
    const names = enclosing[i] ?? [];
    if (names.length === 0 && path === undefined) return c;
    const header = [...(path === undefined ? [] : [path]), ...names].join(' > ');
    const full = `${header}\n${c.text}`;
    return { ...c, text: full, hash: contentHash(full), tokens: c.tokens + estimateTokens(header) };
  });
}

/**
 * The chunks of the file at `path` (relative to its folder or repository) as the keyword index takes
 * them: the path on a line of its own before each chunk's text, so words of the path ("tokens",
 * "revocation") find the file's chunks.
 */
export function keywordDocuments<T extends { readonly startLine: number; readonly endLine: number; readonly text: string }>(
  path: string,
  chunks: readonly T[],
): { startLine: number; endLine: number; text: string }[] {
  return chunks.map((c) => ({ startLine: c.startLine, endLine: c.endLine, text: `${path}\n${c.text}` }));
}
