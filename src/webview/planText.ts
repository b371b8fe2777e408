/**
 * The plan at the end of a Plan answer, for the box the user edits before Act on this plan: the text
 * under the last heading that names a plan ("## Plan", "**Plan:**"), else the numbered list the answer
 * ends with, else the whole answer. Pure, so the unit tier tests it in plain Node.
 */

const planHeading = /^\s{0,3}(?:#{1,6}\s+.*\bplan\b.*|(?:\*\*|__)[^*_]*\bplan\b[^*_]*:?(?:\*\*|__):?)\s*$/i;
const numbered = /^\s{0,3}\d{1,3}[.)]\s/;

/** The plan section of `answer` (Markdown), trimmed. */
export function planSection(answer: string): string {
  const lines = answer.replace(/\r\n?/g, '\n').split('\n');
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    if (!planHeading.test(lines[index] ?? '')) continue;
    const below = lines
      .slice(index + 1)
      .join('\n')
      .trim();
    if (below !== '') return below;
  }
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  let start = -1;
  for (let index = end - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? '';
    if (numbered.test(line)) start = index;
    // Blank lines and indented lines continue a list item; anything else ends the list.
    else if (line.trim() !== '' && !/^\s+\S/.test(line)) break;
  }
  return (start >= 0 ? lines.slice(start, end).join('\n') : answer).trim();
}
