// Who uses each vector slot of the index store: the chunk hash it holds, how many chunks refer to it and
// which files those are, so a search hit maps to its chunks in O(1) and compaction knows what is garbage.
import type { FileRecord } from '../types';

/** Per slot of the vector arena: its hash, its reference count and the files that use it. */
export class SlotUsers {
  private readonly hashes: (string | undefined)[] = [];
  private readonly counts: number[] = [];
  /** Per slot, the files whose chunks use it (usually one). */
  private readonly files: (FileRecord[] | undefined)[] = [];
  /** Slots at least one file refers to, kept up to date by `reference`. */
  private liveSlots = 0;

  /** `slot` now holds the vector of `hash` (not yet referred to). */
  bind(hash: string, slot: number): void {
    this.hashes[slot] = hash;
    this.counts[slot] ??= 0;
  }

  /** `slot` was freed: it holds nothing and nobody uses it. */
  release(slot: number): void {
    this.hashes[slot] = undefined;
    this.files[slot] = undefined;
  }

  /** Forgets every reference (before counting them again from the files). */
  clear(): void {
    this.counts.fill(0);
    this.files.length = 0;
    this.liveSlots = 0;
  }

  /** `file` starts (`delta` 1) or stops (-1) using `slot` once more. */
  reference(slot: number, delta: number, file: FileRecord): void {
    const users = this.files[slot];
    if (delta > 0) {
      if (!users) this.files[slot] = [file];
      else if (!users.includes(file)) users.push(file);
    } else if (users) {
      const at = users.indexOf(file);
      if (at >= 0) users.splice(at, 1);
      if (users.length === 0) this.files[slot] = undefined;
    }
    const before = this.counts[slot] ?? 0;
    const after = before + delta;
    this.counts[slot] = after;
    if (before <= 0 && after > 0) this.liveSlots++;
    else if (before > 0 && after <= 0) this.liveSlots--;
  }

  /** Whether some file refers to `slot`. */
  isUsed(slot: number): boolean {
    return (this.counts[slot] ?? 0) > 0;
  }

  /** How many slots some file refers to. */
  get live(): number {
    return this.liveSlots;
  }

  /** Every chunk (file path and line range) whose vector is in `slot`. */
  locations(slot: number): { path: string; startLine: number; endLine: number }[] {
    const hash = this.hashes[slot];
    const out: { path: string; startLine: number; endLine: number }[] = [];
    for (const file of this.files[slot] ?? []) {
      for (const chunk of file.chunks) if (chunk.hash === hash) out.push({ path: file.path, startLine: chunk.startLine, endLine: chunk.endLine });
    }
    return out;
  }
}
