import * as vscode from 'vscode';
import type { HostContext } from '../context';
import type { PanelChannel } from '../panel/panelChannel';
import { webviewHtml } from './webviewHtml';

/**
 * The chat panel's view in Cadenza's activity-bar container: it gives the panel's page its HTML, connects its
 * webview to the panel's channel (which delivers what the host posts), and hands every message the page sends
 * to `receive` (the router, which validates it first).
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly viewDisposables: vscode.Disposable[] = [];
  private readonly resolvedEmitter = new vscode.EventEmitter<void>();

  /** Fires each time the view is resolved (tests wait on it). */
  readonly onDidResolve = this.resolvedEmitter.event;

  constructor(
    private readonly host: HostContext,
    private readonly channel: PanelChannel,
    private readonly receive: (message: unknown) => Promise<void>,
  ) {}

  get isResolved(): boolean {
    return this.view !== undefined;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    this.channel.connect(view.webview);
    const extensionUri = this.host.extension.extensionUri;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    view.webview.html = webviewHtml(view.webview, extensionUri, 'Cadenza');
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      view.onDidDispose(() => this.disposeView()),
    );
    this.resolvedEmitter.fire();
  }

  /** Reveals the panel (creating it if needed). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand('cadenza.chat.focus');
  }

  private disposeView(): void {
    for (const disposable of this.viewDisposables.splice(0)) disposable.dispose();
    this.view = undefined;
    this.channel.disconnect();
  }

  dispose(): void {
    this.disposeView();
    this.resolvedEmitter.dispose();
  }
}
