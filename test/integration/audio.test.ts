import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { AudioFileResult } from '../../src/host/audio/transcribeCommand';
import { loadFixtures, type FixtureManifest } from '../unit/audio/fixtures';
import { cadenzaApi, openChatView, spyOnDialogs, useEmulator, waitFor } from './helpers';
import { drivePanel } from './panelDriver';

const whisper = 'Whisper-Large-v3';
const qwen = 'Qwen2-Audio-7B-Instruct';

suite('Audio: transcribe, translate, ask', () => {
  const emulator = useEmulator();
  let fixtures: FixtureManifest;
  const file = (name: string): vscode.Uri => {
    const entry = fixtures.files.find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`no audio fixture ${name}`);
    return vscode.Uri.file(entry.path);
  };
  const audioRequests = (): { path: string; body: Record<string, unknown> }[] =>
    emulator()
      .requests.filter((request) => request.path.startsWith('/v1/audio/'))
      .map((request) => ({ path: request.path, body: request.body as Record<string, unknown> }));

  suiteSetup(async function () {
    this.timeout(120_000);
    // Real speech made by Debian's TTS and converted by sox/ffmpeg; generated once per machine, cached.
    fixtures = loadFixtures();
    await cadenzaApi();
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await vscode.commands.executeCommand('cadenza.refreshModels');
  });
  setup(() => emulator().reset());
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('transcribes one file with the chosen model and language, and returns the transcript', async () => {
    emulator().scriptTranscript('Hello from the test audio.');
    const results = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', file('mp3-cbr128-info-id3.mp3'), {
      model: whisper,
      language: 'en',
      output: 'none',
    });
    assert.equal(results.length, 1);
    assert.equal(results[0]?.status, 'done');
    assert.equal(results[0]?.text, 'Hello from the test audio.');
    assert.ok(Math.abs((results[0]?.seconds ?? 0) - 12.7) < 0.2, `duration ${results[0]?.seconds}`);
    const [request] = audioRequests();
    assert.equal(request?.path, '/v1/audio/transcriptions');
    assert.equal(request?.body['model'], whisper);
    assert.equal(request?.body['language'], 'en');
    assert.equal((request?.body['file'] as { size?: number }).size, 204426);
  });

  test('opens the transcript as a Markdown document headed with file, model, language and duration', async () => {
    emulator().scriptTranscript('Streamed into a document.');
    await vscode.commands.executeCommand('cadenza.transcribeAudio', file('flac-sox.flac'), { model: whisper, language: 'en', output: 'document' });
    await waitFor(() => vscode.workspace.textDocuments.some((document) => document.getText().includes('Streamed into a document.')), 'the transcript document');
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.getText().includes('Streamed into a document.'));
    const text = document?.getText() ?? '';
    assert.equal(document?.languageId, 'markdown');
    assert.match(text, /^# Transcript: .*flac-sox\.flac/);
    assert.match(text, /Model: Whisper-Large-v3/);
    assert.match(text, /Language: en/);
    assert.match(text, /Duration: 0:13/);
  });

  test('a batch goes on past a bad file, checks before uploading, and reports each file', async () => {
    emulator().scriptTranscript('first', { times: 1 });
    emulator().scriptTranscript('third', { times: 1 });
    const uris = [file('ogg-vorbis-sox.ogg'), file('notaudio-png.mp3'), file('webm-opus.webm')];
    const results = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', uris, { model: whisper, language: '', output: 'none' });
    assert.deepEqual(
      results.map((result) => result.status),
      ['done', 'failed', 'done'],
    );
    assert.match(results[1]?.error ?? '', /not .*audio/i);
    assert.equal(audioRequests().length, 2, 'the file that is not audio was never uploaded');
    assert.deepEqual(
      results
        .filter((result) => result.status === 'done')
        .map((result) => result.text)
        .sort(),
      ['first', 'third'],
    );
  });

  test('a file over 25 MB is refused for speech-to-text with its measured size, before any upload', async () => {
    const large = file('large-26mb.wav');
    const [result] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', large, {
      model: whisper,
      language: 'en',
      output: 'none',
    });
    assert.equal(result?.status, 'failed');
    // The file's own size, measured here, not the limit (which every refusal names).
    const measured = `${(fs.statSync(large.fsPath).size / 1_000_000).toFixed(1)} MB`;
    assert.notEqual(measured, '25.0 MB', 'the fixture is over the limit');
    assert.ok((result?.error ?? '').startsWith(`This file is ${measured};`), `the refusal names the measured ${measured}: ${result?.error}`);
    assert.equal(audioRequests().length, 0);
  });

  test('audio over 30 s for the audio-instruct family is split (WAV) and the transcripts joined', async () => {
    emulator().scriptTranscript('part one.', { times: 1 });
    emulator().scriptTranscript('part two.', { times: 1 });
    const [result] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', file('long-45s.wav'), {
      model: qwen,
      language: 'en',
      output: 'none',
      split: true,
    });
    assert.equal(result?.status, 'done', result?.error);
    assert.equal(result?.text, 'part one. part two.');
    assert.equal(audioRequests().length, 2);
  });

  test('audio over 30 s that cannot be cut here says what to do instead', async () => {
    const [result] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', file('long-95s.ogg'), {
      model: qwen,
      language: 'en',
      output: 'none',
      split: true,
    });
    assert.equal(result?.status, 'failed');
    assert.match(result?.error ?? '', /1 min 35 s/);
    assert.match(result?.error ?? '', /WAV|ffmpeg|cut/i);
    assert.equal(audioRequests().length, 0);
  });

  test('translates with the audio-instruct family into the chosen target language', async () => {
    emulator().scriptTranscript('Hallo aus dem Test.');
    const [result] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.translateAudio', [file('wav-pcm16-mono-16k.wav')], {
      model: qwen,
      language: 'German',
      output: 'none',
    });
    assert.equal(result?.text, 'Hallo aus dem Test.');
    const [request] = audioRequests();
    assert.equal(request?.path, '/v1/audio/translations');
    // The audio-instruct family takes full language names (docs/service.md#transcription-and-translation).
    assert.equal(request?.body['language'], 'german');
  });

  test('a service error shows with the file it concerns, and the others still finish', async () => {
    emulator().injectFault(
      {
        kind: 'status',
        status: 400,
        body: '{"error":{"message":"Unsupported audio","type":"invalid_request_error","code":"invalid_value","param":"file"}}',
        contentType: 'application/json',
      },
      { path: '/v1/audio/transcriptions' },
    );
    emulator().scriptTranscript('fine');
    const results = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', [file('m4a-aac.m4a'), file('mp3-sox.mp3')], {
      model: whisper,
      language: 'en',
      output: 'none',
    });
    const failed = results.filter((result) => result.status === 'failed');
    assert.equal(failed.length, 1);
    assert.match(failed[0]?.error ?? '', /Unsupported audio/);
    assert.equal(results.filter((result) => result.status === 'done').length, 1);
  });

  test('cancel keeps the transcripts already done', async () => {
    const controller = new AbortController();
    emulator().scriptTranscript('done before the cancel', { times: 1 });
    // The first upload goes through; the next ones get 429 with a long retry-after, so the second file is
    // waiting in back-off when the cancel comes.
    emulator().injectFault({ kind: 'rateLimit', afterRequests: 1, retryAfter: '30' }, { path: '/v1/audio/transcriptions', times: 5 });
    await vscode.workspace.getConfiguration('cadenza.audio').update('concurrency', 1, vscode.ConfigurationTarget.Global);
    try {
      const first = file('wav-u8-mono-8k.wav');
      const running = vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', [first, file('wav-alaw-8k.wav'), file('wav-mulaw-8k.wav')], {
        model: whisper,
        language: 'en',
        output: 'none',
        signal: controller.signal,
      });
      await waitFor(() => audioRequests().length >= 2, 'the second upload');
      const canceledAt = Date.now();
      controller.abort();
      const results = await running;
      assert.ok(Date.now() - canceledAt < 2000, 'cancel is prompt');
      assert.deepEqual(
        results.map((result) => result.status),
        ['done', 'canceled', 'canceled'],
      );
      assert.equal(results[0]?.text, 'done before the cancel');
    } finally {
      await vscode.workspace.getConfiguration('cadenza.audio').update('concurrency', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  suite('without asking, once defaults exist', () => {
    const audioConfig = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('cadenza.audio');
    teardown(async () => {
      for (const key of ['transcriptionModel', 'language']) await audioConfig().update(key, undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('executeCommand(transcribeAudio, uri) resolves with the transcript: the first speech-to-text model, the language detected, no question', async () => {
      emulator().scriptTranscript('Nothing was asked.');
      const dialogs = spyOnDialogs();
      try {
        const [result] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', file('mp3-cbr128-info-id3.mp3'));
        assert.equal(result?.status, 'done', result?.error);
        assert.equal(result?.text, 'Nothing was asked.');
        assert.deepEqual(dialogs.calls, [], 'no picker or question');
      } finally {
        dialogs.restore();
      }
      const [request] = audioRequests();
      assert.equal(request?.body['model'], whisper);
      assert.equal(request?.body['language'], undefined, 'the service detects the language');
    });

    test('uses cadenza.audio.transcriptionModel and cadenza.audio.language, each family in its own language form', async () => {
      await audioConfig().update('transcriptionModel', qwen, vscode.ConfigurationTarget.Global);
      await audioConfig().update('language', 'Spanish', vscode.ConfigurationTarget.Global);
      const dialogs = spyOnDialogs();
      try {
        const [first] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', file('wav-pcm16-mono-16k.wav'), { output: 'none' });
        assert.equal(first?.status, 'done', first?.error);
        await audioConfig().update('transcriptionModel', whisper, vscode.ConfigurationTarget.Global);
        const [second] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.translateAudio', file('wav-pcm16-mono-16k.wav'), { output: 'none' });
        assert.equal(second?.status, 'done', second?.error);
        assert.deepEqual(dialogs.calls, []);
      } finally {
        dialogs.restore();
      }
      assert.deepEqual(
        audioRequests().map((request) => [request.path, request.body['model'], request.body['language']]),
        [
          ['/v1/audio/transcriptions', qwen, 'spanish'],
          ['/v1/audio/translations', whisper, 'es'],
        ],
      );
    });

    test('a batch of 50 files asks at most once (the split question for over-long WAV, answered for all)', async function () {
      this.timeout(120_000);
      await audioConfig().update('transcriptionModel', qwen, vscode.ConfigurationTarget.Global);
      const dialogs = spyOnDialogs((call) => (call.kind === 'warning' ? call.items.find((item) => /^Split/.test(item)) : undefined));
      let results: AudioFileResult[];
      try {
        const uris = Array.from({ length: 50 }, () => file('long-45s.wav'));
        results = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', uris, { output: 'none' });
      } finally {
        dialogs.restore();
      }
      assert.deepEqual(
        dialogs.calls.map((call) => call.kind),
        ['warning'],
        `asked: ${JSON.stringify(dialogs.calls)}`,
      );
      assert.equal(results.length, 50);
      assert.deepEqual([...new Set(results.map((result) => result.status))], ['done']);
      assert.equal(audioRequests().length, 100, 'each 45 s file went as two parts');
    });

    test('a configured model the service does not list is not replaced silently: the picker asks, once', async () => {
      await audioConfig().update('transcriptionModel', 'Whisper-Retired', vscode.ConfigurationTarget.Global);
      const dialogs = spyOnDialogs((call) => (call.kind === 'quickPick' ? call.items.find((item) => item === whisper) : undefined));
      try {
        const [result] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', file('wav-pcm16-mono-16k.wav'), { output: 'none' });
        assert.equal(result?.status, 'done', result?.error);
      } finally {
        dialogs.restore();
      }
      assert.deepEqual(dialogs.calls.map((call) => call.kind).sort(), ['quickPick', 'warning']);
      assert.match(dialogs.calls.find((call) => call.kind === 'warning')?.message ?? '', /Whisper-Retired/);
      assert.equal(audioRequests()[0]?.body['model'], whisper);
    });

    test('Transcribe with Options… keeps the pickers: model, then language', async () => {
      await audioConfig().update('transcriptionModel', whisper, vscode.ConfigurationTarget.Global);
      const dialogs = spyOnDialogs((call) => call.items.find((item) => item === qwen || item === 'French'));
      try {
        const [result] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudioWithOptions', file('wav-pcm16-mono-16k.wav'), {
          output: 'none',
        });
        assert.equal(result?.status, 'done', result?.error);
      } finally {
        dialogs.restore();
      }
      assert.deepEqual(
        dialogs.calls.map((call) => call.kind),
        ['quickPick', 'quickPick'],
      );
      assert.match(dialogs.calls[0]?.message ?? '', /transcription model/);
      const [request] = audioRequests();
      assert.equal(request?.body['model'], qwen);
      assert.equal(request?.body['language'], 'french');
    });

    test('a model priced per audio hour shows the cost of each transcript, from its duration', async () => {
      emulator().scriptTranscript('Costed.');
      const listed = emulator().models.find((model) => model.id === whisper)?.pricing.durationPerHour;
      assert.ok(listed !== undefined, 'the emulator lists a price per audio hour for Whisper');
      const [result] = await vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', file('flac-sox.flac'), { output: 'document' });
      assert.equal(result?.status, 'done', result?.error);
      const expected = ((result?.seconds ?? Number.NaN) * Number(listed)) / 3600;
      assert.ok(Math.abs((result?.cost ?? Number.NaN) - expected) < 1e-12, `cost ${result?.cost}, expected ${expected}`);
      await waitFor(() => vscode.workspace.textDocuments.some((document) => document.getText().includes('Costed.')), 'the transcript document');
      const text = vscode.workspace.textDocuments.find((candidate) => candidate.getText().includes('Costed.'))?.getText() ?? '';
      assert.match(text, new RegExp(`- Cost: \\$${expected.toFixed(4).replace('.', '\\.')}`));
    });
  });

  test('Ask About This Audio refuses a recording over 30 s before uploading anything', async () => {
    const answer = await vscode.commands.executeCommand<string | undefined>('cadenza.askAboutAudio', file('long-45s.wav'), {
      question: 'What is said?',
      model: qwen,
    });
    assert.equal(answer, undefined);
    assert.equal(emulator().requests.filter((request) => request.path === '/v1/audio/reasoning').length, 0);
  });

  test('Ask About This Audio sends the audio inline to audio reasoning and the chat goes on about it', async () => {
    const api = await cadenzaApi();
    await openChatView(api);
    emulator().scriptChat({ content: 'Someone reads a test sentence.' });
    const answer = await vscode.commands.executeCommand<string>('cadenza.askAboutAudio', file('wav-pcm16-mono-16k.wav'), {
      question: 'What is said?',
      model: qwen,
    });
    assert.equal(answer, 'Someone reads a test sentence.');
    const first = emulator().requests.find((request) => request.path === '/v1/audio/reasoning');
    assert.ok(first, 'audio reasoning was called');
    assert.match(JSON.stringify(first.body), /"audio_content":\{"content":"data:audio\/wav;base64,UklGR/);
    assert.match(JSON.stringify(first.body), /What is said\?/);
    emulator().scriptChat({ content: 'It is English.' });
    const panel = drivePanel(api);
    const followUp = await panel.send('Which language is it?').finally(() => panel.dispose());
    assert.equal(followUp.answer, 'It is English.');
    const reasoning = emulator().requests.filter((request) => request.path === '/v1/audio/reasoning');
    assert.equal(reasoning.length, 2, 'the follow-up went to audio reasoning with the audio again');
    assert.match(JSON.stringify(reasoning[1]?.body), /Which language is it\?/);
    assert.match(JSON.stringify(reasoning[1]?.body), /data:audio\/wav;base64/);
  });
});
