import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { toneWav } from '../support/fixtures/wav';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

/** A stand-in for a whisper server on loopback: no /v1/models, a transcript for any upload. */
async function startWhisperLike(): Promise<{ url: string; hits: { url: string; headers: IncomingHttpHeaders }[]; server: Server }> {
  const hits: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      const found = req.method === 'POST' && req.url === '/v1/audio/transcriptions';
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(found ? { text: 'ask not what your country can do for you' } : { detail: 'Not Found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

suite('Per-operation endpoints', () => {
  const emulator = useEmulator();
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('cadenza');
  let whisper: Awaited<ReturnType<typeof startWhisperLike>> | undefined;

  suiteTeardown(async () => {
    await config().update('endpoints.audio', undefined, vscode.ConfigurationTarget.Global);
    await config().update('models.overrides', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('cadenza.clearApiKey', 'audio');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    whisper?.server.close();
  });

  test('audio goes to its own server with its own key, and its override-only model joins the model list', async () => {
    const api = await cadenzaApi();
    whisper = await startWhisperLike();
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    assert.equal(await vscode.commands.executeCommand('cadenza.setApiKey', 'audio-secret', 'audio'), true);
    await config().update(
      'models.overrides',
      { 'whisper-base': { capabilities: ['transcription'], family: 'speechToText' } },
      vscode.ConfigurationTarget.Global,
    );
    await config().update('endpoints.audio', whisper.url, vscode.ConfigurationTarget.Global);

    const models = await api.connection.refreshModels();
    const ids = models.map((model) => model.id);
    assert.ok(ids.includes('whisper-base'), `whisper-base listed: ${ids.join(', ')}`);
    assert.ok(ids.length > 1, "the emulator's models are still listed");
    await waitFor(() => whisper!.hits.some((hit) => hit.url === '/v1/models'), 'the audio server to be asked for its models');

    const result = await (await api.connection.client()).transcribe({ model: 'whisper-base', audio: toneWav(0.5), responseFormat: 'json' });
    assert.equal(result.text, 'ask not what your country can do for you');
    const upload = whisper.hits.find((hit) => hit.url === '/v1/audio/transcriptions');
    assert.equal(upload?.headers.authorization, 'Bearer audio-secret');
    assert.equal(emulator().requests.filter((request) => request.path === '/v1/audio/transcriptions').length, 0, 'nothing went to the main service');
  });

  test('with its own key cleared and its address emptied, audio goes to the main service with the main key again', async () => {
    const api = await cadenzaApi();
    await vscode.commands.executeCommand('cadenza.clearApiKey', 'audio');
    await config().update('endpoints.audio', undefined, vscode.ConfigurationTarget.Global);
    emulator().reset();
    const result = await (await api.connection.client()).transcribe({ model: 'Whisper-Large-v3', audio: toneWav(0.5), responseFormat: 'json' });
    assert.equal(typeof result.text, 'string');
    // The emulator answers 401 to any key but its own: the main key went with it.
    assert.equal(emulator().requests.filter((request) => request.path === '/v1/audio/transcriptions').length, 1);
  });
});
