// VS Code's OWN chat, in agent mode, on Cadenza's language model provider and the REAL local model
// (Qwen2.5-Coder-1.5B on the stack's llama-server): a question about a workspace file goes in through
// `workbench.action.chat.open` as a user's typed question would, with `chat.allowAnonymousAccess` (what
// `npm start` sets, so no GitHub sign-in is needed). VS Code offers no way to read a chat answer back, so
// a recording relay between Cadenza and llama-server keeps what VS Code's request held and what the model
// streamed: the answer is judged from that, by meaning.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { type AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cadenzaApi, waitFor } from '../integration/helpers';

/** An environment variable the tier sets; a missing one is a failure, never a skip. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: this suite runs inside the real-model tier (node test/realmodels/run.mjs)`);
  return value;
}

interface Exchange {
  readonly body: { messages?: unknown[]; tools?: unknown[] };
  text: string;
  done: boolean;
}

/** Forwards every request to `target` and records chat requests with the text their answer streamed. */
async function startRelay(target: string): Promise<{ url: string; exchanges: Exchange[]; close(): Promise<void> }> {
  const exchanges: Exchange[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let exchange: Exchange | undefined;
      if (req.url?.startsWith('/v1/chat/completions')) {
        exchange = { body: JSON.parse(raw.toString('utf8')) as Exchange['body'], text: '', done: false };
        exchanges.push(exchange);
      }
      const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        let pending = '';
        answer.on('data', (chunk: Buffer) => {
          res.write(chunk);
          if (!exchange) return;
          pending += chunk.toString('utf8');
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) {
            const data = line.startsWith('data: ') ? line.slice(6).trim() : '';
            if (data === '' || data === '[DONE]') continue;
            try {
              const parsed = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
              exchange.text += parsed.choices?.[0]?.delta?.content ?? '';
            } catch {
              // not an SSE data line
            }
          }
        });
        answer.on('end', () => {
          if (exchange) exchange.done = true;
          res.end();
        });
      });
      upstream.on('error', (error) => {
        res.writeHead(502);
        res.end(String(error));
      });
      upstream.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

suite('Real models: VS Code\'s own chat in agent mode on Cadenza\'s model', () => {
  const global = vscode.ConfigurationTarget.Global;
  let relay: Awaited<ReturnType<typeof startRelay>> | undefined;

  suiteSetup(async function () {
    this.timeout(120_000);
    relay = await startRelay(required('CADENZA_REAL_CHAT_URL'));
    await vscode.workspace.getConfiguration('chat').update('allowAnonymousAccess', true, global);
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', relay.url, global);
    await vscode.workspace.getConfiguration('cadenza').update('requestTimeoutSeconds', 900, global);
    await vscode.commands.executeCommand('cadenza.setApiKey', 'local-stack-needs-no-key');
    await cadenzaApi();
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('chat').update('allowAnonymousAccess', undefined, global);
    for (const key of ['baseUrl', 'requestTimeoutSeconds']) await vscode.workspace.getConfiguration('cadenza').update(key, undefined, global);
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await relay?.close();
  });

  test('asked about a workspace file in agent mode, it answers from the file through Cadenza\'s provider', async function () {
    // VS Code's agent prompt (its instructions and tool schemas) is thousands of tokens: minutes on 2 cores.
    this.timeout(1_500_000);
    const chat = (JSON.parse(required('CADENZA_REAL_MODELS')) as { chat: string }).chat;
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza', id: chat })).length > 0, `Cadenza's ${chat} in VS Code`, 60_000);
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the fixture workspace is open');
    const file = vscode.Uri.file(path.join(root, 'src', 'greeting.ts'));
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: 'What does the function in this file return? Answer in one sentence.',
      mode: 'agent',
      modelSelector: { vendor: 'cadenza', id: chat },
      attachFiles: [file],
      blockOnResponse: true,
    });
    const exchanges = relay?.exchanges ?? [];
    await waitFor(() => exchanges.length > 0 && exchanges.every((exchange) => exchange.done), () => `VS Code's request through Cadenza to finish (${exchanges.length} so far)`, 1_200_000);
    const first = exchanges[0];
    assert.ok(first, 'VS Code sent its request through Cadenza');
    // Agent mode: VS Code offered its tools; the question and the attached file went with it.
    assert.ok((first.body.tools?.length ?? 0) > 0, 'agent mode offers tools');
    const sent = JSON.stringify(first.body.messages);
    assert.match(sent, /Hello, \$\{name\}!/, 'the attached file went to the model');
    const answer = exchanges.map((exchange) => exchange.text).join('\n').trim();
    console.log(`[realmodels] VS Code chat, agent mode: ${exchanges.length} request(s) (${sent.length} characters in the first), answer "${answer}"`);
    // Judged by meaning: the answer names what the function gives back, a word only the file holds.
    assert.match(answer, /\bstring\b|Hello|greeting/i, answer);
  });
});
