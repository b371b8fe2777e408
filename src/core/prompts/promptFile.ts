// Prompt files: Markdown a user keeps to run again as `/name` (the format of Copilot's `.prompt.md`). This
// module reads one file into a `PromptFile` and decides which file a name means when several have it; where
// the files are found is the host's business (src/host/prompts/), filling in their variables is expand.ts's.
//
// Which file wins a name (first wins):
//   1. a built-in command of the chat (`/explain`, `/search`...): a prompt file cannot replace it;
//   2. the workspace folders, in their order; in each, `.cadenza/prompts/` before `.github/prompts/`
//      (Cadenza's own folder is the more specific choice, as `.cadenza/instructions.md` is for instructions);
//   3. the user's profile.
// Names compare without regard to case (`/Review` and `/review` are one command). A file that loses is kept
// in `shadowed` with what hid it, so the list can say why a prompt does not appear.
import { readFrontMatter, type FrontMatterValue } from './frontMatter';
import { PromptError, type PromptNote } from './promptError';

/** Prompt files larger than this are refused (a prompt is a page of text; this is twenty). */
export const maxPromptFileBytes = 64 * 1024;

/** What the chat does with a prompt, from its `mode` (or `agent`) field: Copilot's three built-in modes. */
export type PromptMode = 'ask' | 'edit' | 'agent';

/** Where a prompt file lives: a workspace folder's `.github/prompts` or `.cadenza/prompts`, or the user's profile. */
export type PromptFolderKind = 'github' | 'cadenza' | 'profile';

/** Where one prompt file came from. */
export interface PromptSource {
  readonly origin: 'workspace' | 'profile';
  readonly kind: PromptFolderKind;
  /** The file's URI, as a string. */
  readonly uri: string;
  /** For display: relative to its workspace folder (`.github/prompts/x.prompt.md`), or the file name in the profile. */
  readonly path: string;
  /** The workspace folder's name (workspace files only). */
  readonly folder?: string;
}

/** One prompt file, read. */
export interface PromptFile {
  /** What follows `/` in the chat: the front matter's `name`, else the file name without `.prompt.md` (or `.md`). */
  readonly name: string;
  /** One line shown next to `/name` ('' when the file has none). */
  readonly description: string;
  readonly mode: PromptMode | undefined;
  readonly model: string | undefined;
  /** The tools the prompt asks for (Copilot's names; the chat offers those it has). */
  readonly tools: readonly string[];
  /** What to type after `/name`, shown as a hint. */
  readonly argumentHint: string | undefined;
  /** The text that is run, its variables not yet filled in. */
  readonly body: string;
  readonly source: PromptSource;
  /** Things in the file that were read differently than written (an unknown mode, an invalid name). */
  readonly notes: readonly PromptNote[];
}

const validName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Whether `name` can be typed after `/` (letters, digits, `.`, `_`, `-`; no spaces or path separators). */
export function isValidPromptName(name: string): boolean {
  return validName.test(name) && !name.includes('..');
}

/**
 * The name a file gives its prompt in its folder, or undefined when the folder does not read that file (Copilot's
 * folders read only `*.prompt.md`; `.cadenza/prompts` reads any `*.md`) or the name cannot be typed after `/`.
 */
export function promptNameFromFile(fileName: string, kind: PromptFolderKind): string | undefined {
  const lower = fileName.toLowerCase();
  const suffix = lower.endsWith('.prompt.md') ? '.prompt.md' : kind === 'cadenza' && lower.endsWith('.md') ? '.md' : undefined;
  if (!suffix) return undefined;
  const name = fileName.slice(0, -suffix.length);
  return isValidPromptName(name) ? name : undefined;
}

function text(value: FrontMatterValue | undefined, key: string, line: number | undefined, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new PromptError('frontMatter', { kind: 'notOneValue', key }, `${where}, line ${line ?? 1}: \`${key}\` must be one value, not a list.`, {
      line: line ?? 1,
      file: where,
    });
  return value === '' ? undefined : value;
}

/**
 * Reads a prompt file. Throws a `PromptError`: `tooLarge` past `maxPromptFileBytes`, `frontMatter` (with the
 * line) when the front matter does not parse or a field has the wrong shape. Unknown fields are ignored, so
 * a file written for a newer Copilot still runs.
 */
