import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { settleInterrupted, type Conversation, type StoredMessage, type StoredToolCall } from './conversation';

/** An entry of the conversation list. */
export interface ConversationEntry {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
}

const idPattern = /^[A-Za-z0-9-]{1,64}$/;

/** A tool result's image as a conversation file holds it: the data URL lives in `attachments/<ref>.txt`. */
interface DiskImage {
  readonly mimeType: string;
  readonly bytes: number;
  readonly ref: string;
}

function isConversation(value: unknown): value is Conversation {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['id'] === 'string' &&
    typeof record['title'] === 'string' &&
    typeof record['updatedAt'] === 'number' &&
    Array.isArray(record['messages']) &&
    typeof record['options'] === 'object'
  );
}

/** Which version of a file this store last read or wrote: every write renames a new file in, so the inode changes. */
interface FileVersion {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

function sameVersion(a: FileVersion | undefined, b: FileVersion | undefined): boolean {
  return a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * Conversations saved as one JSON file each in a folder (the host passes the extension's global storage),
 * written atomically (temporary file, then rename) so a crash never leaves a half-written conversation.
 * A corrupt file is skipped, never fatal. Several windows share the folder, each with its own store: a
 * save finding the file changed since this store last read or wrote it merges first, keeping the
 * messages the other window added (and not bringing back those this window removed), so no window's
 * message is lost to another's save.
 */
export class ConversationStore {
  private writes = Promise.resolve();
  /** The content hash of each message's attachment already written (keyed `<conversation id>:<message id>:<kind>`), so a save does not hash megabytes again. */
  private readonly attachmentHashes = new Map<string, { readonly length: number; readonly hash: string }>();
  /** Per conversation: the file version this store last read or wrote, and the message ids it held. */
  private readonly known = new Map<string, { readonly version: FileVersion | undefined; readonly messageIds: ReadonlySet<string> }>();
  /** The list entry of each file as last parsed, with the size and mtime it had then. */
  private readonly parsed = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly entry: ConversationEntry | undefined }>();

  constructor(private readonly folder: string) {}

  private path(id: string): string {
    if (!idPattern.test(id)) throw new Error(`invalid conversation id: ${JSON.stringify(id)}`);
    return join(this.folder, `${id}.json`);
  }

  private async version(path: string): Promise<FileVersion | undefined> {
    const info = await stat(path).catch(() => undefined);
    return info && { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
  }

  private remember(conversation: Conversation, version: FileVersion | undefined): void {
    this.known.set(conversation.id, { version, messageIds: new Set(conversation.messages.map((message) => message.id)) });
  }

  /**
   * Saves a conversation; saves of one store are serialised. When another window wrote the file since
   * this store last read or wrote it, its new messages are merged into `conversation` (in place) first.
   */
  save(conversation: Conversation): Promise<void> {
    const path = this.path(conversation.id);
    const write = async (): Promise<void> => {
      await mkdir(this.folder, { recursive: true });
      const known = this.known.get(conversation.id);
      const current = await this.version(path);
      if (known !== undefined && current !== undefined && !sameVersion(known.version, current)) {
        const theirs = await this.read(path);
        if (theirs) mergeInto(conversation, theirs, known.messageIds);
      }
      const text = JSON.stringify(await this.toDisk(conversation));
      const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await writeFile(temporary, text, { encoding: 'utf8', flush: true });
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      this.remember(conversation, await this.version(path));
    };
    const next = this.writes.then(write, write);
    this.writes = next.catch(() => undefined);
    return next;
  }

  /** Loads one conversation, or undefined when it does not exist or cannot be read. */
  async load(id: string): Promise<Conversation | undefined> {
    const path = this.path(id);
    const version = await this.version(path);
    const conversation = await this.read(path);
    if (conversation) this.remember(conversation, version);
    return conversation;
  }

  /** Reads a conversation file, with its attachments unless only the list needs it. */
  private async read(path: string, attachments = true): Promise<Conversation | undefined> {
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      if (!isConversation(parsed)) return undefined;
      if (attachments) await this.fromDisk(parsed);
      return settleInterrupted(parsed);
    } catch {
      return undefined;
    }
  }

  private attachmentPath(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`invalid attachment reference: ${JSON.stringify(hash)}`);
    return join(this.folder, 'attachments', `${hash}.txt`);
  }

  /**
   * Writes an attachment once (content-addressed: an existing file already holds these bytes) and returns its
   * hash. An existing file is touched, so a collection running meanwhile in another window (which spares
   * recently written files) never removes it before this save references it.
   */
  private async attachment(key: string, dataUrl: string): Promise<string> {
    const cached = this.attachmentHashes.get(key);
    const hash = cached?.length === dataUrl.length ? cached.hash : createHash('sha256').update(dataUrl).digest('hex');
    const path = this.attachmentPath(hash);
    const now = new Date();
    if (
      !(await utimes(path, now, now).then(
        () => true,
        () => false,
      ))
    ) {
      await mkdir(join(this.folder, 'attachments'), { recursive: true });
      const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      await writeFile(temporary, dataUrl, { encoding: 'utf8', flush: true });
      await rename(temporary, path);
    }
    this.attachmentHashes.set(key, { length: dataUrl.length, hash });
    return hash;
  }

  /**
   * The conversation as its file holds it: images and audio (base64 data URLs, megabytes each) are
   * replaced by references to files beside it, so a save writes kilobytes, not every attachment again,
   * and a long conversation never approaches V8's string limit.
   */
  private async toDisk(conversation: Conversation): Promise<unknown> {
    const messages: unknown[] = [];
    for (const message of conversation.messages) {
      const { imageDataUrl, audio, toolCalls, ...rest } = message;
      messages.push({
        ...rest,
        ...(imageDataUrl !== undefined ? { imageRef: await this.attachment(`${conversation.id}:${message.id}:image`, imageDataUrl) } : {}),
        ...(audio !== undefined ? { audioRef: { name: audio.name, ref: await this.attachment(`${conversation.id}:${message.id}:audio`, audio.dataUrl) } } : {}),
        ...(toolCalls !== undefined ? { toolCalls: await this.toolCallsToDisk(`${conversation.id}:${message.id}`, toolCalls) } : {}),
      });
    }
    return { ...conversation, messages };
  }

  /** The images a VS Code tool returned (a screenshot each, sometimes dozens a conversation) kept like attachments: `ref` for `dataUrl`. */
  private async toolCallsToDisk(key: string, calls: readonly StoredToolCall[]): Promise<unknown[]> {
    const stored: unknown[] = [];
    for (const call of calls) {
      const { images, ...rest } = call;
      if (images === undefined) {
        stored.push(rest);
        continue;
      }
      const refs: DiskImage[] = [];
      for (const [index, image] of images.entries()) {
        refs.push({ mimeType: image.mimeType, bytes: image.bytes, ref: await this.attachment(`${key}:tool:${call.id}:${index}`, image.dataUrl) });
      }
      stored.push({ ...rest, images: refs });
    }
    return stored;
  }

  /** Puts the attachments a file references back into its messages (in place); a missing one is left out. */
  private async fromDisk(parsed: Conversation): Promise<void> {
    const load = async (ref: unknown): Promise<string | undefined> =>
      typeof ref === 'string' ? readFile(this.attachmentPath(ref), 'utf8').catch(() => undefined) : undefined;
    for (const message of parsed.messages as (StoredMessage & { imageRef?: unknown; audioRef?: { name?: unknown; ref?: unknown } })[]) {
      const { imageRef, audioRef } = message;
      delete message.imageRef;
      delete message.audioRef;
      const image = await load(imageRef);
      if (image !== undefined) {
        message.imageDataUrl = image;
        this.attachmentHashes.set(`${parsed.id}:${message.id}:image`, { length: image.length, hash: String(imageRef) });
      }
      const audio = audioRef === undefined ? undefined : await load(audioRef.ref);
      if (audio !== undefined && typeof audioRef?.name === 'string') {
        message.audio = { name: audioRef.name, dataUrl: audio };
        this.attachmentHashes.set(`${parsed.id}:${message.id}:audio`, { length: audio.length, hash: String(audioRef.ref) });
      }
      for (const call of Array.isArray(message.toolCalls) ? message.toolCalls : []) {
        if (!Array.isArray(call.images)) continue;
        const images: { mimeType: string; dataUrl: string; bytes: number }[] = [];
        for (const [index, image] of (call.images as (Partial<DiskImage> & { dataUrl?: unknown })[]).entries()) {
          if (typeof image.mimeType !== 'string' || typeof image.bytes !== 'number') continue;
          // A file saved before images were kept apart holds the data URL itself.
          const dataUrl = typeof image.dataUrl === 'string' ? image.dataUrl : await load(image.ref);
          if (dataUrl === undefined) continue;
          images.push({ mimeType: image.mimeType, dataUrl, bytes: image.bytes });
          if (image.ref !== undefined)
            this.attachmentHashes.set(`${parsed.id}:${message.id}:tool:${call.id}:${index}`, { length: dataUrl.length, hash: String(image.ref) });
        }
        if (images.length > 0) call.images = images;
        else delete call.images;
      }
    }
  }

  /** Every readable conversation, newest first. */
  async list(): Promise<ConversationEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch {
      return [];
    }
    // Conversations can hold images and audio, so a file is parsed again only when its size or mtime
    // changed (this window's saves, or another window's); the panel lists after every message.
    const entries: ConversationEntry[] = [];
    const present = new Set<string>();
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      present.add(name);
      const info = await stat(join(this.folder, name)).catch(() => undefined);
      if (!info) continue;
      let known = this.parsed.get(name);
      if (known?.size !== info.size || known.mtimeMs !== info.mtimeMs) {
        // Only the title and dates are needed: no attachments, and this is not a read the next save builds on.
        const conversation = idPattern.test(name.slice(0, -'.json'.length)) ? await this.read(join(this.folder, name), false) : undefined;
        known = {
          size: info.size,
          mtimeMs: info.mtimeMs,
          entry: conversation && { id: conversation.id, title: conversation.title, updatedAt: conversation.updatedAt },
        };
        this.parsed.set(name, known);
      }
      if (known.entry) entries.push(known.entry);
    }
    for (const name of this.parsed.keys()) if (!present.has(name)) this.parsed.delete(name);
    return entries.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Renames a conversation; the title is then kept as the user set it. */
  async rename(id: string, title: string): Promise<void> {
    const conversation = await this.load(id);
    if (!conversation) return;
    conversation.title = title;
    conversation.titleSetByUser = true;
    await this.save(conversation);
  }

