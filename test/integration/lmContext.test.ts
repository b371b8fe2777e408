import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { cadenzaApi, waitFor } from './helpers';

type WireMessage = { role: string; content: string };
type Body = { model: string; max_tokens?: number; messages: WireMessage[] };

const modelId = 'cadenza-standin-coder';
/** The stand-in's context: VS Code is told 1,024 input tokens (the rest is kept for the answer). */
const contextSize = 2048;

/** The stand-in's tokenizer: one token per two characters, twice as dense as Cadenza's plain estimate. */
const tokensOf = (text: string): number => Math.ceil(text.length / 2);

/**
 * A stand-in for llama-server on loopback: lists one model with `meta.n_ctx`, tokenises with POST
 * /tokenize (or, as a server without a tokenizer, answers it 404), and streams an answer from /v1/chat/completions, refusing (as llama-server does, with its
 * error body) a request whose prompt and answer do not fit the context.
 */
async function startLlamaLike(options: { tokenizer: boolean; id: string }): Promise<{ url: string; server: Server; chats: Body[]; tokenizes: number }> {
  const state = { url: '', server: undefined as unknown as Server, chats: [] as Body[], tokenizes: 0 };
  state.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const json = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'GET' && req.url === '/v1/models') {
        json(200, {
          object: 'list',
          data: [{ id: options.id, object: 'model', created: 1, owned_by: 'llamacpp', meta: { n_ctx: contextSize, n_ctx_train: 32768 } }],
        });
      } else if (req.method === 'POST' && req.url === '/tokenize') {
        state.tokenizes += 1;
        if (!options.tokenizer) {
          json(404, { error: { message: 'File Not Found', type: 'not_found_error', code: 404 } });
          return;
        }
        const { content } = JSON.parse(text) as { content: string };
        json(200, { tokens: Array.from({ length: tokensOf(content) }, (_, i) => i) });
      } else if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        const body = JSON.parse(text) as Body;
        state.chats.push(body);
        const prompt = body.messages.reduce((sum, message) => sum + tokensOf(message.content) + 4, 0);
        if (prompt + (body.max_tokens ?? 0) > contextSize) {
          json(400, {
            error: {
              code: 400,
              message: `request (${prompt} tokens) exceeds the available context size (${contextSize} tokens), try increasing it`,
              type: 'exceed_context_size_error',
              n_prompt_tokens: prompt,
              n_ctx: contextSize,
            },
          });
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: options.id, choices, ...extra })}\n\n`;
        res.end(
          chunk([{ index: 0, delta: { role: 'assistant', content: 'It fits.' }, finish_reason: null }]) +
            chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]) +
            chunk([], { usage: { prompt_tokens: prompt, completion_tokens: 3, total_tokens: prompt + 3 } }) +
            'data: [DONE]\n\n',
        );
      } else {
        json(404, { error: { message: 'File Not Found', type: 'not_found_error', code: 404 } });
      }
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

async function collect(response: vscode.LanguageModelChatResponse): Promise<string> {
  let text = '';
  for await (const part of response.stream) if (part instanceof vscode.LanguageModelTextPart) text += part.value;
  return text;
}

/** A turn's text: its label, then filler up to `length` characters (as dense for the tokenizer as any). */
const padded = (label: string, length: number): string => `${label} ${'x'.repeat(length - label.length - 1)}`;

/**
 * VS Code's own chat on a small-context local model (issue #35): Cadenza counts with the server's
 * tokenizer, leaves out the oldest turns of a request that would not fit, and refuses one that cannot
 * with a message a user can act on.
 */
suite("VS Code chat: fitting requests to a local model's context", () => {
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('cadenza');
  const token = (): vscode.CancellationToken => new vscode.CancellationTokenSource().token;
  let llama: Awaited<ReturnType<typeof startLlamaLike>> | undefined;
  const model = async (id = modelId): Promise<vscode.LanguageModelChat> => {
    const [found] = await vscode.lm.selectChatModels({ vendor: 'cadenza', id });
    assert.ok(found, `${id} is offered in VS Code`);
    return found;
  };

  suiteSetup(async function () {
    this.timeout(60_000);
    await cadenzaApi();
    llama = await startLlamaLike({ tokenizer: true, id: modelId });
    await config().update('baseUrl', llama.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('cadenza.setApiKey', 'local-key');
    await vscode.commands.executeCommand('cadenza.refreshModels');
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza', id: modelId })).length > 0, "the stand-in's model in VS Code");
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    llama?.server.close();
  });

  test("counts with the server's tokenizer, and leaves out the oldest turns of a request the estimate would have sent whole", async () => {
    const chat = await model();
    assert.equal(chat.maxInputTokens, 1024);
    assert.equal(await chat.countTokens('abcdefgh'), 4, "the server's count (the plain estimate says 2)");
    assert.ok(llama!.tokenizes > 0, 'POST /tokenize was asked');

    // 3,760 characters: about 972 tokens by four characters a token, within the 1,024 VS Code was told;
    // by the server's tokenizer about 1,912, which with the 1,024 kept for the answer overflows 2,048.
    const messages = [
      vscode.LanguageModelChatMessage.User(padded('Turn 1 question', 560)),
      vscode.LanguageModelChatMessage.Assistant(padded('Turn 1 answer', 560)),
      vscode.LanguageModelChatMessage.User(padded('Turn 2 question', 560)),
      vscode.LanguageModelChatMessage.Assistant(padded('Turn 2 answer', 560)),
      vscode.LanguageModelChatMessage.User(padded('Turn 3 question', 560)),
      vscode.LanguageModelChatMessage.Assistant(padded('Turn 3 answer', 560)),
      vscode.LanguageModelChatMessage.User(padded('Latest question', 400)),
    ];
    assert.equal(await collect(await chat.sendRequest(messages, {}, token())), 'It fits.');
    const sent = llama!.chats.at(-1);
    const labels = sent?.messages.map((message) => message.content.split(' x')[0]);
    assert.deepEqual(
      labels,
      ['Turn 3 question', 'Turn 3 answer', 'Latest question'],
      'the two oldest turns left out, the latest message and the turn before it sent',
    );
    assert.equal(llama!.chats.length, 1, 'sent once, and not refused');
  });

  test('a request that cannot fit is not sent, and says which model, how large, and what to do (no stack, no path)', async () => {
    const chat = await model();
    const before = llama!.chats.length;
    const error = await chat
      .sendRequest(
        [
          vscode.LanguageModelChatMessage.User(padded('Turn 1 question', 200)),
          vscode.LanguageModelChatMessage.Assistant(padded('Turn 1 answer', 200)),
          vscode.LanguageModelChatMessage.User(padded('A huge question', 3000)),
        ],
        {},
        token(),
      )
      .then(collect)
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    assert.ok(error instanceof Error, `rejected, not ${String(error)}`);
    assert.equal(
      error.message,
      `This request is too large for ${modelId}: about 1,712 tokens (1,504 with every earlier turn left out), but the model's context is 2,048 tokens, 1,024 of them kept for the answer. ` +
        "Pick a model with a larger context, or raise the server's context size (llama-server -c), or start a new chat with fewer tools or attachments.",
    );
    // VS Code's chat prints `message: stack` when an error has a stack (toErrorMessage, verbose).
    assert.ok(!error.stack, `no stack reaches the caller: ${String(error.stack)}`);
    assert.equal(llama!.chats.length, before, 'nothing was sent');
  });

  test('without a tokenizer, the count learns from the prompt_tokens the server reports: the second request counts better than the first', async () => {
    // Another model: the calibration is per model, and the first tests taught the other one already.
    const plain = await startLlamaLike({ tokenizer: false, id: 'cadenza-standin-plain' });
    try {
      await config().update('baseUrl', plain.url, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('cadenza.refreshModels');
      await waitFor(
        async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza', id: 'cadenza-standin-plain' })).length > 0,
        "the second stand-in's model in VS Code",
      );
      const chat = await model('cadenza-standin-plain');
      const text = padded('Some code', 400);
      assert.equal(await chat.countTokens(text), 100, 'four characters a token before any request');
      assert.equal(plain.tokenizes, 1, 'the server was asked for its tokenizer');
      assert.equal(await collect(await chat.sendRequest([vscode.LanguageModelChatMessage.User(padded('A first question', 800))], {}, token())), 'It fits.');
      // The server counted 404 tokens (400 for the 800 characters, 4 for the message): about one per two characters.
      assert.equal(await chat.countTokens(text), Math.ceil(400 * (404 / 800)), 'the second counts by what the first reported');
      assert.equal(plain.tokenizes, 1, 'a server without a tokenizer is not asked again');
    } finally {
      await config().update('baseUrl', llama!.url, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('cadenza.refreshModels');
      plain.server.close();
    }
  });
});
