// The fill-in-the-middle prompt for a chat model: the service has no completions endpoint and its chat
// models know no FIM tokens, so the model is shown the code after the cursor, then the code before it, which
// ends where the cursor is, and asked for exactly the text that belongs there. One worked example (a user
// turn and its answer) comes first: small models follow an example far better than an instruction. Everything
// is cut to a token budget, nearest the cursor first: most of it for the text before the cursor, some for
// the text after, a little for other files.
import { type ChatMessage } from '../api/types';
import { estimateTokens } from '../chat/contextBudget';
import { completionMode, type CompletionMode } from './postprocess';

/** A piece of another file shown for context (an open editor, a recent edit, an index hit). */
export interface ContextSnippet {
  /** Workspace-relative path, shown to the model. */
  readonly path: string;
  readonly text: string;
  /** Where it came from (the host's choice; the prompt shows them all alike, in the order given). */
  readonly source?: 'edit' | 'editor' | 'index';
}

/** What the prompt is built from. */
export interface CompletionPromptInput {
  /** Workspace-relative path (or the untitled name). */
  readonly path: string;
  /** VS Code language id. */
  readonly languageId: string;
  /** Text before the cursor; the builder keeps what fits, nearest the cursor. */
  readonly prefix: string;
  /** Text after the cursor; likewise. */
  readonly suffix: string;
  /** Other files' snippets, most relevant first. */
  readonly snippets?: readonly ContextSnippet[];
  /** Tokens for prefix, suffix and snippets together (default 1,500). */
  readonly budgetTokens?: number;
}

/** A built prompt and the cut text it shows (post-processing needs the same view of the cursor). */
export interface CompletionPrompt {
  readonly messages: readonly ChatMessage[];
  readonly prefix: string;
  readonly suffix: string;
  readonly mode: CompletionMode;
  /** Answer tokens to allow: a line is short, a block longer. */
  readonly maxTokens: number;
  /** Estimated prompt tokens (for the daily cap before the service reports usage). */
  readonly promptTokens: number;
}

export const DEFAULT_BUDGET_TOKENS = 1_500;

const SYSTEM = [
  'You are a code completion engine inside an editor.',
  'You get the code after the cursor, then the code before the cursor, which ends where the cursor is.',
  'Reply with exactly the text to insert at the cursor: no explanation, no Markdown fences, and none of the code before or after the cursor repeated.',
  "Match the file's style and indentation. If nothing should be inserted, reply with nothing.",
].join(' ');

const ASK_LINE = 'Complete the code at the cursor: only the rest of that line, which continues with the code after the cursor.';
const ASK_BLOCK =
  'Complete the code at the cursor: the rest of the current line and, if the code is unfinished there, the lines that finish the current statement or block (at most a dozen).';

/**
 * The user turn for one cursor: the code after it, the ask, then the code before it in a fence left open, so
 * the answer reads as its continuation. Measured on Gemma 3 270M (the real-model tier's model): with the file
 * shown whole and a `<CURSOR>` marker it answered with a fence and an unrelated line (`import { add } from
 * 'math';` for an empty `add` body); with the code before the cursor last and the example below, it answers
 * `return a + b`. A last line of indentation only is left out of the shown text (it is typed, not code).
 */
function cursorTurn(path: string, languageId: string, prefix: string, suffix: string, mode: CompletionMode): string {
  const after = suffix.replace(/^[ \t]*\n/, '');
  const before = mode === 'block' ? prefix.replace(/\n[ \t]*$/, '') : prefix;
  const marker = fence(`${before}\n${after}`);
  return [
    `File ${path} (${languageId}), the code after the cursor:`,
    `${marker}${languageId}`,
    after,
    marker,
    mode === 'line' ? ASK_LINE : ASK_BLOCK,
    'The code before the cursor, which ends where the cursor is:',
    `${marker}${languageId}`,
    before,
  ].join('\n');
}

const EXAMPLE_ANSWER = "return 'Hello, ' + name";

/** The worked example: a function body asked for at its first line, and the answer a completion engine gives. */
const EXAMPLE: readonly ChatMessage[] = [
  { role: 'user', content: cursorTurn('util/greeting.py', 'python', 'def greet(name):\n    ', '\n\n\nprint(greet("Ada"))\n', 'block') },
  { role: 'assistant', content: EXAMPLE_ANSWER },
];

