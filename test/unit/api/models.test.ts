// Models, capabilities, usage and cost: the listing read into ModelInfo (prices as strings or
// numbers), derived capabilities with heuristics and overrides, the UsageReport from service
// fields and from the client's own measures, and costOf.
import assert from 'node:assert/strict';
import { InferenceClient, costOf } from '../../../src/core/api/client';
import { CapabilityRegistry, heuristicCapabilities } from '../../../src/core/api/capabilities';
import { readModel, readModelList } from '../../../src/core/api/models';
import { buildUsageReport, readServiceUsage, transcriptCostOf } from '../../../src/core/api/usage';
import { defaultCatalogue } from '../../support/emulator/models';
import { clientFor, expectApiError, startTinyServer, useEmulator } from './helpers';

const EMULATOR_WHISPER_PRICE_PER_HOUR = Number(defaultCatalogue().find((m) => m.id === 'Whisper-Large-v3')?.pricing.durationPerHour);

describe('api/models (emulator)', function () {
  this.timeout(10_000);
  const ctx = useEmulator();

  it('lists the catalogue with limits, numeric prices and derived capabilities', async () => {
    const client = clientFor(ctx.emu);
    const models = await client.listModels();
    const byId = new Map(models.map((m) => [m.id, m]));
    assert.equal(models.length, 9);
    const llama = byId.get('Meta-Llama-3.1-8B-Instruct');
    assert.equal(llama?.contextLength, 16384);
    assert.equal(llama?.maxCompletionTokens, 4096);
    assert.equal(llama?.ownedBy, 'no-reply@sambanova.ai');
    assert.deepEqual(llama?.pricing, { promptPerToken: 0.0000001, completionPerToken: 0.0000002 });
    assert.deepEqual(llama?.capabilities, ['chat', 'tools', 'json']);
    assert.deepEqual(byId.get('DeepSeek-R1')?.capabilities, ['chat', 'json']);
    assert.ok(byId.get('Llama-4-Maverick-17B-128E-Instruct')?.capabilities.includes('vision'));
    assert.ok(byId.get('Llama-4-Maverick-17B-128E-Instruct')?.capabilities.includes('tools'));
    assert.equal(byId.get('Whisper-Large-v3')?.family, 'speechToText');
    // The emulator lists Whisper's price per audio hour (pricing.duration_per_hour, docs/service.md#the-model-list).
    assert.equal(byId.get('Whisper-Large-v3')?.audioPricePerHour, EMULATOR_WHISPER_PRICE_PER_HOUR);
    assert.equal(byId.get('Qwen2-Audio-7B-Instruct')?.family, 'audioInstruct');
    assert.deepEqual(byId.get('E5-Mistral-7B-Instruct')?.capabilities, ['embeddings']);
    // The listing needs the key like every operation (docs/service.md#addresses-and-authentication); a base with /v1/ works too.
    const anonymous = new InferenceClient({ baseUrl: `${ctx.emu.baseUrl}/v1/`, apiKey: '', timeoutMs: 2000 });
    await expectApiError(anonymous.listModels(), 'auth');
    await anonymous.close();
    const keyed = new InferenceClient({ baseUrl: `${ctx.emu.baseUrl}/v1/`, apiKey: ctx.emu.key, timeoutMs: 2000 });
    assert.equal((await keyed.listModels()).length, 9);
    await keyed.close();
    await client.close();
  });

  it('gets one model, and 404 as notFound', async () => {
    const client = clientFor(ctx.emu);
    const model = await client.getModel('DeepSeek-R1');
    assert.equal(model.id, 'DeepSeek-R1');
    assert.equal(model.pricing?.completionPerToken, 0.000007);
    const error = await expectApiError(client.getModel('Gone-Model'), 'notFound');
    assert.equal(error.status, 404);
    await client.close();
  });

  it('applies overrides to the listing', async () => {
    const client = clientFor(ctx.emu, { capabilities: { 'DeepSeek-R1': { capabilities: ['chat'], contextLength: 32768 } } });
    const model = (await client.listModels()).find((m) => m.id === 'DeepSeek-R1');
    assert.deepEqual(model?.capabilities, ['chat']);
    assert.equal(model?.contextLength, 32768);
    await client.close();
  });

  it('computes the cost of an answer from the listed prices', async () => {
    const client = clientFor(ctx.emu);
    const model = await client.getModel('Meta-Llama-3.3-70B-Instruct');
    const result = await client.chat({ model: model.id, messages: [{ role: 'user', content: 'hello' }] });
    const cost = costOf(result.usage, model);
    const expected = (result.usage.promptTokens ?? 0) * 0.0000006 + (result.usage.completionTokens ?? 0) * 0.0000012;
    assert.ok(cost !== undefined && Math.abs(cost - expected) < 1e-15);
    await client.close();
  });
});

