// Checkpoints of agent turns in VS Code: the store under the extension's global storage (beside the
// conversations, never in the user's git), a recorder per turn, the multi-file diff of what a turn changed
// (`vscode.changes`, texts served from the store under the `cadenza-checkpoint` scheme), and "Restore to
// before this turn" as one WorkspaceEdit (one step to undo), after asking when a file changed since.
import * as vscode from 'vscode';
import { CheckpointStore } from '../../core/chat/checkpoints';
import { planRestore, TurnRecorder, type CheckpointSummary, type RestoreStep } from '../../core/chat/checkpointRecorder';
import type { Logger } from '../../core/logger';
import { guardedSetting } from '../settings';
import { resolveTarget } from './portSupport';

/** The scheme of stored texts (read-only virtual documents: `/<hash>/<path>`; `-` for no file is an empty text). */
export const checkpointScheme = 'cadenza-checkpoint';

/** How a restore ended. */
export type RestoreOutcome = 'restored' | 'cancelled' | 'missing' | 'failed';

/** The pruning policy from `cadenza.agent.checkpoints.*`; a workspace may only keep more, never delete more (settingRules.ts). */
export function readCheckpointPolicy(): { maxAgeDays: number; maxBytes: number } {
  return {
    maxAgeDays: guardedSetting('agent.checkpoints.maxAgeDays'),
    maxBytes: guardedSetting('agent.checkpoints.maxMegabytes') * 1024 * 1024,
  };
}

/** The text of a workspace file now: the open editor's (unsaved changes included), else the disk's; undefined when it does not exist. */
export async function currentText(path: string): Promise<string | undefined> {
  const target = await resolveTarget(path);
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === target.uri.toString());
  if (open && !open.isClosed) return open.getText();
  const bytes = await vscode.workspace.fs.readFile(target.uri).then((data) => data, () => undefined);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** The checkpoints of this window's agent turns. */
export class CheckpointService implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly store: CheckpointStore;
  private readonly registration: vscode.Disposable;
  /** Prunes and records run one after another, so a prune never removes the blobs of a checkpoint being written. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(storageRoot: vscode.Uri, private readonly log: Logger) {
    this.store = new CheckpointStore(vscode.Uri.joinPath(storageRoot, 'checkpoints').fsPath);
    this.registration = vscode.workspace.registerTextDocumentContentProvider(checkpointScheme, this);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const hash = uri.path.split('/')[1] ?? '-';
    return hash === '-' ? '' : (await this.store.getText(hash)) ?? '';
  }

  /** A recorder for one agent turn of `conversationId`. */
  recorder(conversationId: string): TurnRecorder {
    return new TurnRecorder(this.store, conversationId);
  }

  /** Stores a turn's checkpoint (when it changed files) and prunes by the settings; never throws. */
  finish(recorder: TurnRecorder, messageId: string): Promise<CheckpointSummary | undefined> {
    if (!recorder.changed) return Promise.resolve(undefined);
    const run = this.queue.then(async () => {
      try {
        const done = await recorder.finish(messageId, (path) => currentText(path).catch(() => undefined));
        const removed = await this.store.prune(readCheckpointPolicy());
        if (removed.length > 0) this.log.info(`Checkpoints: pruned ${removed.length} by age or size (cadenza.agent.checkpoints.*).`);
        return done?.summary;
      } catch (error) {
        this.log.warn(`Checkpoint not recorded: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
    });
    this.queue = run;
    return run;
  }

  /** Opens what the turn changed as one multi-file diff (before the turn ↔ after it). */
  async showChanges(id: string): Promise<boolean> {
    const checkpoint = await this.store.load(id);
    if (!checkpoint) {
      void vscode.window.showWarningMessage('This checkpoint is no longer stored (pruned by cadenza.agent.checkpoints.*).');
      return false;
    }
    const uri = (hash: string | null, path: string): vscode.Uri => vscode.Uri.from({ scheme: checkpointScheme, path: `/${hash ?? '-'}/${path}` });
    const resources: [vscode.Uri, vscode.Uri, vscode.Uri][] = [];
    for (const file of checkpoint.files) {
      const target = await resolveTarget(file.path).catch(() => undefined);
      if (!target) continue;
      resources.push([target.uri, uri(file.before, file.path), uri(file.after, file.path)]);
    }
    const title = `Cadenza: changes of one agent turn (${checkpoint.files.length} file${checkpoint.files.length === 1 ? '' : 's'})`;
    try {
      await vscode.commands.executeCommand('vscode.changes', title, resources);
    } catch {
      // Older VS Code without the multi-diff editor: one diff per file.
      for (const [, before, after] of resources) await vscode.commands.executeCommand('vscode.diff', before, after, `${title}: ${before.path.split('/').slice(2).join('/')}`, { preview: false });
    }
    return true;
  }

  /**
   * Puts every file of the checkpoint back as it was before its turn, in one WorkspaceEdit (one undo).
   * Files that changed after the turn are named first, and nothing happens unless the user confirms.
   */
  async restore(id: string): Promise<RestoreOutcome> {
    const checkpoint = await this.store.load(id);
    if (!checkpoint) {
      void vscode.window.showWarningMessage('This checkpoint is no longer stored (pruned by cadenza.agent.checkpoints.*); nothing was restored.');
      return 'missing';
    }
    let steps: RestoreStep[];
    try {
      steps = await planRestore(this.store, checkpoint, (path) => currentText(path).catch(() => undefined));
    } catch (error) {
      void vscode.window.showWarningMessage(`Nothing was restored: ${error instanceof Error ? error.message : String(error)}`);
      return 'missing';
    }
    const changed = steps.filter((step) => step.changedSince);
    const names = (list: readonly RestoreStep[]): string => list.map((step) => step.path).join(', ');
    const question = changed.length > 0
      ? `Restore ${steps.length} file${steps.length === 1 ? '' : 's'} to before this turn? These changed after the turn, and those changes will be overwritten: ${names(changed)}.`
      : `Restore ${steps.length} file${steps.length === 1 ? '' : 's'} to before this turn (${names(steps)})? You can undo it.`;
    const restore = 'Restore';
    const created = steps.filter((step) => step.text === null && step.existsNow);
    const detail = `${created.length > 0 ? `Files the turn created are deleted: ${names(created)}. ` : ''}Undo puts everything back in one step.`;
    const answer = await vscode.window.showWarningMessage(question, { modal: true, detail }, restore);
    if (answer !== restore) return 'cancelled';
    const edit = new vscode.WorkspaceEdit();
    const metadata = { label: 'Cadenza: restore checkpoint', needsConfirmation: false };
    const toSave: vscode.Uri[] = [];
    for (const step of steps) {
      const target = await resolveTarget(step.path);
      if (step.text === null) {
        if (step.existsNow) edit.deleteFile(target.uri, { ignoreIfNotExists: true }, metadata);
      } else if (!step.existsNow) {
        edit.createFile(target.uri, { overwrite: false, contents: new TextEncoder().encode(step.text) }, metadata);
      } else {
        const document = await vscode.workspace.openTextDocument(target.uri);
        edit.replace(target.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), step.text, metadata);
        toSave.push(target.uri);
      }
    }
    if (!(await vscode.workspace.applyEdit(edit))) {
      void vscode.window.showErrorMessage('VS Code did not apply the restore; no file was changed.');
      return 'failed';
    }
    // Saved so the disk matches, as the agent's own edits are.
    for (const uri of toSave) await vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString())?.save();
    this.log.info(`Checkpoint ${id}: restored ${steps.length} file(s).`);
    return 'restored';
  }

  dispose(): void {
    this.registration.dispose();
  }
}