/**
 * True when a cleaned answer is the worked example's answer: a small model that does not know what to write
 * copies the example (docs/decisions/0013-completion-chat-prompt.md), which is never the completion, so it
 * is not shown.
 */
export function copiesExample(text: string): boolean {
  return text.trim().replace(/;$/, '') === EXAMPLE_ANSWER;
}

/** Keeps the end of `text` within `chars`, starting at a line start when it had to cut. */
export function keepTail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(text.length - chars);
  const newline = cut.indexOf('\n');
  return newline < 0 ? cut : cut.slice(newline + 1);
}

/** Keeps the start of `text` within `chars`, ending at a line end when it had to cut. */
export function keepHead(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars);
  const newline = cut.lastIndexOf('\n');
  return newline < 0 ? cut : cut.slice(0, newline);
}

// Characters per token of the shared estimate (contextBudget.ts).
const CHARS_PER_TOKEN = 4;

function fence(text: string): string {
  let marker = '```';
  while (text.includes(marker)) marker += '`';
  return marker;
}

/** The text around the cursor and the other files' snippets, cut to a token budget (both paths' prompts). */
export interface CutContext {
  readonly prefix: string;
  readonly suffix: string;
  /** The snippets that fit, each cut at a line end, most relevant first. */
  readonly snippets: readonly { readonly path: string; readonly text: string }[];
}

/**
 * Cuts the prompt's text to the budget: the prefix gets 70 % of it and the suffix 20 % (what one leaves
 * unused goes to the other), snippets the rest (less `snippetOverhead` characters each), each cut at line
 * boundaries, nearest the cursor first.
 */
export function cutContext(input: CompletionPromptInput, snippetOverhead: (path: string) => number): CutContext {
  const budgetChars = Math.max(64, input.budgetTokens ?? DEFAULT_BUDGET_TOKENS) * CHARS_PER_TOKEN;
  let suffix = keepHead(input.suffix, Math.floor(budgetChars * 0.2));
  const prefix = keepTail(input.prefix, Math.floor(budgetChars * 0.7) + Math.floor(budgetChars * 0.2) - suffix.length);
  if (prefix.length === input.prefix.length && suffix.length < input.suffix.length) {
    suffix = keepHead(input.suffix, Math.floor(budgetChars * 0.9) - prefix.length);
  }
  let snippetChars = budgetChars - prefix.length - suffix.length;
  const snippets: { path: string; text: string }[] = [];
  for (const snippet of input.snippets ?? []) {
    const overhead = snippetOverhead(snippet.path);
    if (snippetChars < overhead + 80) break;
    const text = keepHead(snippet.text.trim(), snippetChars - overhead);
    if (text.trim() === '') continue;
    snippets.push({ path: snippet.path, text });
    snippetChars -= overhead + text.length;
  }
  return { prefix, suffix, snippets };
}

/**
 * Builds the chat request for a completion from the cut context (`cutContext`). After the system message and
 * the worked example, the user message shows the snippets, then the cursor's turn (the code after the cursor,
 * whether one line or a block is wanted, the code before the cursor).
 */
export function buildCompletionPrompt(input: CompletionPromptInput): CompletionPrompt {
  const { prefix, suffix, snippets } = cutContext(input, (path) => `From ${path}:\n`.length + 8);
  const shown = snippets.map(({ path, text }) => {
    const marker = fence(text);
    return `From ${path}:\n${marker}\n${text}\n${marker}`;
  });
  const mode = completionMode({ prefix, suffix });
  const user = [
    ...(shown.length > 0 ? ['Other files, for reference:', ...shown, ''] : []),
    cursorTurn(input.path, input.languageId, prefix, suffix, mode),
  ].join('\n');
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }, ...EXAMPLE, { role: 'user', content: user }];
  return {
    messages,
    prefix,
    suffix,
    mode,
    maxTokens: answerTokens(mode),
    promptTokens: [SYSTEM, ...EXAMPLE.map((message) => String(message.content)), user].reduce((sum, text) => sum + estimateTokens(text) + 4, 0),
  };
}

/** Answer tokens to allow: a line is short, a block longer. */
export function answerTokens(mode: CompletionMode): number {
  return mode === 'line' ? 96 : 320;
}
