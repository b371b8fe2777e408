import * as vscode from 'vscode';
import { readCompletionSettings } from '../settings';

/**
 * Turns inline completions on or off (`cadenza.completions.enabled`). A workspace's settings can switch
 * completions off but never on (settingRules.ts), so turning them on is written to the user's settings,
 * and a workspace's `false` that would keep them off is removed; turning them off is written where the
 * setting is decided (the workspace's settings when they set it, else the user's). An explicit
 * `true`/`false` argument sets it. Returns whether completions are on now.
 */
export async function toggleCompletions(value?: unknown): Promise<boolean> {
  const config = vscode.workspace.getConfiguration('cadenza.completions');
  const next = typeof value === 'boolean' ? value : !readCompletionSettings().enabled;
  const inspected = config.inspect<boolean>('enabled');
  if (next) {
    await config.update('enabled', true, vscode.ConfigurationTarget.Global);
    if (inspected?.workspaceValue === false) await config.update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
  } else {
    await config.update('enabled', false, inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  }
  if (next && !vscode.workspace.getConfiguration('editor').get<boolean>('inlineSuggest.enabled', true)) {
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t("Cadenza completions are on, but VS Code's inline suggestions are off (editor.inlineSuggest.enabled)."),
        vscode.l10n.t('Open Setting'),
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'editor.inlineSuggest.enabled');
      });
  }
  return readCompletionSettings().enabled;
}
