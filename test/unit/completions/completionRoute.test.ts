// Which path a completion takes: overrides win, the hosted service is never probed, other servers are probed
// once per address and model, a failed probe means chat, and a later refusal moves a model to chat.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import type { InfillProbe } from '../../../src/core/api/types';
import type { Capability } from '../../../src/shared/views';
import { CompletionRouter, isHostedService, type RoutePort } from '../../../src/core/completions/completionRoute';

class FakePort implements RoutePort {
  probes: { server: string; model: string }[] = [];
  constructor(
    public server: string,
    public answer: InfillProbe | Error,
    public overrides: Record<string, readonly Capability[]> = {},
    public delayMs = 0,
  ) {}
  completionServer(): string {
    return this.server;
  }
  statedCapability(model: string, capability: Capability): boolean | undefined {
    return this.overrides[model]?.includes(capability);
  }
  async probeInfill(model: string): Promise<InfillProbe> {
    this.probes.push({ server: this.server, model });
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

describe('completions/completionRoute', () => {
  it('takes fim after a probe that found /infill, and probes once per server and model', async () => {
    const router = new CompletionRouter();
    const port = new FakePort('http://127.0.0.1:8080', 'fim');
    assert.deepEqual(await Promise.all([router.pathFor(port, 'qwen'), router.pathFor(port, 'qwen')]), ['fim', 'fim']);
    assert.equal(await router.pathFor(port, 'qwen'), 'fim');
    assert.equal(port.probes.length, 1, 'remembered, and concurrent callers share one probe');
    port.server = 'http://127.0.0.1:9090';
    assert.equal(await router.pathFor(port, 'qwen'), 'fim');
    await router.pathFor(port, 'other');
    assert.deepEqual(
      port.probes.map((p) => `${p.server} ${p.model}`),
      ['http://127.0.0.1:8080 qwen', 'http://127.0.0.1:9090 qwen', 'http://127.0.0.1:9090 other'],
      'a new address or model is probed anew',
    );
  });

  it('lets overrides win: fim listed means fim unprobed, capabilities without fim mean chat unprobed', async () => {
    const router = new CompletionRouter();
    const port = new FakePort('http://127.0.0.1:8080', 'fim', { coder: ['chat', 'fim'], plain: ['chat', 'tools'] });
    assert.equal(await router.pathFor(port, 'coder'), 'fim');
    assert.equal(await router.pathFor(port, 'plain'), 'chat');
    assert.equal(port.probes.length, 0);
    const hosted = new FakePort('https://api.sambanova.ai', 'chat', { 'my-fim-model': ['chat', 'fim'] });
    assert.equal(await router.pathFor(hosted, 'my-fim-model'), 'fim', 'an override names fim even on the hosted address');
  });

  it('never probes the chat-only hosted service', async () => {
    const router = new CompletionRouter();
    const port = new FakePort('https://api.sambanova.ai', 'fim');
    assert.equal(await router.pathFor(port, 'Meta-Llama-3.1-8B-Instruct'), 'chat');
    assert.equal(port.probes.length, 0);
    assert.equal(isHostedService('https://api.sambanova.ai'), true);
    assert.equal(isHostedService('https://eu.sambanova.ai/v1'), true);
    assert.equal(isHostedService('http://localhost:8080'), false);
    assert.equal(isHostedService('https://notsambanova.ai'), false);
  });

  it('takes chat when the probe is refused (remembered) or gets no answer (asked again next time)', async () => {
    const router = new CompletionRouter();
    const refused = new FakePort('http://127.0.0.1:8080', 'chat');
    assert.equal(await router.pathFor(refused, 'm'), 'chat');
    assert.equal(await router.pathFor(refused, 'm'), 'chat');
    assert.equal(refused.probes.length, 1);
    const down = new FakePort('http://127.0.0.1:8081', 'unknown');
    assert.equal(await router.pathFor(down, 'm'), 'chat');
    down.answer = new Error('socket hang up');
    assert.equal(await router.pathFor(down, 'm'), 'chat', 'a probe that throws means chat');
    down.answer = 'fim';
    assert.equal(await router.pathFor(down, 'm'), 'fim', 'the server came up: asked again');
    assert.equal(down.probes.length, 3);
  });

  it("answers a cancelled caller at once and still remembers the probe's answer", async () => {
    const router = new CompletionRouter();
    const port = new FakePort('http://127.0.0.1:8080', 'fim', {}, 50);
    const controller = new AbortController();
    const pending = router.pathFor(port, 'm', controller.signal);
    controller.abort();
    assert.equal(await pending, 'chat');
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(await router.pathFor(port, 'm'), 'fim');
    assert.equal(port.probes.length, 1);
  });

  it('moves a model to chat when /infill is refused after the probe said yes', async () => {
    const router = new CompletionRouter();
    const port = new FakePort('http://127.0.0.1:8080', 'fim');
    assert.equal(await router.pathFor(port, 'm'), 'fim');
    router.noteInfillFailure(port, 'm', new ApiError('network', 'reset'));
    assert.equal(await router.pathFor(port, 'm'), 'fim', 'a network failure says nothing about the model');
    router.noteInfillFailure(port, 'm', new ApiError('unsupported', 'no FIM tokens', { status: 501 }));
    assert.equal(await router.pathFor(port, 'm'), 'chat');
    assert.equal(port.probes.length, 1);
  });
});
