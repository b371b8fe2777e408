import * as vscode from 'vscode';
import { ApiError } from '../../core/api/errors';
import { errorView } from '../service/errorView';

/** What fixes an error, for each action of the presenter (read when shown: the display language's text). */
function actionHint(action: string): string | undefined {
  switch (action) {
    case 'setApiKey':
      return vscode.l10n.t('Run "Cadenza: Set API Key".');
    case 'selectModel':
      return vscode.l10n.t('Pick another Cadenza model.');
    case 'retry':
      return vscode.l10n.t('Try again.');
    case 'trimAndRetry':
      return vscode.l10n.t('Start a new chat or shorten the request.');
    case 'openSettings':
      return vscode.l10n.t('Check the service address in the setting cadenza.baseUrl.');
    default:
      return undefined;
  }
}

/** An error as VS Code's chat shows it: what happened and what fixes it, in one line. */
export function chatErrorMessage(error: unknown): string {
  const view = errorView(error);
  const hint = view.action ? actionHint(view.action) : undefined;
  return hint ? vscode.l10n.t('{0} {1}', view.message, hint) : view.message;
}

/** Whether `error` is a cancel (never shown, house style); `signal` covers errors raised after an abort. */
export function isCancel(error: unknown, signal?: AbortSignal): boolean {
  return ApiError.is(error, 'canceled') || signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

/**
 * An error VS Code's chat shows as its message alone. VS Code passes a provider's error on with its stack
 * and cause, and Copilot's chat prints `message: stack` (toErrorMessage verbose) when there is a stack: a
 * stack of Cadenza's bundle with its path on disk. So this one has no stack and no cause (log the cause).
 * Not a vscode.LanguageModelError: VS Code rebuilds those in the caller with a stack of its own.
 */
export class ShownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Error';
    this.stack = '';
  }

  static is(error: unknown): error is ShownError {
    return error instanceof ShownError;
  }
}
