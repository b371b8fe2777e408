import * as vscode from 'vscode';
import { isFromWebview, type FromWebview, type ToWebview } from '../../shared/protocol';
import type { HostContext } from '../context';
import { commandIds } from '../ids';
import { readSettings } from '../settings';
import { webviewHtml } from './webviewHtml';

/**
 * The chat panel: a webview view in Cadenza's activity-bar container. Messages to the webview are
 * queued until it says `ready`; every incoming message is validated before it is routed.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: ToWebview[] = [];
  private readonly viewDisposables: vscode.Disposable[] = [];
  private readonly resolvedEmitter = new vscode.EventEmitter<void>();

  /** Fires each time the view is resolved (tests wait on it). */
  readonly onDidResolve = this.resolvedEmitter.event;

  constructor(private readonly host: HostContext) {}

  get isResolved(): boolean {
    return this.view !== undefined;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    this.ready = false;
    const extensionUri = this.host.extension.extensionUri;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    view.webview.html = webviewHtml(view.webview, extensionUri, 'Cadenza');
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      view.onDidDispose(() => this.disposeView()),
      this.host.apiKey.onDidChange(() => void this.postConnectionState()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('cadenza.baseUrl')) void this.postConnectionState();
      }),
    );
    this.resolvedEmitter.fire();
  }

  private receive(message: unknown): void {
    if (!isFromWebview(message)) {
      this.host.log.warn('Ignored a malformed message from the chat panel.');
      return;
    }
    void this.route(message);
  }

  private async route(message: FromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        await this.postConnectionState();
        for (const queued of this.queue.splice(0)) void this.view?.webview.postMessage(queued);
        return;
      case 'action/run':
        if (message.action === 'setApiKey') await vscode.commands.executeCommand(commandIds.setApiKey);
        else if (message.action === 'showLog') await vscode.commands.executeCommand(commandIds.showLog);
        else await vscode.commands.executeCommand('workbench.action.openSettings', 'cadenza');
        return;
      default:
        this.host.log.debug(`Chat panel message ${message.type} is not handled yet.`);
        return;
    }
  }

  private async postConnectionState(): Promise<void> {
    const hasKey = (await this.host.apiKey.get()) !== undefined;
    this.post({ type: 'state/connection', state: { baseUrl: readSettings().baseUrl, hasKey } });
  }

  /** Sends a message now, or queues it until the webview is ready. */
  post(message: ToWebview): void {
    if (this.view && this.ready) void this.view.webview.postMessage(message);
    else this.queue.push(message);
  }

  private disposeView(): void {
    for (const disposable of this.viewDisposables.splice(0)) disposable.dispose();
    this.view = undefined;
    this.ready = false;
  }

  dispose(): void {
    this.disposeView();
    this.resolvedEmitter.dispose();
  }
}
