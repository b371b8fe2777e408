// Records one agent turn's checkpoint: it sits between the agent's tools and the workspace port, and the
// first time the turn changes a file it keeps that file's text as it was (the edit's expected text, or
// "did not exist" for a new file). At the end of the turn the texts after are read, and the checkpoint is
// stored only when something changed. Commands (run_in_terminal) are not seen here: what a command
// changes on disk is not in the checkpoint, and the panel says so.
import { randomUUID } from 'node:crypto';
import type { CheckpointFile, Checkpoint, CheckpointStore } from './checkpoints';
import type { FileEdit, WorkspacePort } from '../tools/workspacePort';
import type { FolderRoot } from '../tools/workspacePaths';

/** How a turn changed a file, as the panel lists it. */
export type CheckpointChange = 'edited' | 'created' | 'deleted';

/** A recorded checkpoint as the conversation keeps it (the texts stay in the store). */
export interface CheckpointSummary {
  readonly id: string;
  readonly files: readonly { readonly path: string; readonly change: CheckpointChange }[];
  /** The workspace folders the turn ran in (so the panel of another window can say where it belongs). */
  readonly folders: readonly FolderRoot[];
}

/** How a file in a checkpoint was changed by its turn. */
function changeOf(file: CheckpointFile): CheckpointChange {
  return file.before === null ? 'created' : file.after === null ? 'deleted' : 'edited';
}

/** The files of one turn, before it changed them. */
export class TurnRecorder {
  /** Path → text before the turn (null: did not exist), in the order first changed. */
  private readonly before = new Map<string, string | null>();

  /** `folders`: the workspace folders the turn runs in, recorded with its checkpoint. */
  constructor(
    private readonly store: CheckpointStore,
    private readonly conversationId: string,
    readonly folders: readonly FolderRoot[],
  ) {}

  /** Whether the turn changed any file so far. */
  get changed(): boolean {
    return this.before.size > 0;
  }

  /** The port with its changing functions recorded; everything else passes through unchanged. */
  wrap(port: WorkspacePort): WorkspacePort {
    const before = this.before;
    // A Proxy keeps every other method (and its `this`) of the real port, optional ones included.
    return new Proxy(port, {
      get(target, property, receiver): unknown {
        if (property === 'editFile') {
          return async (edit: FileEdit, signal: AbortSignal): Promise<void> => {
            await target.editFile(edit, signal);
            if (!before.has(edit.path)) before.set(edit.path, edit.expectedText);
          };
        }
        if (property === 'createFile') {
          return async (path: string, content: string, signal: AbortSignal): Promise<void> => {
            await target.createFile(path, content, signal);
            if (!before.has(path)) before.set(path, null);
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /**
   * Stores the checkpoint when the turn changed something: the texts before, and after as `readNow` gives
   * them (undefined: the file is gone). Resolves with what the conversation keeps, or undefined.
   */
  async finish(
    messageId: string,
    readNow: (path: string) => Promise<string | undefined>,
  ): Promise<{ checkpoint: Checkpoint; summary: CheckpointSummary } | undefined> {
    if (this.before.size === 0) return undefined;
    const files: CheckpointFile[] = [];
    for (const [path, text] of this.before) {
      const now = await readNow(path);
      const before = text === null ? null : await this.store.putText(text);
      const after = now === undefined ? null : await this.store.putText(now);
      files.push({ path, before, after });
    }
    const folders = this.folders.map((folder) => ({ name: folder.name, fsPath: folder.fsPath }));
    const checkpoint: Checkpoint = { id: randomUUID(), conversationId: this.conversationId, messageId, createdAt: Date.now(), folders, files };
    await this.store.save(checkpoint);
    return { checkpoint, summary: { id: checkpoint.id, files: files.map((file) => ({ path: file.path, change: changeOf(file) })), folders } };
  }
}

/** What restoring a checkpoint would do to one file. */
export interface RestoreStep {
  readonly path: string;
  /** The text to put back; null: the turn created the file, so it is deleted. */
  readonly text: string | null;
  /** The file changed after the turn (by the user, a command, another turn): restoring overwrites that. */
  readonly changedSince: boolean;
  /** The file exists now. */
  readonly existsNow: boolean;
}

/**
 * Plans a restore: for each file, the text before the turn and whether its text now differs from the turn's
 * result (which the user is shown before anything is overwritten). Throws when a text it needs was pruned.
 */
export async function planRestore(
  store: CheckpointStore,
  checkpoint: Checkpoint,
  readNow: (path: string) => Promise<string | undefined>,
): Promise<RestoreStep[]> {
  const steps: RestoreStep[] = [];
  for (const file of checkpoint.files) {
    const text = file.before === null ? null : await store.getText(file.before);
    if (text === undefined) throw new Error(`The text of ${file.path} before this turn is no longer stored.`);
    const now = await readNow(file.path);
    const after = file.after === null ? undefined : await store.getText(file.after);
    const changedSince = file.after === null ? now !== undefined : after === undefined || now !== after;
    steps.push({ path: file.path, text, changedSince, existsNow: now !== undefined });
  }
  return steps;
}
