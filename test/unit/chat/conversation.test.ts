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
      { id: 'b', role: 'assistant', text: '```ts\n[1].map(f)\n```', model: 'Meta-Llama-3.3-70B-Instruct', createdAt: 2, stopped: true,
        usage: { promptTokens: 10, completionTokens: 5, totalTimeMs: 1200, tokensPerSecond: 50, timeToFirstTokenMs: 80, source: 'service' } },
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
    beforeEach(() => { folder = mkdtempSync(join(tmpdir(), 'cadenza-conv-')); });
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
      assert.deepEqual((await store.list()).map((entry) => entry.id), [second.id, first.id]);
      const loaded = await store.load(first.id);
      assert.deepEqual(loaded, first);
      await store.rename(first.id, 'Renamed');
      assert.equal((await store.load(first.id))?.title, 'Renamed');
      await store.delete(first.id);
      assert.equal(await store.load(first.id), undefined);
      assert.deepEqual((await store.list()).map((entry) => entry.id), [second.id]);
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
      inA.messages.push({ id: 'a1', role: 'user', text: 'typed in window A', createdAt: 10 }, { id: 'a2', role: 'assistant', text: 'answer in A', createdAt: 11 });
      await windowA.save(inA);
      inB.messages.push({ id: 'b1', role: 'user', text: 'typed in window B', createdAt: 20 });
      await windowB.save(inB);
      const onDisk = await new ConversationStore(folder).load(conversation.id);
      assert.deepEqual(onDisk?.messages.map((message) => message.id), ['q0', 'a1', 'a2', 'b1']);
      // Window B's conversation now holds A's messages too, and A's next save keeps B's.
      assert.deepEqual(inB.messages.map((message) => message.id), ['q0', 'a1', 'a2', 'b1']);
      inA.messages.push({ id: 'a3', role: 'user', text: 'again in A', createdAt: 30 });
      await windowA.save(inA);
      assert.deepEqual((await new ConversationStore(folder).load(conversation.id))?.messages.map((message) => message.id), ['q0', 'a1', 'a2', 'b1', 'a3']);
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
      assert.deepEqual((await new ConversationStore(folder).load(conversation.id))?.messages.map((message) => message.id), ['q', 'b', 'new']);
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
      assert.deepEqual((await store.list()).map((entry) => entry.id), [conversation.id]);
    });

    it('writes atomically: no temporary files are left and a file is never half-written', async () => {
      const store = new ConversationStore(folder);
      const conversation = newConversation('m');
      await Promise.all(Array.from({ length: 20 }, (_, i) => {
        conversation.messages.push({ id: String(i), role: 'user', text: `message ${i}`, createdAt: i });
        return store.save(conversation);
      }));
      assert.deepEqual(readdirSync(folder).filter((name) => name.includes('.tmp')), []);
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
      assert.deepEqual((await store.list()).map((entry) => entry.title), ['first title']);
      // Same size and mtime, different bytes: an unchanged file is not parsed again.
      writeFileSync(path, readFileSync(path, 'utf8').replace('first title', 'XXXXX XXXXX'));
      utimesSync(path, when, when);
      assert.deepEqual((await store.list()).map((entry) => entry.title), ['first title']);
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
