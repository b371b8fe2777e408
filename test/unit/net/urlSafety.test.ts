import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import type { Logger } from '../../../src/core/logger';
import { cleartextWarning, redactUrl } from '../../../src/core/net/urlSafety';

describe('net/urlSafety', () => {
  it('never logs credentials written into a base URL', async () => {
    const lines: string[] = [];
    const record = (message: string | Error): void => void lines.push(String(message));
    const logger: Logger = { trace: record, debug: record, info: record, warn: record, error: record };
    const client = new InferenceClient({
      baseUrl: 'https://alice:hunter2-secret@llm.example.com/',
      chatBaseUrl: 'http://bob:pw-secret@10.0.0.5:8080',
      apiKey: 'k',
      logger,
      transport: { useEnvironment: false },
    });
    await client.close();
    assert.ok(lines.length > 0, 'the client logged where it talks to');
    assert.ok(!lines.some((line) => /hunter2-secret|pw-secret|alice|bob/.test(line)), lines.join('\n'));
    assert.equal(redactUrl('https://alice:pw@host.example/v1'), 'https://***@host.example/v1');
    assert.equal(redactUrl('https://host.example'), 'https://host.example');
    assert.equal(redactUrl('not a url //user:pw@host'), 'not a url //***@host');
  });

  it('warns about http:// to another machine, never about https or loopback', () => {
    assert.match(cleartextWarning('http://inference.lan:8000') ?? '', /without encryption/);
    assert.match(cleartextWarning('http://user:pw@10.1.2.3') ?? '', /\*\*\*@10\.1\.2\.3/);
    for (const url of [
      'https://api.sambanova.ai',
      'http://127.0.0.1:8080',
      'http://localhost:3000',
      'http://[::1]:9000',
      'http://api.localhost',
      'not a url',
    ]) {
      assert.equal(cleartextWarning(url), undefined, url);
    }
  });
});
