import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationToMarkdown, newConversation, titleFromText } from '../../../src/core/chat/conversation';
import { ConversationStore } from '../../../src/core/chat/conversationStore';

describe('conversations', () => {
  it('titles a conversation from the first line of its first message', () => {
    assert.equal(titleFromText('  How do I retry uploads?\nmore'), 'How do I retry uploads?');
    assert.equal(titleFromText(''), 'New chat');
    assert.equal(titleFromText('x'.repeat(200)).length, 60);
  });

  it('exports a conversation as Markdown with roles, model and usage', () => {
    const conversation = newConversation('Meta-Llama-3.3-70B-Instruct');
    conversation.messages.push(
      { id: 'a', role: 'user', text: 'Explain `map`', createdAt: 1 },
      {
        id: 'b',
        role: 'assistant',
        text: '```ts\n[1].map(f)\n```',
        model: 'Meta-Llama-3.3-70B-Instruct',
        createdAt: 2,
        stopped: true,
        usage: { promptTokens: 10, completionTokens: 5, totalTimeMs: 1200, tokensPerSecond: 50, timeToFirstTokenMs: 80, source: 'service' },
      },
    );
    const markdown = conversationToMarkdown(conversation);
    assert.match(markdown, /^# /);
    assert.match(markdown, /\*\*You\*\*/);
    assert.match(markdown, /\*\*Meta-Llama-3.3-70B-Instruct\*\*/);
    assert.match(markdown, /```ts\n\[1\]\.map\(f\)\n```/);
    assert.match(markdown, /stopped/);
    assert.match(markdown, /10 in, 5 out/);
  });

  describe('store', () => {
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(join(tmpdir(), 'cadenza-conv-'));
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    it('saves, lists (newest first), loads, renames and deletes', async () => {
      const store = new ConversationStore(folder);
      const first = newConversation('m');
      first.messages.push({ id: '1', role: 'user', text: 'first question', createdAt: 1 });
      first.updatedAt = 100;
      const second = newConversation('m');
      second.updatedAt = 200;
      await store.save(first);
      await store.save(second);
      assert.deepEqual(
        (await store.list()).map((entry) => entry.id),
        [second.id, first.id],
      );
      const loaded = await store.load(first.id);
      assert.deepEqual(loaded, first);
      await store.rename(first.id, 'Renamed');
      assert.equal((await store.load(first.id))?.title, 'Renamed');
      await store.delete(first.id);
      assert.equal(await store.load(first.id), undefined);
      assert.deepEqual(
        (await store.list()).map((entry) => entry.id),
        [second.id],
      );
    });

    it('two windows saving the same conversation lose no message: a save merges what the other window added since', async () => {
      // Each window has its own store over the same folder (the extension's global storage).
      const windowA = new ConversationStore(folder);
      const windowB = new ConversationStore(folder);
      const conversation = newConversation('m');
      conversation.messages.push({ id: 'q0', role: 'user', text: 'shared start', createdAt: 1 });
      await windowA.save(conversation);
      const inA = await windowA.load(conversation.id);
      const inB = await windowB.load(conversation.id);
      assert.ok(inA && inB);
      inA.messages.push(
        { id: 'a1', role: 'user', text: 'typed in window A', createdAt: 10 },
        { id: 'a2', role: 'assistant', text: 'answer in A', createdAt: 11 },
      );
      await windowA.save(inA);
      inB.messages.push({ id: 'b1', role: 'user', text: 'typed in window B', createdAt: 20 });
      await windowB.save(inB);
      const onDisk = await new ConversationStore(folder).load(conversation.id);
      assert.deepEqual(
        onDisk?.messages.map((message) => message.id),
        ['q0', 'a1', 'a2', 'b1'],
      );
      // Window B's conversation now holds A's messages too, and A's next save keeps B's.
      assert.deepEqual(
        inB.messages.map((message) => message.id),
        ['q0', 'a1', 'a2', 'b1'],
      );
      inA.messages.push({ id: 'a3', role: 'user', text: 'again in A', createdAt: 30 });
      await windowA.save(inA);
      assert.deepEqual(
        (await new ConversationStore(folder).load(conversation.id))?.messages.map((message) => message.id),
        ['q0', 'a1', 'a2', 'b1', 'a3'],
      );
    });

    it('a message this window removed on purpose (regenerate, edit and resend) stays removed when merging', async () => {
      const windowA = new ConversationStore(folder);
      const windowB = new ConversationStore(folder);
      const conversation = newConversation('m');
      conversation.messages.push({ id: 'q', role: 'user', text: 'question', createdAt: 1 }, { id: 'old', role: 'assistant', text: 'old answer', createdAt: 2 });
      await windowA.save(conversation);
      const inA = await windowA.load(conversation.id);
      const inB = await windowB.load(conversation.id);
      assert.ok(inA && inB);
      inB.messages.push({ id: 'b', role: 'user', text: 'from B', createdAt: 5 });
      await windowB.save(inB);
      inA.messages = inA.messages.filter((message) => message.id !== 'old');
      inA.messages.push({ id: 'new', role: 'assistant', text: 'regenerated', createdAt: 6 });
      await windowA.save(inA);
      assert.deepEqual(
        (await new ConversationStore(folder).load(conversation.id))?.messages.map((message) => message.id),
        ['q', 'b', 'new'],
      );
    });

    it('keeps images and audio once, beside the conversation, by content hash: the JSON stays small and loads whole', async () => {
      const store = new ConversationStore(folder);
      const image = `data:image/png;base64,${Buffer.alloc(1_500_000, 7).toString('base64')}`;
      const audio = `data:audio/wav;base64,${Buffer.alloc(900_000, 3).toString('base64')}`;
      const conversation = newConversation('m');
      conversation.messages.push(
        { id: 'i1', role: 'user', text: 'look', createdAt: 1, imageDataUrl: image },
        { id: 'i2', role: 'user', text: 'look again', createdAt: 2, imageDataUrl: image },
        { id: 'a1', role: 'user', text: 'listen', createdAt: 3, audio: { name: 'take.wav', dataUrl: audio } },
      );
      for (let i = 0; i < 3; i++) await store.save(conversation);
      const json = readFileSync(join(folder, `${conversation.id}.json`), 'utf8');
      assert.ok(json.length < 10_000, `the conversation file is ${json.length} characters`);
      const attachments = readdirSync(join(folder, 'attachments'));
      assert.equal(attachments.length, 2, attachments.join(', '));
      assert.deepEqual(await new ConversationStore(folder).load(conversation.id), conversation);
      assert.deepEqual(
        (await store.list()).map((entry) => entry.id),
        [conversation.id],
      );
    });

    it('keeps the images a VS Code tool returned by content hash too: sixty screenshots do not grow the JSON, and they load back into their cards', async () => {
      const store = new ConversationStore(folder);
      const screenshot = (n: number): string => `data:image/png;base64,${Buffer.alloc(200_000, n).toString('base64')}`;
      const conversation = newConversation('m');
      for (let step = 0; step < 30; step++) {
        conversation.messages.push({
          id: `s${step}`,
          role: 'assistant',
          text: '',
          createdAt: step,
          toolCalls: [
            {
              id: `c${step}`,
              name: 'screenshot',
              arguments: '{}',
              status: 'done',
              result: '[image]',
              origin: 'MCP server browser',
              images: [
                { mimeType: 'image/png', dataUrl: screenshot(step), bytes: 200_000 },
                { mimeType: 'image/png', dataUrl: screenshot(100 + step), bytes: 200_000 },
              ],
            },
          ],
        });
      }
      await store.save(conversation);
      const json = readFileSync(join(folder, `${conversation.id}.json`), 'utf8');
      assert.ok(json.length < 30_000, `the conversation file is ${json.length} characters`);
      assert.equal(readdirSync(join(folder, 'attachments')).length, 60);
      assert.deepEqual(await new ConversationStore(folder).load(conversation.id), conversation);
      // A collection keeps them: the conversation references each by its hash.
      await store.collectAttachments({ now: Date.now() + 11 * 60 * 1000 });
      assert.deepEqual(await new ConversationStore(folder).load(conversation.id), conversation);
    });

    it('loads a tool image a file from before kept inline', async () => {
      const conversation = newConversation('m');
      const call = {
        id: 'c',
        name: 'shot',
        arguments: '{}',
        status: 'done' as const,
        result: '[image]',
        images: [{ mimeType: 'image/png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', bytes: 8 }],
      };
      conversation.messages.push({ id: 's', role: 'assistant', text: '', createdAt: 1, toolCalls: [call] });
      writeFileSync(join(folder, `${conversation.id}.json`), JSON.stringify(conversation));
      assert.deepEqual(await new ConversationStore(folder).load(conversation.id), conversation);
    });

    describe('attachment collection', () => {
      const image = (byte: number): string => `data:image/png;base64,${Buffer.alloc(3000, byte).toString('base64')}`;
      const withImages = (...images: string[]): ReturnType<typeof newConversation> => {
        const conversation = newConversation('m');
        images.forEach((dataUrl, i) => conversation.messages.push({ id: `m${i}`, role: 'user', text: 'look', createdAt: i, imageDataUrl: dataUrl }));
        return conversation;
      };
      const attachmentsOnDisk = (): string[] => readdirSync(join(folder, 'attachments')).sort();
      // Past the grace period that spares fresh files (a save writes the attachment before the JSON).
      const later = (): number => Date.now() + 11 * 60 * 1000;

      it('removes the attachments of deleted conversations and keeps those another conversation still references', async () => {
        const store = new ConversationStore(folder);
        const shared = image(1);
        const gone = withImages(shared, image(2));
        const stays = withImages(shared, image(3));
        await store.save(gone);
        await store.save(stays);
        assert.equal(attachmentsOnDisk().length, 3);
        await store.delete(gone.id);
        const result = await store.collectAttachments({ now: later() });
        assert.equal(result.removed.length, 1, 'only the image no other conversation has');
        assert.equal(attachmentsOnDisk().length, 2);
        // The conversation that remains still loads whole, with both its images.
        assert.deepEqual(await new ConversationStore(folder).load(stays.id), stays);
      });

      it("keeps what another window's conversation references, and what a save is writing right now", async () => {
        const mine = new ConversationStore(folder);
        const theirs = new ConversationStore(folder);
        const other = withImages(image(4));
        await theirs.save(other);
        const own = withImages(image(5));
        await mine.save(own);
        await mine.delete(own.id);
        // Within the grace period nothing is removed: a save writes an attachment before the JSON that references it.
        assert.deepEqual((await mine.collectAttachments()).removed, []);
        const result = await mine.collectAttachments({ now: later() });
        assert.equal(result.removed.length, 1);
        assert.deepEqual(await mine.load(other.id), other, "the other window's conversation lost an image");
      });

      it('keeps the attachments a corrupt or half-written conversation file mentions', async () => {
        const store = new ConversationStore(folder);
        const orphan = withImages(image(6));
        const kept = withImages(image(7));
        await store.save(orphan);
        await store.save(kept);
        const keptJson = readFileSync(join(folder, `${kept.id}.json`), 'utf8');
        await store.delete(orphan.id);
        await store.delete(kept.id);
        // A half-readable file (corrupt JSON) still names its attachment: it is spared.
        writeFileSync(join(folder, 'damaged.json'), keptJson.slice(0, keptJson.indexOf('imageRef') + 80));
        const result = await store.collectAttachments({ now: later() });
        assert.equal(result.removed.length, 1);
        assert.equal(attachmentsOnDisk().length, 1);
      });

      it('a save after a collection brings back an attachment it reuses (a conversation deleted and still open elsewhere)', async () => {
        const window1 = new ConversationStore(folder);
        const window2 = new ConversationStore(folder);
        const open = withImages(image(8));
        await window2.save(open);
        await window1.delete(open.id);
        await window1.collectAttachments({ now: later() });
        assert.deepEqual(attachmentsOnDisk(), []);
        // Window 2 still shows it and saves again: the attachment is written again, so the file loads whole.
        open.messages.push({ id: 'next', role: 'user', text: 'more', createdAt: 9 });
        await window2.save(open);
        assert.deepEqual(await new ConversationStore(folder).load(open.id), open);
      });
    });

    it('writes atomically: no temporary files are left and a file is never half-written', async () => {
      const store = new ConversationStore(folder);
      const conversation = newConversation('m');
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          conversation.messages.push({ id: String(i), role: 'user', text: `message ${i}`, createdAt: i });
          return store.save(conversation);
        }),
      );
      assert.deepEqual(
        readdirSync(folder).filter((name) => name.includes('.tmp')),
        [],
      );
      const parsed: unknown = JSON.parse(readFileSync(join(folder, `${conversation.id}.json`), 'utf8'));
      assert.ok(typeof parsed === 'object' && parsed !== null);
    });

    it('lists without re-reading files that did not change, and re-reads those that did (another window)', async () => {
      const store = new ConversationStore(folder);
      const conversation = newConversation('m');
      conversation.title = 'first title';
      await store.save(conversation);
      const path = join(folder, `${conversation.id}.json`);
      // A whole-second mtime, so setting it again below is exact.
      const when = Math.floor(Date.now() / 1000) - 10;
      utimesSync(path, when, when);
      assert.deepEqual(
        (await store.list()).map((entry) => entry.title),
        ['first title'],
      );
      // Same size and mtime, different bytes: an unchanged file is not parsed again.
      writeFileSync(path, readFileSync(path, 'utf8').replace('first title', 'XXXXX XXXXX'));
      utimesSync(path, when, when);
      assert.deepEqual(
        (await store.list()).map((entry) => entry.title),
        ['first title'],
      );
      // Another window saves a conversation: it is picked up.
      const other = newConversation('m');
      other.title = 'from another window';
      writeFileSync(join(folder, `${other.id}.json`), JSON.stringify(other));
      assert.ok((await store.list()).some((entry) => entry.title === 'from another window'));
    });

    it('skips a corrupt file instead of failing the whole list, and refuses ids that are paths', async () => {
      const store = new ConversationStore(folder);
      await store.save(newConversation('m'));
      writeFileSync(join(folder, 'broken.json'), '{ not json');
      assert.equal((await store.list()).length, 1);
      assert.equal(await store.load('broken'), undefined);
      await assert.rejects(store.load('../etc/passwd'), /invalid conversation id/);
    });
  });
});
