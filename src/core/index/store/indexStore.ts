import { silentLogger, type Logger } from '../../logger';
import type { FileRecord, LoadStatus } from '../types';
import { newGeneration, readSnapshot, writeSnapshot } from './format';
import { encodeRecords, Journal, type JournalRecord } from './journal';
import { SlotUsers } from './slotUsers';
import { nodeStoreIo, type StoreIo } from './storeIo';
import { VectorArena } from './vectorArena';

/** How the store is opened. `path` is the snapshot file; the journal lives beside it. */
export interface IndexStoreOptions {
  /** Snapshot file path, or undefined for a memory-only store (benchmarks, tests, unwritable storage). */
  readonly path: string | undefined;
  readonly modelId: string;
  /** Expected vector dimension when known (4,096 for E5-Mistral); otherwise the first vectors decide. */
  readonly dimension?: number | undefined;
  readonly logger?: Logger | undefined;
  readonly io?: StoreIo | undefined;
  readonly preferSimd?: boolean | undefined;
  /** Compact once the journal exceeds this many bytes and half the snapshot (default 8 MB). */
  readonly compactJournalBytes?: number | undefined;
}

/**
 * The index's durable state: complete file records and a pool of quantised vectors keyed by chunk
 * hash. Mutations apply in memory at once and become durable at the next `checkpoint` (a journal
 * append) or `compact` (a new snapshot). Vectors no file refers to are kept until compaction, so an
 * interrupted build, an undo of a delete or a rename never pays for the same embedding twice.
 */
export class IndexStore {
  private readonly fileMap = new Map<string, FileRecord>();
  private readonly slots = new Map<string, number>();
  private readonly users = new SlotUsers();
  private pendingRecords: Buffer[] = [];
  private pendingBytes = 0;
  private journal: Journal | undefined;
  private journalDimension = 0;
  private snapshotBytes = 0;
  private lastSync = 0;
  private dim: number;
  private vectorArena: VectorArena | undefined;
  private changes = 0;
  private writeFailed = false;
  /** Checkpoints and compactions run one at a time: two appends must never race for the same offset. */
  private serial: Promise<void> = Promise.resolve();
  private readonly logger: Logger;
  private readonly io: StoreIo;
  /** Chunker version the stored chunk boundaries were made with (see chunker.ts). */
  chunkerVersion = 0;

  private constructor(private readonly options: IndexStoreOptions) {
    this.logger = options.logger ?? silentLogger;
    this.io = options.io ?? nodeStoreIo;
    this.dim = options.dimension ?? 0;
  }

  /** Opens (or creates) the index at `options.path`; a bad file is discarded and reported, never thrown. */
  static async open(options: IndexStoreOptions): Promise<{ store: IndexStore; status: LoadStatus }> {
    const store = new IndexStore(options);
    const status = await store.load();
    return { store, status };
  }

  private get journalPath(): string | undefined {
    return this.options.path === undefined ? undefined : `${this.options.path}.journal`;
  }

  private async load(): Promise<LoadStatus> {
    const target = this.options.path;
    if (target === undefined) return { kind: 'created' };
    const read = await readSnapshot(this.io, target, { modelId: this.options.modelId, dimension: this.options.dimension, preferSimd: this.options.preferSimd });
    if (read.kind !== 'ok') {
      if (read.kind === 'discarded') this.logger.warn(`Index ${target} discarded (${read.reason}: ${read.detail}); rebuilding.`);
      await this.compactNow('all');
      return read.kind === 'missing' ? { kind: 'created' } : { kind: 'discarded', reason: read.reason, detail: read.detail };
    }
    const snap = read.snapshot;
    this.dim = snap.dimension;
    this.vectorArena = snap.arena;
    this.chunkerVersion = snap.chunkerVersion;
    this.snapshotBytes = snap.bytes;
    snap.vectorHashes.forEach((hash, slot) => this.bindSlot(hash, slot));
    for (const file of snap.files) this.fileMap.set(file.path, file);
    const journalPath = this.journalPath ?? '';
    const { journal, result } = await Journal.replay(this.io, journalPath, snap.generation, snap.dimension, (record) => this.replayRecord(record));
    if (result.ignored) this.logger.info(`Index journal ignored: ${result.ignored}.`);
    if (result.discardedBytes > 0)
      this.logger.warn(`Index journal: dropped a damaged tail of ${result.discardedBytes} bytes (an interrupted write); that work will be redone.`);
    this.recountReferences();
    if (journal) {
      this.journal = journal;
      this.journalDimension = snap.dimension;
    } else {
      await this.startJournal(snap.generation);
    }
    this.logger.info(`Index loaded: ${this.fileMap.size} files, ${this.slots.size} vectors, ${result.records} journal records.`);
    return { kind: 'loaded', files: this.fileMap.size, vectors: this.slots.size, journalRecords: result.records };
  }

