// Checkpoints of agent turns in VS Code: the store under the extension's global storage (beside the
// conversations, never in the user's git), a recorder per turn, the multi-file diff of what a turn changed
// (`vscode.changes`, texts served from the store under the `cadenza-checkpoint` scheme), and "Restore to
// before this turn" as one WorkspaceEdit (one step to undo), after asking when a file changed since.
// The store is shared by every window, so a checkpoint records the folders its turn ran in: only a window
// with those folders restores it (core/chat/checkpointPlace.ts) or prunes it, and never in Restricted Mode.
import * as vscode from 'vscode';
import { checkpointPlace } from '../../core/chat/checkpointPlace';
import { CheckpointStore } from '../../core/chat/checkpoints';
import { planRestore, TurnRecorder, type CheckpointSummary, type RestoreStep } from '../../core/chat/checkpointRecorder';
import type { Logger } from '../../core/logger';
import type { FolderRoot } from '../../core/tools/workspacePaths';
import { guardedSetting } from '../settings';
import { changesTitle, elsewhereMessage, restoreDetail, restoreQuestion } from './checkpointTexts';
import { folderRoots, resolveTarget } from './portSupport';

/** The scheme of stored texts (read-only virtual documents: `/<hash>/<path>`; `-` for no file is an empty text). */
export const checkpointScheme = 'cadenza-checkpoint';

/** How a restore ended (`refused`: Restricted Mode, or another window's checkpoint). */
export type RestoreOutcome = 'restored' | 'cancelled' | 'missing' | 'refused' | 'failed';

/** The pruning policy from `cadenza.agent.checkpoints.*`; a workspace may only keep more, never delete more (settingRules.ts). */
export function readCheckpointPolicy(): { maxAgeDays: number; maxBytes: number } {
  return {
    maxAgeDays: guardedSetting('agent.checkpoints.maxAgeDays'),
    maxBytes: guardedSetting('agent.checkpoints.maxMegabytes') * 1024 * 1024,
  };
}

/**
 * The text of a workspace file now: the open editor's when it has unsaved changes, else the disk's;
 * undefined when it does not exist. A saved document of a file deleted since (by a terminal, another
 * program) still holds its text, but the file is gone: the disk decides.
 */
