import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToWebview } from '../../src/shared/protocol';
import { loadFixtures, type FixtureManifest } from '../unit/audio/fixtures';
import { cadenzaApi, storedConversation, waitFor } from './helpers';
import { useChatSuite } from './panelDriver';

const qwen = 'Qwen2-Audio-7B-Instruct';
const whisper = 'Whisper-Large-v3';

/**
 * Audio in the chat panel, driven through the panel's messages (panelDriver.ts) with VS Code's open dialog
 * replaced by the file it would return: the host-side pick functions take the file (`panelAudio.pick(uri)`),
 * as a dialog cannot be answered here.
 */
suite('Chat panel audio: attach, send, transcribe into the prompt', () => {
  const { emulator, panel } = useChatSuite(qwen);
  let fixtures: FixtureManifest;
  const file = (name: string): vscode.Uri => {
    const entry = fixtures.files.find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`no audio fixture ${name}`);
    return vscode.Uri.file(entry.path);
  };
  const audioRequests = (): { path: string; body: unknown }[] =>
    emulator()
      .requests.filter((request) => request.path.startsWith('/v1/audio/'))
      .map((request) => ({ path: request.path, body: request.body }));
  const posted = <T extends ToWebview['type']>(type: T): Extract<ToWebview, { type: T }>[] =>
    panel().messages.filter((message): message is Extract<ToWebview, { type: T }> => message.type === type);

  suiteSetup(function () {
    this.timeout(120_000);
    // Real speech made by Debian's TTS and converted by sox/ffmpeg; generated once per machine, cached.
    fixtures = loadFixtures();
  });

  test('attach + send: the answer streams from /v1/audio/reasoning, which got the audio inline', async () => {
    const api = await cadenzaApi();
    const attached = await api.panelAudio.pick(file('wav-pcm16-mono-16k.wav'));
    assert.ok(attached, 'the file was attached');
    const [chip] = posted('composer/audio');
    assert.deepEqual(chip?.audio, attached);
    assert.equal(attached.name, 'wav-pcm16-mono-16k.wav');
    assert.equal(attached.bytes, (await vscode.workspace.fs.stat(file('wav-pcm16-mono-16k.wav'))).size);
    assert.ok(attached.seconds > 1 && attached.seconds <= 30, `duration ${attached.seconds}`);
    assert.match(attached.token, /^[0-9a-f-]{36}$/, 'the panel holds a token, not the audio');

    const answer = 'Someone reads a short test sentence in English.';
    emulator().scriptChat({ content: answer, chunkCount: 6 });
    await panel().send('What is said in this recording?', {}, { audio: attached.token });

    const reasoning = audioRequests().filter((request) => request.path === '/v1/audio/reasoning');
    assert.equal(reasoning.length, 1, 'one audio-reasoning request');
    const body = JSON.stringify(reasoning[0]?.body);
    assert.match(body, /"audio_content":\{"content":"data:audio\/wav;base64,UklGR/);
    assert.match(body, /What is said in this recording\?/);
    assert.equal(emulator().requests.filter((request) => request.path === '/v1/chat/completions').length, 0, 'nothing went to chat completions');

    const user = posted('message/add').find((message) => message.message.role === 'user')?.message;
    assert.equal(user?.audioName, 'wav-pcm16-mono-16k.wav', 'the user message shows its audio');
    const deltas = posted('chat/delta');
    assert.ok(deltas.length >= 1, 'the answer streamed in deltas');
    assert.equal(deltas.map((delta) => delta.text).join(''), answer);
    const [done] = posted('chat/done');
    assert.equal(done?.error, undefined, JSON.stringify(done?.error));
    assert.equal(done?.stopped, false);
    const stored = (await storedConversation(api, (await panel().conversation()).id))?.messages.find((message) => message.role === 'user' && message.audio);
    assert.match(stored?.audio?.dataUrl ?? '', /^data:audio\/wav;base64,UklGR/);
  });

  test('a token is good for one message: sending it again is refused with a notice, and nothing is sent', async () => {
    const api = await cadenzaApi();
    const attached = await api.panelAudio.pick(file('flac-sox.flac'));
    assert.ok(attached);
    emulator().scriptChat({ content: 'First.' });
    await panel().send('Once', {}, { audio: attached.token });
    assert.equal(audioRequests().length, 1);
    panel().clear();
    await panel().send('Twice', {}, { audio: attached.token });
    assert.equal(audioRequests().length, 1, 'the second send was not uploaded');
    const notice = posted('notice').at(-1);
    assert.equal(notice?.level, 'error');
    assert.match(notice?.text ?? '', /no longer here.*Attach it again/);
    assert.equal(posted('message/add').length, 0, 'no message was added');
  });

  test('a recording over 30 s for the audio-instruct family gives the notice, and nothing is uploaded', async () => {
    const api = await cadenzaApi();
    const attached = await api.panelAudio.pick(file('long-45s.wav'));
    assert.equal(attached, undefined);
    assert.equal(posted('composer/audio').length, 0, 'no chip');
    const notice = posted('notice').at(-1);
    assert.equal(notice?.level, 'warning');
    assert.match(notice?.text ?? '', /^long-45s\.wav: This recording is 4\d\.\d s long; audio models take at most 30 s per message\./);
    assert.doesNotMatch(notice?.text ?? '', /split/, 'no offer to split: an attachment is sent whole');
    assert.equal(audioRequests().length, 0);
  });

  test('transcribe into the prompt posts composer/insertText with the transcript, then reuses the model and language', async () => {
    const api = await cadenzaApi();
    emulator().scriptTranscript('Please summarise the meeting notes.', { times: 1 });
    const text = await api.panelAudio.transcribeIntoPrompt(file('mp3-sox.mp3'), { model: whisper, language: 'English' });
    assert.equal(text, 'Please summarise the meeting notes.');
    await waitFor(() => posted('composer/insertText').length === 1, 'composer/insertText');
    assert.equal(posted('composer/insertText')[0]?.text, 'Please summarise the meeting notes.');
    const [upload] = audioRequests();
    assert.equal(upload?.path, '/v1/audio/transcriptions');
    assert.equal((upload?.body as Record<string, unknown>)['model'], whisper);
    assert.equal((upload?.body as Record<string, unknown>)['language'], 'en');

    // The second time nothing is asked: the last model and language are used (a picker would hang here).
    emulator().scriptTranscript('And the action items.', { times: 1 });
    assert.equal(await api.panelAudio.transcribeIntoPrompt(file('ogg-vorbis-sox.ogg')), 'And the action items.');
    const second = audioRequests()[1]?.body as Record<string, unknown> | undefined;
    assert.equal(second?.['model'], whisper);
    assert.equal(second?.['language'], 'en');
    assert.equal(posted('composer/insertText')[1]?.text, 'And the action items.');
  });

  test('transcribe into the prompt: a file that is not audio comes back as a notice naming it, before any upload', async () => {
    const api = await cadenzaApi();
    assert.equal(await api.panelAudio.transcribeIntoPrompt(file('notaudio-png.mp3'), { model: whisper, language: 'en' }), undefined);
    const notice = posted('notice').at(-1);
    assert.equal(notice?.level, 'error');
    assert.match(notice?.text ?? '', /^notaudio-png\.mp3: This file is not audio/);
    assert.equal(posted('composer/insertText').length, 0);
    assert.equal(audioRequests().length, 0);
  });
});