  private replayRecord(record: JournalRecord): void {
    switch (record.type) {
      case 'vectors':
        for (const item of record.items) {
          if (this.slots.has(item.hash) || !(item.factor > 0)) continue;
          const arena = this.ensureArena(item.values.length);
          const slot = arena.allocate();
          arena.set(slot, item.values, item.factor);
          this.bindSlot(item.hash, slot);
        }
        break;
      case 'putFile':
        if (record.file.chunks.every((c) => this.slots.has(c.hash))) this.fileMap.set(record.file.path, record.file);
        else this.logger.warn(`Index journal: ${record.file.path} refers to missing vectors; it will be re-indexed.`);
        break;
      case 'deleteFile':
        this.fileMap.delete(record.path);
        break;
    }
  }

  private ensureArena(dimension: number): VectorArena {
    if (!this.vectorArena) {
      this.dim = dimension;
      this.vectorArena = new VectorArena(dimension, { preferSimd: this.options.preferSimd ?? true });
    }
    return this.vectorArena;
  }

  private bindSlot(hash: string, slot: number): void {
    this.slots.set(hash, slot);
    this.users.bind(hash, slot);
  }

  private recountReferences(): void {
    this.users.clear();
    for (const file of this.fileMap.values()) for (const chunk of file.chunks) this.reference(chunk.hash, 1, file);
  }

  private reference(hash: string, delta: number, file: FileRecord): void {
    const slot = this.slots.get(hash);
    if (slot !== undefined) this.users.reference(slot, delta, file);
  }

  private async startJournal(generation: string): Promise<void> {
    const journalPath = this.journalPath;
    if (journalPath === undefined) return;
    await this.journal?.close().catch(() => undefined);
    this.journal = await Journal.create(this.io, journalPath, generation, this.dim);
    this.journalDimension = this.dim;
  }

  /** Vector dimension, 0 until the first vector arrives. */
  get dimension(): number {
    return this.dim;
  }

  get modelId(): string {
    return this.options.modelId;
  }

  /** The vectors, or undefined while there are none. */
  get arena(): VectorArena | undefined {
    return this.vectorArena;
  }

  /** Bumped on every change; search caches compare it. */
  get version(): number {
    return this.changes;
  }

  get fileCount(): number {
    return this.fileMap.size;
  }

  get vectorCount(): number {
    return this.slots.size;
  }

  /** Bytes on disk (snapshot + journal), as of the last write. */
  get diskBytes(): number {
    return this.snapshotBytes + (this.journal?.bytes ?? 0);
  }

  /** False after a write failed; the index still works in memory and retries at the next compaction. */
  get writable(): boolean {
    return !this.writeFailed;
  }

  hasVector(hash: string): boolean {
    return this.slots.has(hash);
  }

  slotOf(hash: string): number | undefined {
    return this.slots.get(hash);
  }

  /** Whether a slot holds a vector some file refers to (orphans are kept but not searched). */
  isLive(slot: number): boolean {
    return this.users.isUsed(slot);
  }

  /** Every chunk (file path and line range) whose vector is in `slot`. */
  locations(slot: number): { path: string; startLine: number; endLine: number }[] {
    return this.users.locations(slot);
  }

  getFile(path: string): FileRecord | undefined {
    return this.fileMap.get(path);
  }

  files(): IterableIterator<FileRecord> {
    return this.fileMap.values();
  }

  /**
   * Quantises and adds vectors (already checked by the caller for count and dimension); returns the
   * hashes stored. A vector of the wrong length or with non-finite values is refused, never stored.
   */
  addVectors(items: readonly { readonly hash: string; readonly vector: ArrayLike<number> }[]): string[] {
    const stored: { hash: string; values: Int8Array; factor: number }[] = [];
    for (const item of items) {
      if (this.slots.has(item.hash)) continue;
      if ((this.dim !== 0 && item.vector.length !== this.dim) || item.vector.length === 0) continue;
      const arena = this.ensureArena(item.vector.length);
      const slot = arena.allocate();
      const factor = arena.setFloat(slot, item.vector);
      if (factor === 0) {
        arena.release(slot); // all zeros, NaN or infinity: never stored
        continue;
      }
      this.bindSlot(item.hash, slot);
      // A copy for the journal record: arena views die when the arena grows.
      stored.push({ hash: item.hash, values: this.options.path === undefined ? arena.row(slot) : arena.row(slot).slice(), factor });
    }
    if (stored.length > 0) this.queue({ type: 'vectors', items: stored });
    return stored.map((s) => s.hash);
  }

  /** Records a complete file; every chunk hash must already have a vector. */
  putFile(file: FileRecord): void {
    for (const chunk of file.chunks) if (!this.slots.has(chunk.hash)) throw new Error(`putFile ${file.path}: chunk without a vector`);
    const previous = this.fileMap.get(file.path);
    if (previous) for (const chunk of previous.chunks) this.reference(chunk.hash, -1, previous);
    for (const chunk of file.chunks) this.reference(chunk.hash, 1, file);
    this.fileMap.set(file.path, file);
    this.queue({ type: 'putFile', file });
  }

