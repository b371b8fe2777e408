// Audio against the emulator: reasoning with the audio inline, transcription and translation as
// multipart uploads (json, text and streamed replies) for both model families, and the audio
// limits refused before any byte is sent.
import assert from 'node:assert/strict';
import { AUDIO_MODEL, clientFor, collect, expectApiError, makeWav, requestsTo, useEmulator, WHISPER_MODEL } from './helpers';

const record = (r: { body: unknown } | undefined): Record<string, unknown> => r?.body as Record<string, unknown>;

describe('api/audio', function () {
  this.timeout(15_000);
  const ctx = useEmulator();

  it('audio reasoning sends the audio as an audio_content data URL, then the instruction', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ content: 'A bell rings.' });
    const result = await client.audioReasoning({ model: AUDIO_MODEL, audio: makeWav(2), instruction: 'What is this sound?', temperature: 0, maxTokens: 100 });
    assert.equal(result.text, 'A bell rings.');
    const sent = record(requestsTo(ctx.emu, '/v1/audio/reasoning')[0]);
    const messages = sent['messages'] as { role: string; content: unknown }[];
    const part = (messages[0]?.content as { type: string; audio_content: { content: string } }[])[0];
    assert.equal(part?.type, 'audio_content');
    assert.match(part?.audio_content.content ?? '', /^data:audio\/wav;base64,UklGR/);
    assert.deepEqual(messages[1], { role: 'user', content: 'What is this sound?' });
    assert.equal(sent['max_tokens'], 100);
    await client.close();
  });

  it('streams audio reasoning', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ content: 'one two three four', chunkCount: 4 });
    const stream = client.streamAudioReasoning({ model: AUDIO_MODEL, audio: makeWav(1), instruction: 'Describe.' });
    const events = await collect(stream);
    assert.equal(events.filter((e) => e.type === 'text').length, 4);
    assert.equal((await stream.result).text, 'one two three four');
    await client.close();
  });

  it('transcribes with Whisper as multipart json, without audio-instruct fields', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptTranscript('hello world');
    const result = await client.transcribe({
      model: WHISPER_MODEL,
      audio: makeWav(1),
      language: 'en',
      prompt: 'names: Cadenza',
      temperature: 0.2,
      maxTokens: 50,
    });
    assert.equal(result.text, 'hello world');
    assert.equal(result.usage.source.tokens, 'estimated');
    const sent = requestsTo(ctx.emu, '/v1/audio/transcriptions')[0];
    assert.match(sent?.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    const form = record(sent);
    assert.equal(form['model'], WHISPER_MODEL);
    assert.equal(form['language'], 'en');
    assert.equal(form['prompt'], 'names: Cadenza');
    assert.equal(form['response_format'], 'json');
    assert.equal(form['temperature'], undefined);
    assert.equal(form['max_tokens'], undefined);
    assert.deepEqual(form['file'], { filename: 'audio.wav', contentType: 'audio/wav', size: makeWav(1).length });
    await client.close();
  });

  it('transcribes as text with the audio-instruct family, sending its fields', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptTranscript('plain text reply');
    const result = await client.transcribe({
      model: AUDIO_MODEL,
      audio: makeWav(3),
      responseFormat: 'text',
      temperature: 0.3,
      maxTokens: 200,
      fileName: 'memo.wav',
    });
    assert.equal(result.text, 'plain text reply');
    const form = record(requestsTo(ctx.emu, '/v1/audio/transcriptions')[0]);
    assert.equal(form['response_format'], 'text');
    assert.equal(form['temperature'], '0.3');
    assert.equal(form['max_tokens'], '200');
    assert.equal((form['file'] as { filename: string }).filename, 'memo.wav');
    await client.close();
  });

  it('translates to the translations endpoint', async () => {
    const client = clientFor(ctx.emu);
    const result = await client.translate({ model: WHISPER_MODEL, audio: makeWav(1), language: 'fr' });
    assert.match(result.text, /^\[Translated to English\]/);
    assert.equal(requestsTo(ctx.emu, '/v1/audio/translations').length, 1);
    await client.close();
  });

  it('streams a transcription, with stream "true" and stream_options as form fields', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptTranscript('es un sonido de campana');
    const stream = client.streamTranscription({ model: WHISPER_MODEL, audio: makeWav(1), language: 'es' });
    const events = await collect(stream);
    const result = await stream.result;
    assert.equal(result.text, 'es un sonido de campana');
    assert.ok(events.filter((e) => e.type === 'text').length >= 1);
    assert.equal(events.at(-1)?.type, 'usage');
    assert.equal(result.usage.source.tokens, 'service');
    const form = record(requestsTo(ctx.emu, '/v1/audio/transcriptions')[0]);
    assert.equal(form['stream'], 'true');
    // The official clients' bracket form, not one JSON string (docs/service.md#transcription-and-translation).
    assert.equal(form['stream_options[include_usage]'], 'true');
    assert.equal(form['stream_options'], undefined);
    await client.close();
  });

  it('streams a translation, sending the audio-instruct family a full language name', async () => {
    const client = clientFor(ctx.emu);
    const result = await client.streamTranslation({ model: AUDIO_MODEL, audio: makeWav(1), language: 'de' }).result;
    assert.match(result.text, /^\[Translated to german\]/);
    assert.equal(record(requestsTo(ctx.emu, '/v1/audio/translations')[0])['language'], 'german');
    await client.close();
  });

  it('sends each family the language form it takes, from one table', async () => {
    const client = clientFor(ctx.emu);
    await client.transcribe({ model: WHISPER_MODEL, audio: makeWav(1), language: 'Spanish' });
    await client.transcribe({ model: AUDIO_MODEL, audio: makeWav(1), language: 'es' });
    const sent = requestsTo(ctx.emu, '/v1/audio/transcriptions').map((r) => record(r)['language']);
    assert.deepEqual(sent, ['es', 'spanish']);
    await client.close();
  });

  it('refuses a file that is not audio, without sending', async () => {
    const client = clientFor(ctx.emu);
    const notAudio = new TextEncoder().encode('this is a text file, not audio at all');
    const error = await expectApiError(client.transcribe({ model: WHISPER_MODEL, audio: notAudio }), 'invalid');
    assert.equal(error.param, 'file');
    await expectApiError(client.audioReasoning({ model: AUDIO_MODEL, audio: notAudio }), 'invalid');
    assert.equal(ctx.emu.requests.length, 0);
    await client.close();
  });

  it('refuses more than 30 s for the audio-instruct family, without sending', async () => {
    const client = clientFor(ctx.emu);
    const long = makeWav(31);
    const error = await expectApiError(client.transcribe({ model: AUDIO_MODEL, audio: long }), 'invalid');
    assert.equal(error.param, 'file');
    assert.match(error.message, /30/);
    await expectApiError(client.audioReasoning({ model: AUDIO_MODEL, audio: long, instruction: 'hi' }), 'invalid');
    await expectApiError(collect(client.streamAudioReasoning({ model: AUDIO_MODEL, audio: long })), 'invalid');
    // Whisper has no duration limit: the same file is fine there.
    await client.transcribe({ model: WHISPER_MODEL, audio: long });
    assert.deepEqual(
      ctx.emu.requests.map((r) => r.path),
      ['/v1/audio/transcriptions'],
    );
    await client.close();
  });

  it('refuses more than 25 MB for the speech-to-text family, without sending', async () => {
    const client = clientFor(ctx.emu);
    const big = makeWav(25_000_000 / 16_000 + 1, 8000);
    assert.ok(big.length > 25_000_000);
    const error = await expectApiError(client.transcribe({ model: WHISPER_MODEL, audio: big }), 'invalid');
    assert.equal(error.param, 'file');
    assert.match(error.message, /25/);
    assert.equal(ctx.emu.requests.length, 0);
    await client.close();
  });

  it('refuses an out-of-range temperature for audio', async () => {
    const client = clientFor(ctx.emu);
    const error = await expectApiError(client.transcribe({ model: AUDIO_MODEL, audio: makeWav(1), temperature: 2 }), 'invalid');
    assert.equal(error.param, 'temperature');
    assert.equal(ctx.emu.requests.length, 0);
    await client.close();
  });
});
