// llama-server compatibility: images, audio, and what this server does not offer. llama-server reads
// images (and audio) through a multimodal projector (mmproj-tiny.gguf, random weights: the answer is
// still the scripted "Hello!", but the PNG is decoded and encoded into image tokens for real). Where it
// differs from the service (docs/testing.md#self-hosted-servers-llama-server-differences) the client
// must parse what it can and name what the server lacks, with reason `unsupported`, without retrying.
import * as assert from 'node:assert/strict';
import { type InferenceClient } from '../../../src/core/api/client';
import { type RetryInfo } from '../../../src/core/api/types';
import { clientFor, llamaServers, pngDataUrl, rejectsWith, toneWav } from './llamaEnv';

describe('llama-server compatibility: images, audio and unsupported operations', function () {
  this.timeout(60_000);
  const servers = llamaServers();
  let chat: InferenceClient;
  let textOnly: InferenceClient;
  const retries: RetryInfo[] = [];
  const onRetry = (info: RetryInfo): void => {
    retries.push(info);
  };
  before(() => {
    chat = clientFor(servers.chat);
    textOnly = clientFor(servers.textOnly);
  });
  beforeEach(() => {
    retries.splice(0);
  });
  after(async () => {
    await Promise.all([chat.close(), textOnly.close()]);
  });

  it('sends an image as a base64 data URL; the projector turns it into prompt tokens', async () => {
    const question = { role: 'user' as const, content: 'What is in this picture?' };
    const plain = await chat.chat({ model: servers.chatModel, messages: [question], maxTokens: 8, temperature: 0 });
    const withImage = await chat.streamChat({
      model: servers.chatModel,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image', dataUrl: pngDataUrl() },
          ],
        },
      ],
      maxTokens: 8,
      temperature: 0,
    }).result;
    assert.equal(withImage.text, 'Hello!');
    // Gemma3-style projector: 16 image tokens plus the image start/end markers.
    const extra = (withImage.usage.promptTokens ?? 0) - (plain.usage.promptTokens ?? 0);
    assert.ok(extra >= 16, `the image added ${extra} prompt tokens`);
  });

  it('an image sent to a server without a projector fails at once as unsupported, naming images (llama-server answers 500)', async () => {
    const error = await rejectsWith(
      () =>
        textOnly.chat(
          {
            model: servers.chatModel,
            messages: [
              {
                role: 'user',
                content: [
                  { type: 'text', text: 'Describe' },
                  { type: 'image', dataUrl: pngDataUrl() },
                ],
              },
            ],
            maxTokens: 8,
          },
          { onRetry },
        ),
      'unsupported',
    );
    assert.equal(error.status, 500);
    assert.match(error.message, /image/i);
    assert.deepEqual(retries, [], 'a missing capability is not a transient server failure: no retry');
  });

  it('transcribes through /v1/audio/transcriptions, reading llama-server\'s {"type":"transcript.text.done","text":...} reply', async () => {
    const result = await chat.transcribe({ model: servers.chatModel, audio: toneWav(1.5), fileName: 'tone.wav' });
    assert.equal(result.text, 'Hello!');
    assert.equal(result.model, servers.chatModel);
  });

  it('a transcription asked for in the text format still returns the text (llama-server accepts only json)', async () => {
    const result = await chat.transcribe({ model: servers.chatModel, audio: toneWav(1), responseFormat: 'text' }, { onRetry });
    assert.equal(result.text, 'Hello!');
  });

  it("streams a transcription from llama-server's transcript.text.delta events", async () => {
    const stream = chat.streamTranscription({ model: servers.chatModel, audio: toneWav(1) });
    const texts: string[] = [];
    for await (const event of stream) if (event.type === 'text') texts.push(event.text);
    const result = await stream.result;
    assert.equal(texts.join(''), 'Hello!');
    assert.equal(result.text, 'Hello!');
  });

  it('translation is not offered: reason unsupported, the message names audio translation, no retry', async () => {
    const error = await rejectsWith(() => chat.translate({ model: servers.chatModel, audio: toneWav(1) }, { onRetry }), 'unsupported');
    assert.equal(error.status, 404);
    assert.match(error.message, /translation/i);
    assert.deepEqual(retries, []);
  });

  it('audio reasoning is not offered: reason unsupported, the message names audio reasoning', async () => {
    const error = await rejectsWith(
      () => chat.audioReasoning({ model: servers.chatModel, audio: toneWav(1), instruction: 'What do you hear?', maxTokens: 8 }, { onRetry }),
      'unsupported',
    );
    assert.equal(error.status, 404);
    assert.match(error.message, /audio reasoning/i);
    assert.deepEqual(retries, []);
  });

  it('embeddings on a chat server (no --embeddings): reason unsupported, the message names embeddings', async () => {
    const error = await rejectsWith(() => chat.embed(['hello'], servers.chatModel), 'unsupported');
    assert.equal(error.status, 501);
    assert.match(error.message, /embedding/i);
  });
});