describe('api/models: reading and deriving', () => {
  it('accepts prices as decimal strings or numbers, and skips unreadable entries', () => {
    const registry = new CapabilityRegistry();
    const models = readModelList(
      {
        object: 'list',
        data: [
          { id: 'DeepSeek-R1', context_length: 16384, max_completion_tokens: 16384, pricing: { prompt: '0.00000500', completion: '0.00000700' } },
          { id: 'my-model', context_length: 8192, pricing: { prompt: 5e-6, completion: 7e-6 } },
          { object: 'model' },
          'junk',
        ],
      },
      registry,
    );
    assert.deepEqual(
      models.map((m) => [m.id, m.pricing]),
      [
        ['DeepSeek-R1', { promptPerToken: 0.000005, completionPerToken: 0.000007 }],
        ['my-model', { promptPerToken: 0.000005, completionPerToken: 0.000007 }],
      ],
    );
    assert.equal(readModel({ id: 'x' }, registry).pricing, undefined);
  });

  it('derives capabilities of unknown ids from their names', () => {
    assert.deepEqual(heuristicCapabilities('whisper-tiny'), { capabilities: ['transcription'], family: 'speechToText' });
    assert.equal(heuristicCapabilities('Qwen2.5-Omni-Audio').family, 'audioInstruct');
    for (const id of ['bge-small-en', 'gte-base', 'text-embedding-3', 'multilingual-e5-large'])
      assert.deepEqual(heuristicCapabilities(id).capabilities, ['embeddings'], id);
    for (const id of ['Llama-3.2-11B-Vision', 'Qwen2-VL-7B', 'llava-1.6', 'Llama-4-Scout-17B'])
      assert.ok(heuristicCapabilities(id).capabilities.includes('vision'), id);
    assert.deepEqual(heuristicCapabilities('devlin-7b').capabilities, ['chat', 'json']);
  });

  it('removes a refused capability for the client lifetime and lets overrides win', () => {
    const registry = new CapabilityRegistry({ 'custom-llm': { capabilities: ['chat', 'tools'], family: 'audioInstruct' } });
    assert.deepEqual(registry.derive('custom-llm').capabilities, ['chat', 'tools']);
    assert.equal(registry.derive('custom-llm').family, 'audioInstruct');
    registry.markIncompatible('Meta-Llama-3.1-8B-Instruct', 'tools');
    assert.deepEqual(registry.derive('Meta-Llama-3.1-8B-Instruct').capabilities, ['chat', 'json']);
  });

  it('reports a listing that is not a list as malformedResponse', async () => {
    const server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"models": 3}');
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000 });
    await expectApiError(client.listModels(), 'malformedResponse');
    await client.close();
    await server.close();
  });
});

