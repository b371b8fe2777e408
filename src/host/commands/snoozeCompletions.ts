import * as vscode from 'vscode';
import type { CompletionService } from '../completions/completionService';

/** Pauses inline completions for a while: `minutes` as an argument (0 resumes), else picked from a list. */
export async function snoozeCompletions(service: CompletionService, minutes?: unknown): Promise<void> {
  if (typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0) {
    service.snooze(minutes);
    return;
  }
  const choices = [
    { label: vscode.l10n.t('{0} minutes', 5), minutes: 5 },
    { label: vscode.l10n.t('{0} minutes', 15), minutes: 15 },
    { label: vscode.l10n.t('1 hour'), minutes: 60 },
    { label: vscode.l10n.t('{0} hours', 4), minutes: 240 },
    ...(service.state().kind === 'snoozed' ? [{ label: vscode.l10n.t('Resume now'), minutes: 0 }] : []),
  ];
  const picked = await vscode.window.showQuickPick(choices, {
    title: vscode.l10n.t('Snooze Cadenza inline completions'),
    placeHolder: vscode.l10n.t('For how long?'),
  });
  if (picked) service.snooze(picked.minutes);
}
