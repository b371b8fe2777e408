// A service error as the user sees it, wherever it is shown (the panel, VS Code's chat, a notification):
// what happened (in the user's language: errorMessage.ts), and the action that fixes it. One presenter, so
// every entry point says the same thing.
import { ApiError } from '../../core/api/errors';
import type { ErrorView } from '../../shared/views';
import { errorMessage } from './errorMessage';
import { errorTexts } from './errorTexts';

/** An error as the panel shows it: what happened, and the action that fixes it. */
export function errorView(error: unknown): ErrorView {
  if (!ApiError.is(error)) {
    return { reason: 'unknown', message: error instanceof Error ? error.message : String(error), action: 'retry' };
  }
  const message = errorMessage(error, errorTexts());
  switch (error.reason) {
    case 'auth':
      return { reason: error.reason, message, action: 'setApiKey' };
    case 'notFound':
    case 'modelNotCompatible':
      return { reason: error.reason, message, action: 'selectModel' };
    case 'contextTooLong':
      return { reason: error.reason, message, action: 'trimAndRetry' };
    case 'rateLimited':
      return {
        reason: error.reason,
        message,
        action: 'retry',
        ...(error.retryAfterMs !== undefined ? { retryAfterSeconds: Math.ceil(error.retryAfterMs / 1000) } : {}),
      };
    case 'timeout':
    case 'network':
    case 'server':
    case 'malformedResponse':
      return { reason: error.reason, message, action: 'retry' };
    case 'unsupported':
      return { reason: error.reason, message, action: 'openSettings' };
    default:
      return { reason: error.reason, message };
  }
}
