// Fill-in-the-middle completions in the real extension host. A llama-server stand-in sits in front of the
// emulator: it answers POST /infill itself (the probe and the streamed completion) and passes every other
// request on to the emulator. With it, the ghost text comes from /infill and no chat request is sent; with a
// front that passes /infill on too (the emulator, like the hosted service, has no such route: 404), the
// chat prompt is used.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CompletionDecision } from '../../src/host/completions/completionService';
import { chatRequests, setUserSetting, triggerAt, workspaceRoot } from './completionHelpers';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

interface Front {
  readonly baseUrl: string;
  readonly infill: { readonly stream: boolean; readonly body: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** A front on a free port; `answerInfill` false passes /infill on to the emulator as well. */
async function startFront(target: string, answerInfill: boolean, pieces: readonly string[]): Promise<Front> {
  const infill: Front['infill'] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      if (req.url === '/infill') {
        const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        infill.push({ stream: parsed['stream'] === true, body: parsed });
        if (answerInfill) {
          if (parsed['stream'] !== true) {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ content: '', stop: true, stop_type: 'limit', tokens_predicted: 0, tokens_evaluated: 3 }));
            return;
          }
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          pieces.forEach((content, i) => res.write(`data: ${JSON.stringify({ content, stop: false, tokens_predicted: i + 1, tokens_evaluated: 30 })}\n\n`));
          res.end(`data: ${JSON.stringify({ content: '', stop: true, stop_type: 'eos', tokens_predicted: pieces.length, tokens_evaluated: 30 })}\n\n`);
          return;
        }
      }
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    infill,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

suite('Inline completions: fill-in-the-middle', () => {
  const emulator = useEmulator();
  const decisions: CompletionDecision[] = [];
  const fronts: Front[] = [];
  let subscription: vscode.Disposable | undefined;
  let samples = '';

  suiteSetup(async () => {
    const api = await cadenzaApi();
    subscription = api.completions.onDidDecide((decision) => decisions.push(decision));
    samples = path.join(workspaceRoot(), 'completion-fim');
    fs.mkdirSync(samples, { recursive: true });
    fs.writeFileSync(path.join(samples, 'circle.js'), 'function circleArea(radius) {\n  return \n}\n');
    // Another file for the chat case: the scheduler would reuse circle.js's suggestion at the same place.
    fs.writeFileSync(path.join(samples, 'square.js'), 'function squareArea(side) {\n  return \n}\n');
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await vscode.workspace.getConfiguration('editor').update('inlineSuggest.enabled', true, vscode.ConfigurationTarget.Global);
    await setUserSetting('cadenza.completions', 'enabled', true);
    await waitFor(
      () => api.completions.state().kind === 'on',
      () => `completions on (state ${JSON.stringify(api.completions.state())})`,
    );
  });

  setup(() => {
    emulator().reset();
    decisions.length = 0;
  });

  suiteTeardown(async () => {
    subscription?.dispose();
    await vscode.workspace.getConfiguration('cadenza.completions').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('editor').update('inlineSuggest.enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    for (const front of fronts.splice(0)) await front.close();
    fs.rmSync(samples, { recursive: true, force: true });
  });

  /** Points the service address at `front` and waits for the model list read through it. */
  async function useFront(front: Front): Promise<void> {
    fronts.push(front);
    await setUserSetting('cadenza', 'baseUrl', front.baseUrl);
    const api = await cadenzaApi();
    await waitFor(() => emulator().requests.some((request) => request.path === '/v1/models'), 'the model list read through the front');
    await waitFor(() => api.completions.state().kind === 'on', 'completions on');
  }

  test('a server that answers /infill writes the ghost text, and no chat request is sent', async function () {
    this.timeout(60_000);
    // The model answers past the block (as Qwen2.5-Coder did on llama-server): the shared cleaning cuts it.
    const front = await startFront(emulator().baseUrl, true, ['Math.PI', ' * radius ** 2;', '\n}\n', '\nconsole.log(1);\n']);
    await useFront(front);
    // Were the chat path taken, the ghost text would be this instead.
    emulator().scriptChat({ content: 'radius * radius * 3;' });
    const uri = await triggerAt(path.join(samples, 'circle.js'), 1, 9);
    await waitFor(
      () => decisions.some((d) => d.uri === uri && d.outcome === 'suggested'),
      () => `a suggestion (decisions: ${JSON.stringify(decisions)}, infill: ${JSON.stringify(front.infill.map((r) => r.stream))})`,
    );
    assert.equal(decisions.find((d) => d.uri === uri && d.outcome === 'suggested')?.text, 'Math.PI * radius ** 2;');
    const streamed = front.infill.filter((request) => request.stream);
    assert.ok(streamed.length >= 1, 'the completion went to /infill');
    assert.equal(front.infill.filter((request) => !request.stream).length, 1, 'one probe for this server and model');
    const body = streamed[0]?.body ?? {};
    assert.equal(body['input_prefix'], 'function circleArea(radius) {\n  return ');
    assert.equal(body['input_suffix'], '\n}\n');
    assert.equal(body['model'], 'Meta-Llama-3.1-8B-Instruct');
    assert.equal(chatRequests(emulator()).length, 0, 'no chat request was sent');
  });

  test('a server whose /infill is not found gets the chat prompt', async function () {
    this.timeout(60_000);
    const front = await startFront(emulator().baseUrl, false, []);
    await useFront(front);
    emulator().scriptChat({ content: 'side * side;' });
    const uri = await triggerAt(path.join(samples, 'square.js'), 1, 9);
    await waitFor(
      () => decisions.some((d) => d.uri === uri && d.outcome === 'suggested'),
      () => `a suggestion (decisions: ${JSON.stringify(decisions)})`,
    );
    assert.equal(decisions.find((d) => d.uri === uri && d.outcome === 'suggested')?.text, 'side * side;');
    assert.ok(chatRequests(emulator()).length >= 1, 'the chat path was taken');
    assert.deepEqual(
      front.infill.map((request) => request.stream),
      [false],
      'only the probe went to /infill (and the emulator answered 404)',
    );
  });
});
