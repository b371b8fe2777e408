import * as vscode from 'vscode';
import type { CompletionService } from '../completions/completionService';

/** Pauses inline completions for a while: `minutes` as an argument (0 resumes), else picked from a list. */
export async function snoozeCompletions(service: CompletionService, minutes?: unknown): Promise<void> {
  if (typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0) {
    service.snooze(minutes);
    return;
  }
  const choices = [
    { label: '5 minutes', minutes: 5 },
    { label: '15 minutes', minutes: 15 },
    { label: '1 hour', minutes: 60 },
    { label: '4 hours', minutes: 240 },
    ...(service.state().kind === 'snoozed' ? [{ label: 'Resume now', minutes: 0 }] : []),
  ];
  const picked = await vscode.window.showQuickPick(choices, { title: 'Snooze Cadenza inline completions', placeHolder: 'For how long?' });
  if (picked) service.snooze(picked.minutes);
}