  /** Deletes a conversation's file; its attachments go with the next `collectAttachments`. */
  async delete(id: string): Promise<void> {
    await this.writes;
    await rm(this.path(id), { force: true });
  }

  /**
   * Removes the attachment files no conversation references any more (deleted conversations, replaced
   * messages). Safe with several windows sharing the folder: every file in the folder is read as text and
   * any attachment hash it mentions is kept (a file another window is writing, an unreadable or corrupt
   * one, its temporary files too), and an attachment written or touched within `graceMs` is kept (a save
   * writes the attachment before the conversation that references it, and touches one it reuses).
   * Nothing is removed when the folder cannot be read whole.
   */
  async collectAttachments(options: { readonly graceMs?: number; readonly now?: number } = {}): Promise<AttachmentCollection> {
    const graceMs = options.graceMs ?? ATTACHMENT_GRACE_MS;
    const now = options.now ?? Date.now();
    // After this store's own pending saves, so what it is writing is on disk first.
    await this.writes;
    const folder = join(this.folder, 'attachments');
    let stored: string[];
    try {
      stored = await readdir(folder);
    } catch {
      return { removed: [], kept: 0 };
    }
    const referenced = new Set<string>();
    try {
      for (const name of await readdir(this.folder)) {
        if (name === 'attachments') continue;
        const path = join(this.folder, name);
        if (!(await stat(path)).isFile()) continue;
        const text = await readFile(path, 'utf8');
        for (const match of text.matchAll(/[0-9a-f]{64}/g)) referenced.add(match[0]);
      }
    } catch {
      // A conversation that could not be read may reference anything: remove nothing this time.
      return { removed: [], kept: stored.length };
    }
    const removed: string[] = [];
    let kept = 0;
    for (const name of stored) {
      const hash = /^([0-9a-f]{64})\.txt(?:\.tmp-.*)?$/.exec(name)?.[1];
      const info = await stat(join(folder, name)).catch(() => undefined);
      if (hash === undefined || info === undefined || !info.isFile() || referenced.has(hash) || now - info.mtimeMs < graceMs) {
        kept++;
        continue;
      }
      await rm(join(folder, name), { force: true });
      removed.push(hash);
    }
    for (const [key, entry] of this.attachmentHashes) if (removed.includes(entry.hash)) this.attachmentHashes.delete(key);
    return { removed, kept };
  }
}

