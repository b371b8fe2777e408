// A service error's message in the user's language (issue #38). Core writes its errors in English: they are
// logged, and core's tests read them. The host words them again from what an error carries (its reason, the
// HTTP status and code of an answer, what an `unsupported` answer lacks, the wait a 429 asks for), and keeps the
// service's own words after it verbatim: a server's message is not ours to translate. An error raised in the
// client itself (a time-out, a failed connection, a request it refused) keeps core's English text as the detail,
// since it holds the specifics (the milliseconds, the parameter). With English shown (or a language Cadenza has
// no translations for), the message is core's, exactly. Pure, so the unit tier tests it with a translator that
// marks what it translates; the host's texts (vscode.l10n.t) are in errorTexts.ts.
import type { ApiError, ApiErrorReason, MissingFeature } from '../../core/api/errors';

/** The texts an error's message is built from, in the display language. */
export interface ErrorTexts {
  /** False when the display language is English or has no translations: core's message is shown as it is. */
  readonly translated: boolean;
  /** What happened, for each reason (for `canceled`: stopped by the user). */
  summary(reason: ApiErrorReason): string;
  /** "This server does not offer …", for each missing feature. */
  missing(feature: MissingFeature): string;
  /** The service asks to wait `seconds` before a retry. */
  wait(seconds: number): string;
  /** A summary and its detail in one line ("{0}: {1}" in English). */
  withDetail(summary: string, detail: string): string;
}

/** What happened, in the user's words: the summary of the reason, made precise where the error says more. */
function headline(error: ApiError, texts: ErrorTexts): string {
  if (error.reason === 'unsupported' && error.missing !== undefined) return texts.missing(error.missing);
  if (error.reason === 'rateLimited' && error.retryAfterMs !== undefined) return texts.wait(Math.ceil(error.retryAfterMs / 1000));
  return texts.summary(error.reason);
}

/** The error's message as the user reads it; `texts` says in which language. */
export function errorMessage(error: ApiError, texts: ErrorTexts): string {
  if (!texts.translated) return error.message;
  const head = headline(error, texts);
  // A cancel says all there is to say.
  if (error.reason === 'canceled') return head;
  // An answer of the service (a status, or an error inside a stream): its status and code, then its own words.
  if (error.status !== undefined || error.serverMessage !== undefined) {
    const codes = [...(error.status !== undefined ? [`HTTP ${error.status}`] : []), ...(error.code !== undefined ? [error.code] : [])];
    const summary = codes.length > 0 ? `${head} (${codes.join(', ')})` : head;
    return error.serverMessage === undefined ? summary : texts.withDetail(summary, error.serverMessage);
  }
  // The client's own error: core's text holds the specifics.
  return texts.withDetail(head, error.message);
}
