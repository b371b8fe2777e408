// The front matter of a prompt file, read without a YAML library. Copilot's prompt files use a flat block of
// `key: value` lines and simple lists (`tools: [a, b]` or `- item` lines under the key), so that is what is
// read: plain, quoted and commented values. Anything richer (nested maps, `|` and `>` blocks, anchors) is
// refused with its line rather than half-read, so a user never runs a prompt whose settings were misread.
import { PromptError, type PromptFault } from './promptError';

/** A front matter value: one string, or a list of them. */
export type FrontMatterValue = string | readonly string[];

/** What `readFrontMatter` found. */
export interface FrontMatter {
  readonly fields: Readonly<Record<string, FrontMatterValue>>;
  /** The 1-based line of each field's key (for messages about a value). */
  readonly lines: Readonly<Record<string, number>>;
  /** The text after the front matter (all of it when there is none), trimmed. */
  readonly body: string;
  /** The 1-based line of the file where the body starts. */
  readonly bodyLine: number;
}

const keyLine = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s+(.*))?$/;
const listItem = /^\s+-(?:\s+(.*))?$/;

/** A scalar without its quotes or trailing comment; undefined when a quote is left open. */
function scalar(raw: string): string | undefined {
  const text = raw.trim();
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const end = text.lastIndexOf(quote);
    if (end === 0) return undefined;
    const rest = text.slice(end + 1).trim();
    if (rest !== '' && !rest.startsWith('#')) return undefined;
    const inner = text.slice(1, end);
    return quote === "'" ? inner.replace(/''/g, "'") : inner.replace(/\\(["\\])/g, '$1');
  }
  // A comment starts at ` #` (a `#` inside a word, as in `C#`, is text).
  const comment = text.search(/\s#/);
  return (comment >= 0 ? text.slice(0, comment) : text).trim();
}

/** `[a, "b"]` as its items; undefined when an item's quote is left open. */
function inlineList(raw: string): string[] | undefined {
  const inner = raw.trim().slice(1, -1).trim();
  if (inner === '') return [];
  const items = inner.split(',').map(scalar);
  return items.every((item): item is string => item !== undefined) ? items.filter((item) => item !== '') : undefined;
}

/** A front matter error on `line` (the English message is for the log; the user reads the host's words for `fault`). */
function refused(line: number, fault: PromptFault, message: string): PromptError {
  return new PromptError('frontMatter', fault, `Line ${line}: ${message}`, { line });
}

/**
 * Splits a prompt file into its front matter fields and its body. Front matter is present only when the
 * first line is `---`; it ends at the next `---` line. Throws a `PromptError` (`frontMatter`, with the line)
 * for a line it cannot read, a key given twice, a block that never closes or a multi-line value.
 */
export function readFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return { fields: {}, lines: {}, body: text.replace(/^\uFEFF/, '').trim(), bodyLine: 1 };
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  if (close < 0)
    throw new PromptError('frontMatter', { kind: 'unclosed' }, 'The front matter opened on line 1 never closes: end it with a line holding only ---.', {
      line: 1,
    });
  const fields: Record<string, FrontMatterValue> = {};
  const keyLines: Record<string, number> = {};
  let listKey: string | undefined;
  for (let index = 1; index < close; index += 1) {
    const line = lines[index] ?? '';
    const lineNumber = index + 1;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = listItem.exec(line);
    if (item) {
      const value = scalar(item[1] ?? '');
      if (listKey === undefined) throw refused(lineNumber, { kind: 'itemWithoutKey' }, 'a list item without its key (write `key:` on the line above).');
      if (value === undefined) throw refused(lineNumber, { kind: 'openQuote', inList: false }, 'a quote is left open.');
      const list = fields[listKey];
      fields[listKey] = [...(Array.isArray(list) ? list : []), value];
      continue;
    }
    const field = keyLine.exec(line);
    if (!field) throw refused(lineNumber, { kind: 'notAField', found: line.trim() }, `expected \`key: value\`, found \`${line.trim()}\`.`);
    const key = field[1] ?? '';
    const raw = (field[2] ?? '').trim();
    if (Object.hasOwn(fields, key)) throw refused(lineNumber, { kind: 'givenTwice', key }, `\`${key}\` is given twice.`);
    listKey = undefined;
    keyLines[key] = lineNumber;
    if (raw === '' || raw.startsWith('#')) {
      // The value may follow as `- item` lines; if none do, it is empty.
      fields[key] = '';
      listKey = key;
      continue;
    }
    if (raw.startsWith('|') || raw.startsWith('>'))
      throw refused(lineNumber, { kind: 'multiLine', key }, `multi-line values are not supported; put \`${key}\`'s value on one line.`);
    if (raw.startsWith('[') && raw.endsWith(']')) {
      const list = inlineList(raw);
      if (!list) throw refused(lineNumber, { kind: 'openQuote', inList: true }, 'a quote is left open in the list.');
      fields[key] = list;
      continue;
    }
    if (raw.startsWith('{') || raw.startsWith('[')) throw refused(lineNumber, { kind: 'notPlain', key }, `\`${key}\` must be a plain value or a simple list.`);
    const value = scalar(raw);
    if (value === undefined) throw refused(lineNumber, { kind: 'openQuote', inList: false }, 'a quote is left open.');
    fields[key] = value;
  }
  const rest = lines.slice(close + 1);
  const leading = rest.findIndex((line) => line.trim() !== '');
  return { fields, lines: keyLines, body: rest.join('\n').trim(), bodyLine: close + 2 + Math.max(0, leading) };
}