/** How long a fresh attachment is spared by a collection: far longer than any save takes. */
const ATTACHMENT_GRACE_MS = 10 * 60 * 1000;

/** What `collectAttachments` did: the hashes it removed, and how many files it left. */
export interface AttachmentCollection {
  readonly removed: readonly string[];
  readonly kept: number;
}

/**
 * Adds to `ours` the messages `theirs` (the file another window wrote) has that this window never saw
 * (`seen`: the ids when this window last read or wrote it), in time order. A message this window removed
 * on purpose was seen, so it stays removed; a message both have keeps this window's version.
 */
function mergeInto(ours: Conversation, theirs: Conversation, seen: ReadonlySet<string>): void {
  const mine = new Set(ours.messages.map((message) => message.id));
  const added: StoredMessage[] = theirs.messages.filter((message) => !mine.has(message.id) && !seen.has(message.id));
  // Each goes after the last of ours that is not newer, so the order within each window is kept.
  const merged = [...ours.messages];
  for (const message of added) {
    let at = merged.length;
    while (at > 0 && (merged[at - 1]?.createdAt ?? 0) > message.createdAt) at--;
    merged.splice(at, 0, message);
  }
  ours.messages = merged;
  if (theirs.titleSetByUser === true && ours.titleSetByUser !== true) {
    ours.title = theirs.title;
    ours.titleSetByUser = true;
  }
  ours.updatedAt = Math.max(ours.updatedAt, theirs.updatedAt);
}
