/**
 * Builds the quoted context block that "Add selection to chat" puts into the composer, and places text
 * (a block, or a transcript) into a draft at the caret. Pure (no DOM): unit-tested in plain Node.
 */

/** A label line and a fenced code block long enough that the text cannot close it early. */
export function contextBlock(label: string, text: string, language: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const info = /^[\w+#.-]*$/.test(language) ? language : '';
  return `${label}:\n${fence}${info}\n${body}${fence}\n`;
}

/** Inserts a block into a draft at the caret, with a blank line on either side when needed. */
export function insertBlock(draft: string, caret: number, block: string): { readonly text: string; readonly caret: number } {
  const at = Math.min(Math.max(0, caret), draft.length);
  const before = draft.slice(0, at);
  const after = draft.slice(at);
  const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail = after === '' ? '\n' : after.startsWith('\n') ? '' : '\n';
  const inserted = `${lead}${block}${trail}`;
  return { text: `${before}${inserted}${after}`, caret: before.length + inserted.length };
}

/**
 * Puts running text (a transcript) into a draft in place of the selection `start`..`end` (the caret when
 * they are equal), with a space on either side where it would otherwise run into a word.
 */
export function insertInline(draft: string, start: number, end: number, text: string): { readonly text: string; readonly caret: number } {
  const from = Math.min(Math.max(0, start), draft.length);
  const to = Math.min(Math.max(from, end), draft.length);
  const before = draft.slice(0, from);
  const after = draft.slice(to);
  const words = text.trim();
  const lead = before === '' || /\s$/.test(before) ? '' : ' ';
  const trail = after === '' || /^\s/.test(after) ? '' : ' ';
  const inserted = `${lead}${words}${trail}`;
  return { text: `${before}${inserted}${after}`, caret: before.length + lead.length + words.length };
}
