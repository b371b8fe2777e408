// The fill-in-the-middle request for a model whose server fills in the middle itself (llama-server's
// /infill): no instructions and no worked example, just the text before and after the cursor and the other
// files' snippets as `input_extra`, cut to the same budget as the chat prompt (prompt.ts `cutContext`). The
// server wraps them in the model's own FIM tokens; the answer goes through the same cleaning as a chat one.
import { type InfillExtra } from '../api/types';
import { estimateTokens } from '../chat/contextBudget';
import { completionMode, type CompletionMode } from './postprocess';
import { answerTokens, cutContext, type CompletionPromptInput } from './prompt';

/** A built infill request and the cut text it sends (post-processing needs the same view of the cursor). */
export interface InfillPrompt {
  readonly prefix: string;
  readonly suffix: string;
  readonly extra: readonly InfillExtra[];
  readonly mode: CompletionMode;
  readonly maxTokens: number;
  /** Estimated prompt tokens (the server's count replaces it when it reports one). */
  readonly promptTokens: number;
}

/** Builds the infill request: the cut prefix and suffix as they are, and each snippet as a file of `input_extra`. */
export function buildInfillPrompt(input: CompletionPromptInput): InfillPrompt {
  // A file separator and its name stand before each snippet in the model's repository format.
  const { prefix, suffix, snippets } = cutContext(input, (path) => path.length + 16);
  const extra = snippets.map(({ path, text }) => ({ filename: path, text: `${text}\n` }));
  const mode = completionMode({ prefix, suffix });
  return {
    prefix,
    suffix,
    extra,
    mode,
    maxTokens: answerTokens(mode),
    promptTokens: [input.path, prefix, suffix, ...extra.flatMap((entry) => [entry.filename, entry.text])].reduce(
      (sum, text) => sum + estimateTokens(text) + 2,
      0,
    ),
  };
}
