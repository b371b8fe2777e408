// Checkpoints of agent turns: the contents a turn's edits replaced, kept in the extension's own storage
// (never the user's git), so "Restore to before this turn" can put them back. A checkpoint is a small
// JSON file naming, per file, the sha256 of its text before and after the turn; the texts live once each
// under `blobs/<sha256>` (a file edited in 100 turns stores each distinct version once, and an unchanged
// file costs nothing). Writes go to a temporary file and are renamed, so a crash never leaves half a file.
// Every window shares the store, so a checkpoint records the workspace folders its turn ran in, and a
// window prunes only its own (checkpointPlace.ts).
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { FolderRoot } from '../tools/workspacePaths';
import { checkpointPlace } from './checkpointPlace';

/** One file a turn changed: its text before (null: it did not exist) and after (null: it was gone), as blob hashes. */
export interface CheckpointFile {
  /** Workspace-relative, forward slashes, as the agent's port names it. */
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** The files one agent turn changed, as they were before it. */
export interface Checkpoint {
  readonly id: string;
  readonly conversationId: string;
  /** The assistant message that closes the turn (the panel shows the checkpoint under it). */
  readonly messageId: string;
  readonly createdAt: number;
  /**
   * The workspace folders the turn ran in: its paths mean files there only. Absent in checkpoints recorded
   * before folders were kept, which no window can tell is its own.
   */
  readonly folders?: readonly FolderRoot[];
  readonly files: readonly CheckpointFile[];
}

/**
 * What pruning keeps of one workspace's checkpoints: those younger than `maxAgeDays`, newest first while
 * together they stay under `maxBytes`.
 */
export interface PrunePolicy {
  readonly maxAgeDays: number;
  readonly maxBytes: number;
}

/** What the store holds on disk. */
export interface CheckpointUsage {
  readonly checkpoints: number;
  readonly blobs: number;
  /** Checkpoint files and blobs together. */
  readonly bytes: number;
}

/**
 * The age after which a checkpoint recorded before folders were kept is pruned. No window can tell such a
 * checkpoint is its own, so no workspace's settings decide for it: it goes at the setting's default age
 * (cadenza.agent.checkpoints.maxAgeDays, 30 days), and no size budget counts it.
 */
export const unscopedMaxAgeDays = 30;

/** The sha256 of a text, as its blob's name. */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const idPattern = /^[A-Za-z0-9-]{1,64}$/;
const hashPattern = /^[0-9a-f]{64}$/;

function isCheckpoint(value: unknown): value is Checkpoint {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const files = record['files'];
  const folders = record['folders'];
  // Damaged folders must not read as "recorded before folders were kept".
  const foldersValid =
    folders === undefined ||
    (Array.isArray(folders) &&
      folders.every((folder: unknown) => {
        if (typeof folder !== 'object' || folder === null) return false;
        const entry = folder as Record<string, unknown>;
        return typeof entry['name'] === 'string' && typeof entry['fsPath'] === 'string';
      }));
  return (
    foldersValid &&
    typeof record['id'] === 'string' &&
    typeof record['conversationId'] === 'string' &&
    typeof record['messageId'] === 'string' &&
    typeof record['createdAt'] === 'number' &&
    Array.isArray(files) &&
    files.every((file: unknown) => {
      if (typeof file !== 'object' || file === null) return false;
      const entry = file as Record<string, unknown>;
      const hash = (h: unknown): boolean => h === null || (typeof h === 'string' && hashPattern.test(h));
      return typeof entry['path'] === 'string' && hash(entry['before']) && hash(entry['after']);
    })
  );
}

async function writeAtomic(file: string, data: string): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  await fs.writeFile(temporary, data, 'utf8');
  await fs.rename(temporary, file);
}

async function sizeOf(file: string): Promise<number> {
  return fs.stat(file).then(
    (stat) => stat.size,
    () => 0,
  );
}

/** The checkpoints of every conversation, in one folder. */
export class CheckpointStore {
  private readonly blobDir: string;
  private readonly checkpointDir: string;

  constructor(readonly root: string) {
    this.blobDir = path.join(root, 'blobs');
    this.checkpointDir = path.join(root, 'turns');
  }

  /** Stores a text once (by its hash) and returns the hash. */
  async putText(text: string): Promise<string> {
    const hash = textHash(text);
    const file = path.join(this.blobDir, hash);
    if (
      await fs.access(file).then(
        () => true,
        () => false,
      )
    )
      return hash;
    await fs.mkdir(this.blobDir, { recursive: true });
    await writeAtomic(file, text);
    return hash;
  }

  /** The text of a blob; undefined when it is gone (pruned) or damaged (its hash no longer matches). */
  async getText(hash: string): Promise<string | undefined> {
    if (!hashPattern.test(hash)) return undefined;
    const text = await fs.readFile(path.join(this.blobDir, hash), 'utf8').catch(() => undefined);
    return text !== undefined && textHash(text) === hash ? text : undefined;
  }

