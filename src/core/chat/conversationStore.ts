import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { settleInterrupted, type Conversation } from './conversation';

/** An entry of the conversation list. */
export interface ConversationEntry {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
}

const idPattern = /^[A-Za-z0-9-]{1,64}$/;

function isConversation(value: unknown): value is Conversation {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record['id'] === 'string' && typeof record['title'] === 'string' && typeof record['updatedAt'] === 'number'
    && Array.isArray(record['messages']) && typeof record['options'] === 'object';
}

/**
 * Conversations saved as one JSON file each in a folder (the host passes the extension's global storage),
 * written atomically (temporary file, then rename) so a crash never leaves a half-written conversation.
 * A corrupt file is skipped, never fatal.
 */
export class ConversationStore {
  private writes = Promise.resolve();
  /** The list entry of each file as last parsed, with the size and mtime it had then. */
  private readonly parsed = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly entry: ConversationEntry | undefined }>();

  constructor(private readonly folder: string) {}

  private path(id: string): string {
    if (!idPattern.test(id)) throw new Error(`invalid conversation id: ${JSON.stringify(id)}`);
    return join(this.folder, `${id}.json`);
  }

  /** Saves a conversation; saves are serialised so the last one wins. */
  save(conversation: Conversation): Promise<void> {
    const path = this.path(conversation.id);
    const text = JSON.stringify(conversation);
    const write = async (): Promise<void> => {
      await mkdir(this.folder, { recursive: true });
      const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await writeFile(temporary, text, { encoding: 'utf8', flush: true });
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    };
    const next = this.writes.then(write, write);
    this.writes = next.catch(() => undefined);
    return next;
  }

  /** Loads one conversation, or undefined when it does not exist or cannot be read. */
  async load(id: string): Promise<Conversation | undefined> {
    const path = this.path(id);
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      return isConversation(parsed) ? settleInterrupted(parsed) : undefined;
    } catch {
      return undefined;
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
        const conversation = await this.load(name.slice(0, -'.json'.length)).catch(() => undefined);
        known = { size: info.size, mtimeMs: info.mtimeMs, entry: conversation && { id: conversation.id, title: conversation.title, updatedAt: conversation.updatedAt } };
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

  /** Deletes a conversation's file. */
  async delete(id: string): Promise<void> {
    await this.writes;
    await rm(this.path(id), { force: true });
  }
}
