// Which files may be sent to the service for a completion: never those the index would skip (its ignore
// rules and generated folders are applied by the host through IgnoreRules), never secrets (the index's list,
// core/index/secretFiles.ts: they are often not git-ignored in a working copy), never binary, minified or
// huge files.
import { isSecretPath } from '../index/secretFiles';
import { hasBinaryExtension } from '../index/walker';
import { MINIFIED_AVERAGE_LINE } from '../index/binaryDetect';

/** Why a file is never completed; undefined when it may be. */
export type CompletionSkip = 'secret' | 'binary' | 'minified' | 'tooLarge';

/**
 * Whether a document may be completed, from its path and text: secrets, binary names or NUL bytes,
 * minified text (average line over 1,000 characters, as the index judges it) and files over `maxChars`
 * are skipped. The index's ignore rules are the host's part (they need the file system).
 */
export function completionSkip(path: string, text: { length: number; lineCount: number; sample: string }, maxChars: number): CompletionSkip | undefined {
  if (isSecretPath(path)) return 'secret';
  if (hasBinaryExtension(path.replace(/\\/g, '/').split('/').pop() ?? '') || text.sample.includes('\u0000')) return 'binary';
  if (text.length > maxChars) return 'tooLarge';
  if (text.length / Math.max(1, text.lineCount) > MINIFIED_AVERAGE_LINE) return 'minified';
  return undefined;
}
