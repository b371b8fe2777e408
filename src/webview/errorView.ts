/**
 * Errors shown inline in the conversation, each with the action that fixes it, and the live
 * "retrying in N s" countdown the host announces before it retries on its own.
 */
import type { FromWebview } from '../shared/protocol';
import type { ErrorView } from '../shared/views';
import { button, el } from './dom';
import { icon, type IconName } from './icons';
import { t } from './l10n';

/** What an error's action button needs from the panel. */
export interface ErrorActions {
  readonly post: (message: FromWebview) => void;
  /** Posts a retry with the current options (`trim` drops the oldest turns first). */
  readonly retry: (trim: boolean) => void;
}

const actionButtons: Record<NonNullable<ErrorView['action']>, { readonly text: string; readonly icon?: IconName }> = {
  setApiKey: { text: t('setApiKey') },
  selectModel: { text: t('chooseAnotherModel') },
  retry: { text: t('retry'), icon: 'refresh' },
  trimAndRetry: { text: t('trimAndRetry'), icon: 'refresh' },
  openSettings: { text: t('openSettings') },
};

/** Counts whole seconds down to zero, calling `tick` each second; returns a stop function. */
export function countdown(seconds: number, tick: (left: number) => void): () => void {
  const end = performance.now() + seconds * 1000;
  const update = (): number => {
    const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
    tick(left);
    return left;
  };
  if (update() === 0) return () => undefined;
  const timer = window.setInterval(() => {
    if (update() === 0) window.clearInterval(timer);
  }, 250);
  return () => window.clearInterval(timer);
}

/**
 * An error block: the message and, when `actionable` (the error is on the last answer), the button
 * for its action; `live` when it just happened. A retry that must wait (`retryAfterSeconds`) is disabled until the wait is over.
 */
export function errorBlock(
  error: ErrorView,
  actionable: boolean,
  live: boolean,
  actions: ErrorActions,
): { readonly element: HTMLElement; readonly dispose: () => void } {
  // Only an error that just happened is an alert: a conversation shown again must not read out its
  // old errors.
  const element = el('div', { className: 'error-block', attrs: live ? { role: 'alert' } : {} });
  element.append(el('p', { className: 'error-message' }, icon('warning'), el('span', { text: error.message })));
  let dispose = (): void => undefined;
  const action = error.action;
  if (actionable && action) {
    const { text, icon } = actionButtons[action];
    const control = button({
      text,
      label: text,
      ...(icon ? { icon } : {}),
      className: 'text-button',
      onClick: () => {
        switch (action) {
          case 'setApiKey':
          case 'selectModel':
          case 'openSettings':
            actions.post({ type: 'action/run', action });
            return;
          case 'retry':
          case 'trimAndRetry':
            control.disabled = true;
            actions.retry(action === 'trimAndRetry');
            return;
        }
      },
    });
    const wait = error.retryAfterSeconds;
    if ((action === 'retry' || action === 'trimAndRetry') && wait !== undefined && wait > 0) {
      const label = control.querySelector('span');
      dispose = countdown(wait, (left) => {
        control.disabled = left > 0;
        if (label) label.textContent = left > 0 ? t('actionIn', { action: text, seconds: left }) : text;
      });
    }
    element.append(el('div', { className: 'error-actions' }, control));
  }
  return { element, dispose: () => dispose() };
}

const retryReasons: Readonly<Record<string, string>> = {
  rateLimited: t('rateLimited'),
  server: t('serverProblem'),
  network: t('networkError'),
  timeout: t('timedOut'),
};

/** The live status shown while the host waits to retry: "Rate limited — retrying in N s". */
export function retryStatus(seconds: number, attempt: number, reason: string | undefined): { readonly element: HTMLElement; readonly dispose: () => void } {
  // Not a live region: a text that changes every second would be read out every second. The panel
  // announces the retry once instead.
  const element = el('p', { className: 'retry-status' });
  const cause = retryReasons[reason ?? 'rateLimited'] ?? t('requestFailed');
  const dispose = countdown(seconds, (left) => {
    element.textContent = left > 0 ? t('retryingIn', { cause, seconds: left, attempt }) : t('retryingNow', { cause, attempt });
  });
  return { element, dispose };
}
