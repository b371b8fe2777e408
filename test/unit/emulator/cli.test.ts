import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

// out/test/unit/emulator -> repository root
const ROOT = join(__dirname, '..', '..', '..', '..');

describe('emulator: scripts/emulator.mjs', () => {
  it('prints the address and key, serves, applies --faults, and exits 0 on SIGTERM', async function () {
    this.timeout(10_000);
    const child = spawn(
      process.execPath,
      [join(ROOT, 'scripts', 'emulator.mjs'), '--key', 'cli-key', '--faults', '{"kind":"status","status":503,"path":"/v1/embeddings"}'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (data: Buffer) => {
          output += data.toString();
          if (output.includes('API key:')) resolve();
        });
        child.once('exit', () => reject(new Error(`exited early: ${output}`)));
      });
      const baseUrl = /Cadenza emulator listening on (http:\/\/\S+)/.exec(output)?.[1];
      assert.ok(baseUrl !== undefined, output);
      assert.match(output, /API key: cli-key/);
      assert.equal((await fetch(`${baseUrl}/v1/models`)).status, 401);
      assert.equal((await fetch(`${baseUrl}/v1/models`, { headers: { authorization: 'Bearer cli-key' } })).status, 200);
      const faulted = await fetch(`${baseUrl}/v1/embeddings`, { method: 'POST', headers: { authorization: 'Bearer cli-key' }, body: '{}' });
      assert.equal(faulted.status, 503);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });
});