  /** Forgets a file; its vectors stay (unreferenced) until the next compaction. */
  deleteFile(path: string): boolean {
    const previous = this.fileMap.get(path);
    if (!previous) return false;
    for (const chunk of previous.chunks) this.reference(chunk.hash, -1, previous);
    this.fileMap.delete(path);
    this.queue({ type: 'deleteFile', path });
    return true;
  }

  private queue(record: JournalRecord): void {
    this.changes++;
    if (this.options.path === undefined) return;
    const encoded = encodeRecords([record], this.dim);
    this.pendingRecords.push(encoded);
    this.pendingBytes += encoded.length;
  }

  /** Takes the first `count` queued records (all by default) off the queue. */
  private takePending(count = this.pendingRecords.length): Buffer[] {
    const taken = this.pendingRecords.slice(0, count);
    this.pendingRecords = this.pendingRecords.slice(count);
    for (const b of taken) this.pendingBytes -= b.length;
    return taken;
  }

  /** Whether the journal or the garbage has grown enough that a new snapshot pays off. */
  shouldCompact(): boolean {
    const journalBytes = (this.journal?.bytes ?? 0) + this.pendingBytes;
    const limit = Math.max(this.options.compactJournalBytes ?? 8 * 1024 * 1024, this.snapshotBytes / 2);
    const garbage = this.slots.size - this.users.live;
    return journalBytes > limit || (garbage > 256 && garbage > this.slots.size / 4) || this.writeFailed || this.journalDimension !== this.dim;
  }

  /**
   * Makes queued changes durable by appending them to the journal; fsyncs when `sync` is set or a
   * second has passed since the last fsync (an OS crash may then lose up to a second of work, which
   * is simply redone). Falls back to compaction when the journal cannot take them.
   */
  checkpoint(options: { sync?: boolean } = {}): Promise<void> {
    return this.serially(() => this.checkpointNow(options));
  }

  /** Runs `work` after every write started before it (checkpoints and compactions never overlap). */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.serial.then(work);
    this.serial = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async checkpointNow(options: { sync?: boolean }): Promise<void> {
    if (this.options.path === undefined) return;
    if (!this.journal || this.journalDimension !== this.dim || this.writeFailed) {
      await this.compactNow('all');
      return;
    }
    if (this.pendingRecords.length > 0) {
      const pending = this.takePending();
      try {
        await this.journal.append(Buffer.concat(pending));
      } catch (error) {
        this.pendingRecords = pending.concat(this.pendingRecords);
        this.pendingBytes += pending.reduce((n, b) => n + b.length, 0);
        this.writeFailed = true;
        this.logger.error(`Index journal write failed (${String(error)}); the index is kept in memory and will be rewritten.`);
        return;
      }
    }
    const now = Date.now();
    if (options.sync === true || now - this.lastSync > 1000) {
      this.lastSync = now;
      await this.journal.sync().catch((error: unknown) => this.logger.warn(`Index journal fsync failed: ${String(error)}`));
    }
  }

  /**
   * Writes a fresh snapshot (atomically) and starts an empty journal. Vectors no file refers to are
   * dropped unless `keep` is 'all' or holds their hash (chunks of files still waiting for the rest
   * of their embeddings). Returns false, logging, when the write failed; the previous files stay valid.
   */
  compact(keep: ReadonlySet<string> | 'all' = new Set()): Promise<boolean> {
    return this.serially(() => this.compactNow(keep));
  }

  private async compactNow(keep: ReadonlySet<string> | 'all'): Promise<boolean> {
    // Everything queued so far is in the state captured below (synchronously, before any await);
    // records queued while the snapshot is written are not, and must survive into the new journal.
    const covered = this.pendingRecords.length;
    const arena = this.vectorArena;
    const vectors: { hash: string; slot: number }[] = [];
    for (const [hash, slot] of this.slots) {
      if (this.users.isUsed(slot) || keep === 'all' || keep.has(hash)) vectors.push({ hash, slot });
      else {
        arena?.release(slot);
        this.slots.delete(hash);
        this.users.release(slot);
      }
    }
    vectors.sort((a, b) => a.slot - b.slot);
    const target = this.options.path;
    if (target === undefined) return true;
    const generation = newGeneration();
    const files = [...this.fileMap.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    try {
      this.snapshotBytes = await writeSnapshot(
        this.io,
        target,
        { modelId: this.options.modelId, dimension: this.dim, chunkerVersion: this.chunkerVersion, generation, files, vectors },
        arena,
      );
      this.takePending(covered);
      await this.startJournal(generation);
      this.writeFailed = false;
      this.lastSync = Date.now();
      return true;
    } catch (error) {
      this.writeFailed = true;
      this.logger.error(`Writing the index failed (${String(error)}); it is kept in memory and retried later.`);
      return false;
    }
  }

  /** Writes what is queued and closes the journal. */
  async close(): Promise<void> {
    await this.checkpoint({ sync: true });
    await this.journal?.close().catch(() => undefined);
    this.journal = undefined;
  }
}