  /** Saves a checkpoint (its blobs must be stored first). */
  async save(checkpoint: Checkpoint): Promise<void> {
    if (!idPattern.test(checkpoint.id)) throw new Error(`bad checkpoint id ${checkpoint.id}`);
    await fs.mkdir(this.checkpointDir, { recursive: true });
    await writeAtomic(path.join(this.checkpointDir, `${checkpoint.id}.json`), JSON.stringify(checkpoint));
  }

  /** A checkpoint by id; undefined when pruned or unreadable. */
  async load(id: string): Promise<Checkpoint | undefined> {
    if (!idPattern.test(id)) return undefined;
    const text = await fs.readFile(path.join(this.checkpointDir, `${id}.json`), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(text);
      return isCheckpoint(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every readable checkpoint, oldest first. */
  async list(): Promise<Checkpoint[]> {
    const names = await fs.readdir(this.checkpointDir).catch(() => [] as string[]);
    const loaded = await Promise.all(names.filter((name) => name.endsWith('.json')).map((name) => this.load(name.slice(0, -5))));
    return loaded.filter((entry): entry is Checkpoint => entry !== undefined).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Removes one checkpoint (its blobs go at the next prune when nothing else needs them). */
  async remove(id: string): Promise<void> {
    if (!idPattern.test(id)) return;
    await fs.rm(path.join(this.checkpointDir, `${id}.json`), { force: true });
  }

  /**
   * Prunes the checkpoints of the window with `workspace` open by its policy: those older than its age,
   * then the oldest until the rest (with the blobs they need) fit in its size. Other workspaces' checkpoints
   * are left to their own windows (a workspace's settings never prune another project's); those recorded
   * before folders were kept go at `unscopedMaxAgeDays`. Then every blob no remaining checkpoint needs is
   * deleted. Returns the ids removed.
   */
  async prune(policy: PrunePolicy, workspace: readonly FolderRoot[], now = Date.now()): Promise<string[]> {
    const all = await this.list();
    const removed: string[] = [];
    const cutoff = now - policy.maxAgeDays * 86_400_000;
    const unscopedCutoff = now - unscopedMaxAgeDays * 86_400_000;
    const kept: Checkpoint[] = [];
    /** Blobs that stay whatever this window's budget: other workspaces' and unscoped checkpoints need them. */
    const needed = new Set<string>();
    for (const checkpoint of all) {
      const place = checkpointPlace(checkpoint.folders, workspace).kind;
      if (place === 'here' ? checkpoint.createdAt < cutoff : place === 'unknown' && checkpoint.createdAt < unscopedCutoff) {
        removed.push(checkpoint.id);
      } else if (place === 'here') {
        kept.push(checkpoint);
      } else {
        for (const file of checkpoint.files) for (const hash of [file.before, file.after]) if (hash !== null) needed.add(hash);
      }
    }
    // Newest first: each adds its own file and the blobs no newer one already counted.
    const blobSizes = new Map<string, number>();
    const counted = new Set<string>();
    let total = 0;
    let survivors = 0;
    for (const checkpoint of [...kept].reverse()) {
      let cost = JSON.stringify(checkpoint).length;
      const fresh: string[] = [];
      for (const file of checkpoint.files) {
        for (const hash of [file.before, file.after]) {
          if (hash === null || counted.has(hash) || fresh.includes(hash)) continue;
          let size = blobSizes.get(hash);
          if (size === undefined) {
            size = await sizeOf(path.join(this.blobDir, hash));
            blobSizes.set(hash, size);
          }
          cost += size;
          fresh.push(hash);
        }
      }
      if (survivors > 0 && total + cost > policy.maxBytes) {
        removed.push(checkpoint.id);
        continue;
      }
      // The newest checkpoint is always kept, whatever its size: it is the one the user is most likely to need.
      total += cost;
      for (const hash of fresh) counted.add(hash);
      survivors += 1;
    }
    for (const id of removed) await this.remove(id);
    const blobs = await fs.readdir(this.blobDir).catch(() => [] as string[]);
    for (const name of blobs) {
      if (!counted.has(name) && !needed.has(name)) await fs.rm(path.join(this.blobDir, name), { force: true });
    }
    return removed;
  }

  /** What the store takes on disk now. */
  async usage(): Promise<CheckpointUsage> {
    const count = async (dir: string): Promise<{ files: number; bytes: number }> => {
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      const sizes = await Promise.all(names.map((name) => sizeOf(path.join(dir, name))));
      return { files: names.length, bytes: sizes.reduce((sum, size) => sum + size, 0) };
    };
    const turns = await count(this.checkpointDir);
    const blobs = await count(this.blobDir);
    return { checkpoints: turns.files, blobs: blobs.files, bytes: turns.bytes + blobs.bytes };
  }
}
