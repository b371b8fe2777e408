import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** What scripts/startSettings.mjs gives for `service` (an ES module: read in a child Node, as `npm start` runs it). */
function userSettings(service: { baseUrl: string; settings: Record<string, unknown> }, web: boolean): Record<string, unknown> {
  const url = pathToFileURL(join(ROOT, 'scripts', 'startSettings.mjs')).href;
  const script = `import { startUserSettings } from ${JSON.stringify(url)}; console.log(JSON.stringify(startUserSettings(${JSON.stringify(service)}, { web: ${String(web)} })));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Record<string, unknown>;
}

describe('npm start: the profile it creates', () => {
  it("lets VS Code's own chat run without a sign-in, beside the service address and the stack's endpoints", () => {
    const stack = { baseUrl: 'http://127.0.0.1:41001', settings: { 'cadenza.endpoints.embeddings': 'http://127.0.0.1:41002' } };
    for (const web of [false, true]) {
      const settings = userSettings(stack, web);
      assert.equal(settings['chat.allowAnonymousAccess'], true, `chat.allowAnonymousAccess (${web ? 'code-server' : 'desktop'})`);
      assert.equal(settings['cadenza.baseUrl'], 'http://127.0.0.1:41001');
      assert.equal(settings['cadenza.endpoints.embeddings'], 'http://127.0.0.1:41002');
    }
    assert.equal(userSettings(stack, true)['telemetry.telemetryLevel'], 'off', 'the code-server workbench stays quiet');
  });
});
