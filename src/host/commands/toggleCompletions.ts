import * as vscode from 'vscode';

/**
 * Turns inline completions on or off (`cadenza.completions.enabled`), where the setting is decided: the
 * workspace's settings when they set it, else the user's. An explicit `true`/`false` argument sets it.
 * Returns the new value.
 */
export async function toggleCompletions(value?: unknown): Promise<boolean> {
  const config = vscode.workspace.getConfiguration('cadenza.completions');
  const next = typeof value === 'boolean' ? value : !config.get<boolean>('enabled', false);
  const inspected = config.inspect<boolean>('enabled');
  const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update('enabled', next, target);
  if (next && !vscode.workspace.getConfiguration('editor').get<boolean>('inlineSuggest.enabled', true)) {
    void vscode.window.showWarningMessage('Cadenza completions are on, but VS Code\'s inline suggestions are off (editor.inlineSuggest.enabled).', 'Open Setting').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'editor.inlineSuggest.enabled');
    });
  }
  return next;
}
