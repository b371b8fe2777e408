// Files never sent for completion, and the daily ledger.
import assert from 'node:assert/strict';
import { completionSkip } from '../../../src/core/completions/fileGate';
import { isSecretPath } from '../../../src/core/index/secretFiles';
import { addUsage, localDay, overDailyCap, usageOn } from '../../../src/core/completions/ledger';

const text = (body: string): { length: number; lineCount: number; sample: string } => ({
  length: body.length,
  lineCount: body.split('\n').length,
  sample: body.slice(0, 4096),
});

describe('completions/fileGate', () => {
  it('knows secrets files wherever they are', () => {
    for (const path of [
      '.env',
      'app/.env',
      '.env.local',
      'config/prod.env',
      'certs/server.pem',
      'deploy/tls.key',
      '/home/me/.ssh/config',
      'C:\\Users\\me\\.aws\\credentials',
      'id_ed25519.pub',
      '.npmrc',
      'infra/prod.tfvars',
    ]) {
      assert.equal(isSecretPath(path), true, path);
    }
    for (const path of ['src/env.ts', 'src/environment.py', 'docs/keys.md', 'src/keyboard.ts', 'README.md', '.envoy/config.yaml']) {
      assert.equal(isSecretPath(path), false, path);
    }
  });

  it('skips secrets, binary, minified and huge text, and lets code through', () => {
    const code = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
    assert.equal(completionSkip('src/math.ts', text(code), 1_000_000), undefined);
    assert.equal(completionSkip('.env', text('API_KEY=abc\n'), 1_000_000), 'secret');
    assert.equal(completionSkip('assets/logo.png', text('x'), 1_000_000), 'binary');
    assert.equal(completionSkip('data/blob.txt', text('abc\u0000def'), 1_000_000), 'binary');
    assert.equal(completionSkip('dist/app.js', text(`var a=${'1+'.repeat(3000)}1;`), 1_000_000), 'minified');
    assert.equal(completionSkip('src/big.ts', text(code.repeat(1000)), 10_000), 'tooLarge');
  });
});

describe('completions/ledger', () => {
  it('adds usage per local day and starts a new day from zero', () => {
    const day = localDay(new Date(2026, 10, 24, 23, 59));
    assert.equal(day, '2026-11-24');
    let stored = addUsage(undefined, day, { promptTokens: 500, completionTokens: 20, costUsd: 0.0001 });
    stored = addUsage(stored, day, { promptTokens: 400, completionTokens: 10 });
    assert.deepEqual(stored, { day, requests: 2, promptTokens: 900, completionTokens: 30, costUsd: 0.0001 });
    assert.deepEqual(usageOn(stored, '2026-11-25'), { day: '2026-11-25', requests: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 });
  });

  it('reaches the cap at the cap, never with no cap', () => {
    const stored = addUsage(undefined, '2026-11-24', { promptTokens: 900, completionTokens: 100 });
    assert.equal(overDailyCap(stored, '2026-11-24', 1000), true);
    assert.equal(overDailyCap(stored, '2026-11-24', 1001), false);
    assert.equal(overDailyCap(stored, '2026-11-25', 1000), false, 'a new day');
    assert.equal(overDailyCap(stored, '2026-11-24', 0), false, 'no cap');
  });
});
