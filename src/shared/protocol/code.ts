/** Code between the editor and the panel: a selection into the composer, code blocks and cited sources out to the editor. */
import * as v from 'valibot';
import { message, text } from './schema';

/** Host → webview. */
export type CodeToWebview =
  /** Text to put into the composer as a quoted context block (the command "Add selection to chat"). */
  { readonly type: 'composer/addContext'; readonly label: string; readonly text: string; readonly language: string };

/** Webview → host: code block and answer actions. */
export const codeFromWebview = [
  /** Copy a code block to the clipboard. */
  message('code/copy', { code: text }),
  /** Insert a code block at the editor's cursor. */
  message('code/insert', { code: text }),
  /** Replace the editor's selection with a code block. */
  message('code/replaceSelection', { code: text }),
  /** Open a code block in a new editor in its language. */
  message('code/open', { code: text, language: text }),
  /** Open a workspace location the answer cited (a `sources` link). */
  message('source/open', { uri: text, startLine: v.number() }),
] as const;
