import * as vscode from 'vscode';
import type { StoredUsage } from '../../core/chat/conversation';
import { commandIds } from '../ids';

/** The status bar item: the conversation's model and what this session's answers cost. */
export class ChatStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cadenza.status', vscode.StatusBarAlignment.Right, 100);
  private model: string | undefined;
  private spend = 0;
  private answers = 0;
  private completions: string | undefined;

  constructor() {
    this.item.name = 'Cadenza';
    this.item.command = commandIds.selectModel;
    this.render();
    this.item.show();
  }

  setModel(model: string | undefined): void {
    this.model = model;
    this.render();
  }

  addUsage(usage: StoredUsage): void {
    this.answers += 1;
    this.spend += usage.costUsd ?? 0;
    this.render();
  }

  /** Today's inline-completion usage in words (undefined: none yet), shown on its own line apart from chat's. */
  setCompletionUsage(line: string | undefined): void {
    this.completions = line;
    this.render();
  }

  /** The tooltip's text (the integration tests read it). */
  tooltipText(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : (this.item.tooltip?.value ?? '');
  }

  private render(): void {
    const cost = this.spend === 0 ? '$0' : this.spend < 0.01 ? `$${this.spend.toFixed(4)}` : `$${this.spend.toFixed(2)}`;
    this.item.text = `$(comment-discussion) ${this.model ?? vscode.l10n.t('no model')} · ${cost}`;
    const model = this.model ?? vscode.l10n.t('no model selected');
    const lines = [
      this.answers === 1
        ? vscode.l10n.t("Cadenza: {0}. This session's chat: 1 answer, {1}.", model, cost)
        : vscode.l10n.t("Cadenza: {0}. This session's chat: {1} answers, {2}.", model, this.answers, cost),
      ...(this.completions === undefined ? [] : [vscode.l10n.t('Inline completions today (counted apart from chat): {0}.', this.completions)]),
      vscode.l10n.t('Click to pick a model.'),
    ];
    this.item.tooltip = lines.join('\n');
  }

  dispose(): void {
    this.item.dispose();
  }
}
