// The one way the host talks to the chat panel. It exists before anything that posts (activate() creates it
// first and hands it to every constructor that needs the panel), so nothing waits for a view to be attached:
// the view comes and goes with the panel (connect, disconnect), and what is posted meanwhile waits here.
import * as vscode from 'vscode';
import type { ToWebview } from '../../shared/protocol';

/** Posts to the panel's webview: everything waits until the webview said `ready`, except the live deltas. */
export class PanelChannel implements vscode.Disposable {
  private webview: vscode.Webview | undefined;
  private ready = false;
  private queue: ToWebview[] = [];
  private readonly posting = new vscode.EventEmitter<ToWebview>();
  private readonly delivered = new vscode.EventEmitter<ToWebview>();

  /** Fires for every message as it is posted, before it is delivered or queued (the edit allowance ends when another conversation is shown). */
  readonly onWillPost = this.posting.event;
  /** Fires for every message delivered to the webview (tests observe the panel's traffic). */
  readonly onDidPost = this.delivered.event;

  /** Whether the webview is there and said `ready`. */
  get isReady(): boolean {
    return this.webview !== undefined && this.ready;
  }

  /** Whether a webview is there (ready or not). */
  get isConnected(): boolean {
    return this.webview !== undefined;
  }

  /** The panel's webview was resolved: messages wait for its `ready`. */
  connect(webview: vscode.Webview): void {
    this.webview = webview;
    this.ready = false;
  }

  /** The panel's webview went away: messages wait for the next one. */
  disconnect(): void {
    this.webview = undefined;
    this.ready = false;
  }

  /** The webview said `ready`: `first` is delivered, then everything that waited, in order. */
  markReady(first: readonly ToWebview[] = []): void {
    this.ready = true;
    for (const message of [...first, ...this.queue.splice(0)]) this.deliver(message);
  }

  /** Sends a message now, or queues it until the webview is ready. */
  post(message: ToWebview): void {
    this.posting.fire(message);
    if (this.isReady) this.deliver(message);
    else if (message.type !== 'chat/delta' && message.type !== 'chat/reasoning') this.queue.push(message);
    // Deltas are not queued: a hidden panel gets the whole answer from `conversation/show` on `ready`.
  }

  private deliver(message: ToWebview): void {
    void this.webview?.postMessage(message);
    this.delivered.fire(message);
  }

  dispose(): void {
    this.posting.dispose();
    this.delivered.dispose();
  }
}