export function parsePromptFile(content: string, source: PromptSource): PromptFile {
  const where = source.path;
  if (Buffer.byteLength(content, 'utf8') > maxPromptFileBytes) {
    const limitKb = maxPromptFileBytes / 1024;
    throw new PromptError(
      'tooLarge',
      { kind: 'tooLarge', limitKb },
      `${where} is larger than ${limitKb} KB, the most a prompt file may hold; shorten it or split it.`,
      {
        file: where,
      },
    );
  }
  let read;
  try {
    read = readFrontMatter(content);
  } catch (error) {
    if (PromptError.is(error, 'frontMatter'))
      throw new PromptError('frontMatter', error.fault, `${where}: ${error.message.replace(/^Line/, 'line')}`, {
        ...(error.line !== undefined ? { line: error.line } : {}),
        file: where,
      });
    throw error;
  }
  const field = (key: string): string | undefined => text(read.fields[key], key, read.lines[key], where);
  const notes: PromptNote[] = [];
  const fileName = source.path.split('/').at(-1) ?? source.path;
  const fromFile = promptNameFromFile(fileName, source.kind) ?? fileName.replace(/(\.prompt)?\.md$/i, '');
  const declared = field('name');
  if (declared !== undefined && !isValidPromptName(declared)) notes.push({ kind: 'invalidName', declared, name: fromFile });
  const modeValue = field('agent') ?? field('mode');
  const mode = modeValue === 'ask' || modeValue === 'edit' || modeValue === 'agent' ? modeValue : undefined;
  if (modeValue !== undefined && mode === undefined) notes.push({ kind: 'unknownMode', mode: modeValue });
  const tools = read.fields['tools'];
  return {
    name: declared !== undefined && isValidPromptName(declared) ? declared : fromFile,
    description: field('description') ?? '',
    mode,
    model: field('model'),
    tools: tools === undefined ? [] : typeof tools === 'string' ? (tools === '' ? [] : [tools]) : tools,
    argumentHint: field('argument-hint'),
    body: read.body,
    source,
    notes,
  };
}

/** A prompt file that lost its name to another, and what it lost to. */
export interface ShadowedPrompt {
  readonly prompt: PromptFile;
  /** `the built-in /explain`, or the winning file's label. */
  readonly by: string;
}

/** The prompts that answer to their names, and those hidden by another. */
export interface MergedPrompts {
  /** Sorted by name. */
  readonly prompts: readonly PromptFile[];
  readonly shadowed: readonly ShadowedPrompt[];
}

/** How a prompt file is named to the user: its workspace path (with the folder when there are several), or in the profile. */
export function promptLabel(source: PromptSource, folderCount: number): string {
  if (source.origin === 'profile') return `${source.path} in your profile`;
  return folderCount > 1 && source.folder ? `${source.path} in ${source.folder}` : source.path;
}

function rank(prompt: PromptFile, folders: readonly string[]): number {
  if (prompt.source.origin === 'profile') return folders.length * 2;
  const folder = Math.max(0, folders.indexOf(prompt.source.folder ?? ''));
  return folder * 2 + (prompt.source.kind === 'cadenza' ? 0 : 1);
}

/**
 * Decides which prompt answers each name (see the order at the top of this file). `folders` are the workspace
 * folders' names in their order; `builtIns` the chat's own commands.
 */
export function mergePrompts(prompts: readonly PromptFile[], folders: readonly string[], builtIns: readonly string[]): MergedPrompts {
  const ordered = [...prompts].sort((a, b) => rank(a, folders) - rank(b, folders));
  const reserved = new Set(builtIns.map((name) => name.toLowerCase()));
  const winners = new Map<string, PromptFile>();
  const shadowed: ShadowedPrompt[] = [];
  for (const prompt of ordered) {
    const key = prompt.name.toLowerCase();
    const winner = winners.get(key);
    if (reserved.has(key)) shadowed.push({ prompt, by: `the built-in /${key}` });
    else if (winner) shadowed.push({ prompt, by: promptLabel(winner.source, folders.length) });
    else winners.set(key, prompt);
  }
  const byName = (a: PromptFile, b: PromptFile): number => a.name.toLowerCase().localeCompare(b.name.toLowerCase());
  return {
    prompts: [...winners.values()].sort(byName),
    // Stable sort: within a name, the order of precedence.
    shadowed: shadowed.sort((a, b) => byName(a.prompt, b.prompt)),
  };
}