describe('api/usage', () => {
  it('maps every service field: seconds to ms, speed after the first token, counts', () => {
    const service = readServiceUsage({
      acceptance_rate: 5,
      completion_tokens: 53,
      completion_tokens_after_first_per_sec: 343.7964936837758,
      completion_tokens_after_first_per_sec_first_ten: 439.1205661878638,
      completion_tokens_per_sec: 162.8511306784833,
      end_time: 1731527851.0698032,
      is_last_response: true,
      prompt_tokens: 213,
      start_time: 1731527850.7137961,
      time_to_first_token: 0.20475482940673828,
      total_latency: 0.32545061111450196,
      total_tokens: 266,
      total_tokens_per_sec: 817.3283162354066,
    });
    const report = buildUsageReport(service, { startedAt: 1000, firstTokenAt: 1250, endedAt: 1400, outputChars: 200, promptChars: 800 });
    assert.deepEqual([report.promptTokens, report.completionTokens, report.totalTokens], [213, 53, 266]);
    assert.equal(report.timeToFirstTokenMs, 0.20475482940673828 * 1000);
    assert.equal(report.tokensPerSecond, 343.7964936837758);
    assert.equal(report.totalTimeMs, 0.32545061111450196 * 1000);
    assert.deepEqual(report.source, { timeToFirstToken: 'service', tokensPerSecond: 'service', totalTime: 'service', tokens: 'service' });
    // The client's own figures are kept beside them.
    assert.equal(report.client.timeToFirstTokenMs, 250);
    assert.equal(report.client.totalTimeMs, 400);
    assert.equal(report.client.tokensPerSecond, 52 / 0.15);
    assert.equal(report.service?.acceptanceRate, 5);
  });

  it('measures and estimates everything when the service says nothing', () => {
    const report = buildUsageReport(undefined, { startedAt: 0, firstTokenAt: 100, endedAt: 1100, outputChars: 4000, promptChars: 400 });
    assert.deepEqual([report.promptTokens, report.completionTokens, report.totalTokens], [100, 1000, 1100]);
    assert.equal(report.timeToFirstTokenMs, 100);
    assert.equal(report.totalTimeMs, 1100);
    assert.equal(report.tokensPerSecond, 999);
    assert.deepEqual(report.source, { timeToFirstToken: 'client', tokensPerSecond: 'client', totalTime: 'client', tokens: 'estimated' });
    assert.equal(report.service, undefined);
  });

  it('reads the price per audio hour as a number or a string, apart from the token prices', () => {
    const registry = new CapabilityRegistry();
    const whisper = readModel({ id: 'Whisper-Large-v3', pricing: { duration_per_hour: '0.30' } }, registry);
    assert.equal(whisper.audioPricePerHour, 0.3);
    assert.equal(whisper.pricing, undefined);
    assert.equal(readModel({ id: 'w', pricing: { prompt: 0, completion: 0, duration_per_hour: 0.25 } }, registry).audioPricePerHour, 0.25);
    assert.equal(readModel({ id: 'w', pricing: { duration_per_hour: 'n/a' } }, registry).audioPricePerHour, undefined);
    assert.ok(!('audioPricePerHour' in readModel({ id: 'x', pricing: { prompt: '1', completion: '1' } }, registry)));
  });

  it('prices a transcript from its duration', () => {
    const model = {
      id: 'w',
      ownedBy: undefined,
      contextLength: undefined,
      maxCompletionTokens: undefined,
      pricing: undefined,
      capabilities: [],
      family: undefined,
    };
    assert.equal(transcriptCostOf(90, { ...model, audioPricePerHour: 0.4 }), 0.01);
    assert.equal(transcriptCostOf(undefined, { ...model, audioPricePerHour: 0.4 }), undefined);
    assert.equal(transcriptCostOf(90, model), undefined);
  });

  it('costOf is undefined without prices or counts', () => {
    const report = buildUsageReport(undefined, { startedAt: 0, firstTokenAt: 1, endedAt: 2, outputChars: 8, promptChars: 8 });
    const model = {
      id: 'm',
      ownedBy: undefined,
      contextLength: undefined,
      maxCompletionTokens: undefined,
      pricing: undefined,
      capabilities: [],
      family: undefined,
    };
    assert.equal(costOf(report, model), undefined);
    assert.equal(costOf(report, { ...model, pricing: { promptPerToken: 0.5, completionPerToken: 1 } }), 2 * 0.5 + 2 * 1);
  });
});
