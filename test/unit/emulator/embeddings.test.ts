import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../support/emulator/emulator';
import { EMBED_MODEL, errorOf, json, postJson } from './helpers';

const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

describe('emulator: embeddings', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.close());

  const embed = async (input: string | string[]): Promise<number[][]> => {
    const body = await json(await postJson(emu, '/v1/embeddings', { model: EMBED_MODEL, input }));
    return (body['data'] as { embedding: number[] }[]).map((d) => d.embedding);
  };

  it('answers the real shape with index per input and token usage only', async () => {
    const body = await json(await postJson(emu, '/v1/embeddings', { model: EMBED_MODEL, input: ['one text', 'another text here'] }));
    assert.equal(body['object'], 'list');
    assert.equal(body['model'], EMBED_MODEL);
    const data = body['data'] as Record<string, unknown>[];
    assert.deepEqual(
      data.map((d) => [d['object'], d['index'], (d['embedding'] as number[]).length]),
      [
        ['embedding', 0, 4096],
        ['embedding', 1, 4096],
      ],
    );
    assert.deepEqual(body['usage'], { prompt_tokens: 5, total_tokens: 5 });
  });

  it('is deterministic and L2-normalised', async () => {
    const [a] = await embed('Retry the upload with exponential backoff');
    const [b] = await embed('Retry the upload with exponential backoff');
    assert.deepEqual(a, b);
    assert.ok(Math.abs(Math.sqrt(dot(a ?? [], a ?? [])) - 1) < 1e-5);
  });

  it('scores texts sharing words or synonyms above unrelated ones', async () => {
    const [query, near, synonym, far] = await embed([
      'how does the client retry a failed request',
      'the client will retry failed requests',
      'backoff and try again later',
      'render the markdown preview with syntax highlighting',
    ]);
    const q = query ?? [];
    assert.ok(dot(q, near ?? []) > dot(q, synonym ?? []), 'shared words beat synonyms');
    assert.ok(dot(q, synonym ?? []) > dot(q, far ?? []), 'synonyms beat unrelated text');
    const [upload, sendFile, weather] = await embed(['upload', 'send file', 'sunny weather']);
    assert.ok(dot(upload ?? [], sendFile ?? []) > dot(upload ?? [], weather ?? []));
  });

  it('rejects input over 4096 tokens, empty arrays and a missing model', async () => {
    const long = await errorOf(await postJson(emu, '/v1/embeddings', { model: EMBED_MODEL, input: 'word '.repeat(4097) }));
    assert.equal(long.status, 400);
    assert.equal(long.error['type'], 'invalid_request_error');
    assert.equal(long.error['code'], 'context_length_exceeded');
    const empty = await errorOf(await postJson(emu, '/v1/embeddings', { model: EMBED_MODEL, input: [] }));
    assert.equal(empty.error['code'], 'empty_array');
    const noModel = await postJson(emu, '/v1/embeddings', { input: 'x' });
    assert.equal(noModel.status, 400);
    assert.deepEqual(await noModel.json(), { error: 'Model name is required' });
  });
});