export async function currentText(path: string): Promise<string | undefined> {
  const target = await resolveTarget(path);
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === target.uri.toString());
  if (open && !open.isClosed && open.isDirty) return open.getText();
  const bytes = await vscode.workspace.fs.readFile(target.uri).then(
    (data) => data,
    () => undefined,
  );
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** The checkpoints of this window's agent turns. */
export class CheckpointService implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly store: CheckpointStore;
  private readonly registration: vscode.Disposable;
  /** Prunes and records run one after another, so a prune never removes the blobs of a checkpoint being written. */
  private queue: Promise<unknown> = Promise.resolve();

  /** `isTrusted`: the workspace's trust as the agent sees it (the tests' override included). */
  constructor(
    storageRoot: vscode.Uri,
    private readonly log: Logger,
    private readonly isTrusted: () => boolean,
  ) {
    this.store = new CheckpointStore(vscode.Uri.joinPath(storageRoot, 'checkpoints').fsPath);
    this.registration = vscode.workspace.registerTextDocumentContentProvider(checkpointScheme, this);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const hash = uri.path.split('/')[1] ?? '-';
    return hash === '-' ? '' : ((await this.store.getText(hash)) ?? '');
  }

  /** A recorder for one agent turn of `conversationId`, in this window's folders. */
  recorder(conversationId: string): TurnRecorder {
    return new TurnRecorder(this.store, conversationId, folderRoots());
  }

  /** Stores a turn's checkpoint (when it changed files) and prunes this workspace's by the settings; never throws. */
  finish(recorder: TurnRecorder, messageId: string): Promise<CheckpointSummary | undefined> {
    if (!recorder.changed) return Promise.resolve(undefined);
    const run = this.queue.then(async () => {
      try {
        const done = await recorder.finish(messageId, (path) => currentText(path).catch(() => undefined));
        // Only this workspace's: a workspace's settings never prune another project's checkpoints.
        const removed = await this.store.prune(readCheckpointPolicy(), recorder.folders);
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
      void vscode.window.showWarningMessage(vscode.l10n.t('This checkpoint is no longer stored (pruned by cadenza.agent.checkpoints.*).'));
      return false;
    }
    const uri = (hash: string | null, path: string): vscode.Uri => vscode.Uri.from({ scheme: checkpointScheme, path: `/${hash ?? '-'}/${path}` });
    const resources: [vscode.Uri, vscode.Uri, vscode.Uri][] = [];
    for (const file of checkpoint.files) {
      const target = await resolveTarget(file.path).catch(() => undefined);
      if (!target) continue;
      resources.push([target.uri, uri(file.before, file.path), uri(file.after, file.path)]);
    }
    const title = changesTitle(checkpoint.files.length);
    try {
      await vscode.commands.executeCommand('vscode.changes', title, resources);
    } catch {
      // Older VS Code without the multi-diff editor: one diff per file.
      for (const [, before, after] of resources)
        await vscode.commands.executeCommand('vscode.diff', before, after, `${title}: ${before.path.split('/').slice(2).join('/')}`, { preview: false });
    }
    return true;
  }

  /**
   * Puts every file of the checkpoint back as it was before its turn, in one WorkspaceEdit (one undo).
   * Files that changed after the turn are named first, and nothing happens unless the user confirms.
   * Refused in Restricted Mode, and in a window without the folders the turn ran in (its paths would
   * name this window's files); a checkpoint recorded before folders were kept asks, naming that doubt.
   */
  async restore(id: string): Promise<RestoreOutcome> {
    if (!this.isTrusted()) {
      const manage = vscode.l10n.t('Manage Workspace Trust');
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t(
            'Restricted Mode: Cadenza does not restore checkpoints in a workspace you have not trusted (a restore writes and deletes files). Trust the workspace to restore; nothing was restored.',
          ),
          manage,
        )
        .then((choice) => (choice === manage ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
      return 'refused';
    }
    const checkpoint = await this.store.load(id);
    if (!checkpoint) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('This checkpoint is no longer stored (pruned by cadenza.agent.checkpoints.*); nothing was restored.'),
      );
      return 'missing';
    }
    const open = folderRoots();
    const place = checkpointPlace(checkpoint.folders, open);
    if (place.kind === 'elsewhere') {
      this.refuseElsewhere(place.folders, open);
      return 'refused';
    }
    if (open.length === 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          "No folder is open in this window, so there is nowhere to restore this turn's files: open the project's folder first; nothing was restored.",
        ),
      );
      return 'refused';
    }
    let steps: RestoreStep[];
    try {
      steps = await planRestore(this.store, checkpoint, (path) => currentText(path).catch(() => undefined));
    } catch (error) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Nothing was restored: {0}', error instanceof Error ? error.message : String(error)));
      return 'missing';
    }
    // Recorded before checkpoints kept their folders: no window can tell it is its own. Restoring silently
    // could write another project's texts here, refusing would strand every earlier turn: the user decides,
    // told of the doubt, with a button that says where the files go.
    const unknown = place.kind === 'unknown';
    const question = restoreQuestion(steps, unknown, open);
    const restore = unknown ? vscode.l10n.t('Restore Here') : vscode.l10n.t('Restore');
    const answer = await vscode.window.showWarningMessage(question, { modal: true, detail: restoreDetail(steps) }, restore);
    if (answer !== restore) return 'cancelled';
    const edit = new vscode.WorkspaceEdit();
    const metadata = { label: vscode.l10n.t('Cadenza: restore checkpoint'), needsConfirmation: false };
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
      void vscode.window.showErrorMessage(vscode.l10n.t('VS Code did not apply the restore; no file was changed.'));
      return 'failed';
    }
    // Saved so the disk matches, as the agent's own edits are.
    for (const uri of toSave) await vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString())?.save();
    this.log.info(`Checkpoint ${id}: restored ${steps.length} file(s).`);
    return 'restored';
  }

  /** Says where a checkpoint of another window belongs, offering to open its folder when that is one folder. */
  private refuseElsewhere(recorded: readonly FolderRoot[], open: readonly FolderRoot[]): void {
    const message = elsewhereMessage(recorded, open);
    const only = recorded.length === 1 ? recorded[0] : undefined;
    const openFolder = vscode.l10n.t('Open Folder in New Window');
    void vscode.window.showWarningMessage(message, ...(only ? [openFolder] : [])).then((choice) => {
      if (choice === openFolder && only) void vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(only.fsPath), { forceNewWindow: true });
    });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
