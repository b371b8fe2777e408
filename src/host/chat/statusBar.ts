import * as vscode from 'vscode';
import type { StoredUsage } from '../../core/chat/conversation';
import { numberLocale } from '../../shared/numbers';
import { commandIds } from '../ids';
import { chatStatusText } from './statusBarText';

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
    const { text, tooltip } = chatStatusText(vscode, numberLocale(vscode.env.language), {
      model: this.model,
      answers: this.answers,
      spendUsd: this.spend,
      completions: this.completions,
    });
    this.item.text = `$(comment-discussion) ${text}`;
    this.item.tooltip = tooltip;
  }

  dispose(): void {
    this.item.dispose();
  }
}
