// What the panel shows about the connection (whether a key is stored, the service's address) and the notice
// that the workspace sets the system prompt: posted when the webview says `ready`, and again while the panel
// is there whenever the key or those settings change.
import * as vscode from 'vscode';
import type { ToWebview } from '../../shared/protocol';
import type { HostContext } from '../context';
import { readSettings, workspaceSystemPromptNotice } from '../settings';
import type { PanelChannel } from './panelChannel';

/** The panel's connection state and the workspace-prompt notice. */
export class PanelConnectionState implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly host: HostContext,
    private readonly channel: PanelChannel,
  ) {
    this.disposables = [
      host.apiKey.onDidChange(() => {
        if (channel.isConnected) void this.post();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!channel.isConnected) return;
        if (event.affectsConfiguration('cadenza.baseUrl')) void this.post();
        if (event.affectsConfiguration('cadenza.chat.systemPrompt')) this.postWorkspacePrompt();
      }),
    ];
  }

  /** The connection state now (`state/connection`). */
  async message(): Promise<ToWebview> {
    const hasKey = (await this.host.apiKey.get()) !== undefined;
    return { type: 'state/connection', state: { baseUrl: readSettings().baseUrl, hasKey } };
  }

  /** Says so in the panel when the workspace sets the system prompt (see workspaceSystemPromptNotice). */
  postWorkspacePrompt(): void {
    const text = workspaceSystemPromptNotice();
    if (text !== undefined) this.channel.post({ type: 'notice', level: 'warning', text });
  }

  private async post(): Promise<void> {
    this.channel.post(await this.message());
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
