// The editor's diff view of an edit the agent proposes: the file as it is and as it would be, served
// from memory under the `cadenza-agent` scheme while the user decides, and closed once they have.
import * as vscode from 'vscode';
import type { ChangePreview } from '../../core/tools/toolTypes';

/** The scheme of the proposed texts (read-only virtual documents). */
export const agentPreviewScheme = 'cadenza-agent';

/** A proposal the diff view can show: an edit (the file before and after) or a new file (against nothing). */
type EditPreview = Extract<ChangePreview, { kind: 'edit' | 'create' }>;

/** Serves and shows proposed edits, keyed by the call's id. */
export class EditPreviews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly previews = new Map<string, EditPreview>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration: vscode.Disposable;
  readonly onDidChange = this.changed.event;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(agentPreviewScheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Remembers a proposal so "Show diff" can open it while its card waits. */
  remember(callId: string, preview: EditPreview): void {
    this.previews.set(callId, preview);
  }

  /** Opens the diff of a remembered proposal beside the active editor (or in the first group), without taking focus from the panel. */
  async show(callId: string): Promise<boolean> {
    const preview = this.previews.get(callId);
    if (!preview) return false;
    const [before, after] = this.uris(callId, preview.path);
    this.set(before, preview.kind === 'edit' ? preview.before : '');
    this.set(after, preview.kind === 'edit' ? preview.after : preview.content);
    await vscode.commands.executeCommand(
      'vscode.diff',
      before,
      after,
      preview.kind === 'create' ? vscode.l10n.t('Cadenza proposes: {0} (new file)', preview.path) : vscode.l10n.t('Cadenza proposes: {0}', preview.path),
      {
        preview: true,
        viewColumn: vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
        preserveFocus: true,
      },
    );
    return true;
  }

  /** Forgets a proposal and closes its diff if it is open. */
  async forget(callId: string): Promise<void> {
    const preview = this.previews.get(callId);
    this.previews.delete(callId);
    if (!preview) return;
    const uris = this.uris(callId, preview.path).map((uri) => uri.toString());
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && uris.includes(tab.input.modified.toString()));
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => false);
    for (const uri of uris) this.texts.delete(uri);
  }

  private uris(callId: string, path: string): [vscode.Uri, vscode.Uri] {
    const id = encodeURIComponent(callId);
    return [
      vscode.Uri.from({ scheme: agentPreviewScheme, path: `/${id}/current/${path}` }),
      vscode.Uri.from({ scheme: agentPreviewScheme, path: `/${id}/proposed/${path}` }),
    ];
  }

  private set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.texts.clear();
    this.previews.clear();
  }
}
