// Says which of a workspace's settings Cadenza ignores because they would make it do or spend more than the
// user's settings allow (settingRules.ts), so a repository whose .vscode/settings.json asks for completions
// or automatic indexing is not overruled in silence. Shown once per workspace for each value (a value
// already shown is not shown again, even after it went and came back); logged whenever the list changes.
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { ignoredWorkspaceSettings, type IgnoredSetting } from './settings';

const shownKey = 'cadenza.settings.ignoredShown';
/** Settings written one after another (a settings.json saved, a sync) become one notice. */
const SETTLE_MS = 300;

/** One ignored value as the notice writes it: `cadenza.index.mode ("auto")`. */
function describe(entry: IgnoredSetting): string {
  const value = JSON.stringify(entry.value);
  return `${entry.id} (${value.length > 60 ? `${value.slice(0, 60)}\u2026` : value})`;
}

/** A list in the display language's way (`a, b, and c`; `a、b和c`). */
function joined(parts: readonly string[]): string {
  return new Intl.ListFormat(vscode.env.language, { type: 'conjunction' }).format(parts);
}

/** The notice's text for these ignored values. */
export function ignoredSettingsMessage(ignored: readonly IgnoredSetting[]): string {
  const list = joined(ignored.map(describe));
  return ignored.length === 1
    ? vscode.l10n.t(
        "Cadenza ignores this workspace's {0}: a workspace's settings may make Cadenza do or spend less than your user settings, never more. To use this value, set it in your user settings.",
        list,
      )
    : vscode.l10n.t(
        "Cadenza ignores this workspace's {0}: a workspace's settings may make Cadenza do or spend less than your user settings, never more. To use these values, set them in your user settings.",
        list,
      );
}

/** Watches the settings and says, once per value, which workspace values do not count. */
export class WorkspaceSettingsNotice implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private logged = '';
  private lastShown: readonly IgnoredSetting[] = [];
  private checking: Promise<unknown> = Promise.resolve();
  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: Logger,
  ) {
    const later = (): void => {
      if (this.settle) clearTimeout(this.settle);
      this.settle = setTimeout(() => void this.check(), SETTLE_MS);
    };
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('cadenza')) later();
      }),
      // Trust reveals the workspace values of restricted settings (cadenza.index.mode).
      vscode.workspace.onDidGrantWorkspaceTrust(later),
    );
  }

  /** What the notice said last (the integration tests read it). */
  get shown(): readonly IgnoredSetting[] {
    return this.lastShown;
  }

  /** Logs the ignored values when they changed, and shows those not shown before in this workspace. Returns them all. */
  check(): Promise<IgnoredSetting[]> {
    // One at a time: two checks must not both find a value unseen and show it twice.
    const next = this.checking.then(() => this.checkNow());
    this.checking = next.catch(() => undefined);
    return next;
  }

  private async checkNow(): Promise<IgnoredSetting[]> {
    const ignored = ignoredWorkspaceSettings();
    const keys = ignored.map((entry) => `${entry.id}=${JSON.stringify(entry.value)}`);
    const signature = keys.join('\n');
    if (signature !== this.logged) {
      this.logged = signature;
      if (ignored.length > 0)
        this.log.info(
          `Workspace settings ignored, as they would make Cadenza do or spend more than the user's settings allow: ${ignored.map(describe).join(', ')}.`,
        );
    }
    const seen = new Set(this.state.get<string[]>(shownKey, []));
    if (keys.every((key) => seen.has(key))) return ignored;
    await this.state.update(shownKey, [...new Set([...seen, ...keys])]);
    this.lastShown = ignored;
    void vscode.window.showInformationMessage(ignoredSettingsMessage(ignored), vscode.l10n.t('Show Settings')).then((choice) => {
      // The user's settings, filtered to these: each row says it is also set in the workspace.
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', `@id:${[...new Set(ignored.map((entry) => entry.id))].join(',')}`);
    });
    return ignored;
  }

  dispose(): void {
    if (this.settle) clearTimeout(this.settle);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
