import * as vscode from 'vscode';
import { formatCost } from '../../shared/cost';
import { numberLocale } from '../../shared/numbers';
import { commandIds } from '../ids';
import type { CompletionService, CompletionState } from './completionService';
import { count, usageText } from './usageText';

function describe(state: CompletionState): { icon: string; label: string } {
  switch (state.kind) {
    case 'on':
      return { icon: '$(sparkle)', label: state.model ? vscode.l10n.t('on ({0})', state.model) : vscode.l10n.t('on') };
    case 'off':
      return { icon: '$(circle-slash)', label: vscode.l10n.t('off') };
    case 'restricted':
      return { icon: '$(shield)', label: vscode.l10n.t('off in Restricted Mode') };
    case 'inlineSuggestOff':
      return { icon: '$(circle-slash)', label: vscode.l10n.t('off: `editor.inlineSuggest.enabled` is false') };
    case 'capped':
      return { icon: '$(warning)', label: vscode.l10n.t('paused: the daily token limit is reached') };
    case 'snoozed':
      return { icon: '$(clock)', label: vscode.l10n.t('snoozed until {0}', new Date(state.until).toLocaleTimeString()) };
  }
}

/**
 * The completions status bar entry: on, off or why not, and in its tooltip today's completion requests,
 * tokens and cost, apart from chat's. Clicking it toggles completions.
 */
export class CompletionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cadenza.completions', vscode.StatusBarAlignment.Right, 99);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly service: CompletionService) {
    this.item.name = vscode.l10n.t('Cadenza Completions');
    this.item.command = commandIds.toggleCompletions;
    this.subscription = service.onDidChangeState((state) => this.render(state));
    this.render(service.state());
    this.item.show();
  }

  private render(state: CompletionState): void {
    const { icon, label } = describe(state);
    const usage = this.service.usageToday();
    const tokens = usage.promptTokens + usage.completionTokens;
    this.item.text = `${icon} ${vscode.l10n.t('Complete')}`;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = { enabledCommands: [commandIds.toggleCompletions, commandIds.snoozeCompletions] };
    tooltip.appendMarkdown(`${vscode.l10n.t('**Cadenza inline completions:** {0}', label)}\n\n`);
    tooltip.appendMarkdown(`${vscode.l10n.t('Today (apart from chat): {0}.', usageText(usage, this.service.dailyLimit()))}\n\n`);
    tooltip.appendMarkdown(
      `[${state.kind === 'off' ? vscode.l10n.t('Turn on') : vscode.l10n.t('Turn off')}](command:${commandIds.toggleCompletions}) · [${vscode.l10n.t('Snooze')}](command:${commandIds.snoozeCompletions})`,
    );
    this.item.tooltip = tooltip;
    const cost = formatCost(usage.costUsd, 'short', numberLocale(vscode.env.language));
    this.item.accessibilityInformation = {
      label:
        usage.requests === 1
          ? vscode.l10n.t('Cadenza inline completions {0}; today {1} request, {2} tokens, {3}', label, count(usage.requests), count(tokens), cost)
          : vscode.l10n.t('Cadenza inline completions {0}; today {1} requests, {2} tokens, {3}', label, count(usage.requests), count(tokens), cost),
    };
  }

  /** The tooltip's text (the integration tests read it). */
  tooltipText(): string {
    const tooltip = this.item.tooltip;
    return typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
