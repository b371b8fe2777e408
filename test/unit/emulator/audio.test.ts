import assert from 'node:assert/strict';
import { speechToTextMaxBytes } from '../../../src/core/audio/limits';
import { startEmulator, type RunningEmulator } from '../../support/emulator/emulator';
import { AUDIO_MODEL, CHAT_MODEL, choice0, chunksOf, errorOf, json, makeWav, parseSse, postForm, postJson, streamedText, STT_MODEL } from './helpers';

const TRANSCRIBE = '/v1/audio/transcriptions';

describe('emulator: audio', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.close());
  beforeEach(() => emu.reset());

  it('transcribes to json by default, mentioning size and language', async () => {
    const wav = makeWav(1);
    const response = await postForm(emu, TRANSCRIBE, { model: STT_MODEL, language: 'en' }, { data: wav });
    assert.equal(response.status, 200);
    const text = String((await json(response))['text']);
    assert.match(text, new RegExp(`${wav.length}-byte wav`));
    assert.match(text, /language en/);
    const recorded = emu.requests[0]?.body as Record<string, unknown>;
    assert.deepEqual(recorded['file'], { filename: 'clip.wav', contentType: 'audio/wav', size: wav.length });
    assert.equal(recorded['model'], STT_MODEL);
  });

  it('answers text/plain for response_format text, and uses scripted transcripts', async () => {
    emu.scriptTranscript('hello world');
    const response = await postForm(emu, TRANSCRIBE, { model: STT_MODEL, response_format: 'text' }, { data: makeWav(1) });
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await response.text(), 'hello world');
  });

  it('streams chat.completion.chunk objects with custom_id and a usage chunk', async () => {
    const response = await postForm(emu, TRANSCRIBE, { model: STT_MODEL, stream: 'true', 'stream_options[include_usage]': 'true' }, { data: makeWav(1) });
    const raw = await response.text();
    assert.ok(raw.endsWith('data: [DONE]\n\n'));
    const chunks = chunksOf(parseSse(raw));
    for (const chunk of chunks) {
      assert.equal(chunk['object'], 'chat.completion.chunk');
      assert.equal(chunk['custom_id'], 0);
    }
    assert.deepEqual(chunks[chunks.length - 1]?.['choices'], []);
    assert.match(streamedText(chunks), /^Transcript of a/);
  });

  it('takes stream_options in the bracket form of the official clients, and ignores one JSON string', async () => {
    const usageOf = async (fields: Record<string, string>): Promise<boolean> => {
      const chunks = chunksOf(parseSse(await (await postForm(emu, TRANSCRIBE, { model: STT_MODEL, stream: 'true', ...fields }, { data: makeWav(1) })).text()));
      return chunks.some((chunk) => chunk['usage'] != null);
    };
    assert.equal(await usageOf({ 'stream_options[include_usage]': 'true' }), true);
    assert.equal(await usageOf({ 'stream_options[include_usage]': 'false' }), false);
    // Whether the service reads one JSON string is not shown anywhere (docs/service.md#transcription-and-translation): no usage for it here.
    assert.equal(await usageOf({ stream_options: '{"include_usage": true}' }), false);
  });

  it('translates with the target language prefixed', async () => {
    const whisper = await json(await postForm(emu, '/v1/audio/translations', { model: STT_MODEL, language: 'fr' }, { data: makeWav(1) }));
    assert.match(String(whisper['text']), /^\[Translated to English\]/);
    const qwen = await json(await postForm(emu, '/v1/audio/translations', { model: AUDIO_MODEL, language: 'german' }, { data: makeWav(1) }));
    assert.match(String(qwen['text']), /^\[Translated to german\]/);
  });

  it('takes only ISO-639-1 codes as the speech-to-text language', async () => {
    const named = await errorOf(await postForm(emu, TRANSCRIBE, { model: STT_MODEL, language: 'spanish' }, { data: makeWav(1) }));
    assert.equal(named.status, 400);
    assert.equal(named.error['param'], 'language');
    assert.equal((await postForm(emu, TRANSCRIBE, { model: STT_MODEL, language: 'es' }, { data: makeWav(1) })).status, 200);
    assert.equal((await postForm(emu, TRANSCRIBE, { model: AUDIO_MODEL, language: 'spanish' }, { data: makeWav(1) })).status, 200);
  });

  it('has the same 25 MB limit as the client', async () => {
    const atLimit = Buffer.concat([makeWav(0), Buffer.alloc(speechToTextMaxBytes - 44)]);
    assert.equal((await postForm(emu, TRANSCRIBE, { model: STT_MODEL }, { data: atLimit })).status, 200);
    const over = Buffer.concat([atLimit, Buffer.alloc(1)]);
    const refused = await errorOf(await postForm(emu, TRANSCRIBE, { model: STT_MODEL }, { data: over }));
    assert.equal(refused.error['code'], 'file_too_large');
  });

  it('rejects unknown formats, audio-instruct clips over 30 s, files over 25 MB and non-audio models', async () => {
    const junk = await errorOf(await postForm(emu, TRANSCRIBE, { model: STT_MODEL }, { data: Buffer.from('not audio at all') }));
    assert.equal(junk.status, 400);
    assert.equal(junk.error['code'], 'invalid_file_format');
    const long = await errorOf(await postForm(emu, TRANSCRIBE, { model: AUDIO_MODEL }, { data: makeWav(31) }));
    assert.equal(long.status, 400);
    assert.equal(long.error['code'], 'audio_too_long');
    assert.equal((await postForm(emu, TRANSCRIBE, { model: AUDIO_MODEL }, { data: makeWav(29) })).status, 200);
    const big = Buffer.concat([makeWav(0), Buffer.alloc(speechToTextMaxBytes + 1 - 44)]);
    const tooBig = await errorOf(await postForm(emu, TRANSCRIBE, { model: STT_MODEL }, { data: big }));
    assert.equal(tooBig.status, 400);
    assert.equal(tooBig.error['code'], 'file_too_large');
    const chat = await errorOf(await postForm(emu, TRANSCRIBE, { model: CHAT_MODEL }, { data: makeWav(1) }));
    assert.equal(chat.error['code'], 'model_not_compatible');
    const noModel = await postForm(emu, TRANSCRIBE, {}, { data: makeWav(1) });
    assert.deepEqual(await noModel.json(), { error: 'Model name is required' });
  });

  it('sniffs formats from the bytes, not the name', async () => {
    const samples: Record<string, Buffer> = {
      mp3: Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(400)]),
      flac: Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(40)]),
      ogg: Buffer.concat([Buffer.from('OggS'), Buffer.alloc(40)]),
      m4a: Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(40)]),
      webm: Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(40)]),
    };
    for (const [format, data] of Object.entries(samples)) {
      const body = await json(await postForm(emu, TRANSCRIBE, { model: STT_MODEL }, { data, name: 'x.bin', type: 'application/octet-stream' }));
      assert.match(String(body['text']), new RegExp(` ${format} recording`), format);
    }
  });

  it('audio reasoning answers a chat.completion about the audio_content clip', async () => {
    const url = `data:audio/wav;base64,${makeWav(2).toString('base64')}`;
    const messages = [
      { role: 'user', content: [{ type: 'audio_content', audio_content: { content: url } }] },
      { role: 'user', content: 'What is in this recording?' },
    ];
    const body = await json(await postJson(emu, '/v1/audio/reasoning', { model: AUDIO_MODEL, messages }));
    assert.equal(body['object'], 'chat.completion');
    assert.match(String((choice0(body)['message'] as Record<string, unknown>)['content']), /What is in this recording.*wav audio of \d+ bytes, 2\.0 s/);
    assert.ok(!('acceptance_rate' in (body['usage'] as object)));
    const tooLong = `data:audio/wav;base64,${makeWav(31).toString('base64')}`;
    const rejected = await errorOf(
      await postJson(emu, '/v1/audio/reasoning', {
        model: AUDIO_MODEL,
        messages: [{ role: 'user', content: [{ type: 'audio_content', audio_content: { content: tooLong } }] }],
      }),
    );
    assert.equal(rejected.error['code'], 'audio_too_long');
  });

  it('audio reasoning takes response_format as the string "json" or "text"', async () => {
    const url = `data:audio/wav;base64,${makeWav(1).toString('base64')}`;
    const messages = [
      { role: 'user', content: [{ type: 'audio_content', audio_content: { content: url } }] },
      { role: 'user', content: 'What is it?' },
    ];
    const asJson = await postJson(emu, '/v1/audio/reasoning', { model: AUDIO_MODEL, messages, response_format: 'json' });
    assert.equal(asJson.status, 200);
    assert.equal((await json(asJson))['object'], 'chat.completion');
    const asText = await postJson(emu, '/v1/audio/reasoning', { model: AUDIO_MODEL, messages, response_format: 'text' });
    assert.equal(asText.status, 200);
    assert.match(asText.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await asText.text(), /What is it\?/);
    const other = await errorOf(await postJson(emu, '/v1/audio/reasoning', { model: AUDIO_MODEL, messages, response_format: 'srt' }));
    assert.equal(other.status, 400);
    assert.equal(other.error['param'], 'response_format');
  });
});
