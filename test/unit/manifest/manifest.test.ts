import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandIds, viewIds } from '../../../src/host/ids';
import { settingDefaults } from '../../../src/host/settingDefaults';

const root = join(__dirname, '..', '..', '..', '..');

interface Manifest {
  name: string;
  publisher: string;
  displayName: string;
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  contributes: {
    commands: { command: string }[];
    configuration: { properties: Record<string, { default?: unknown; scope?: string; markdownDescription?: string }> };
    views: Record<string, { id: string }[]>;
    viewsContainers: { activitybar: { id: string }[] };
  };
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;

describe('package.json agrees with the code', () => {
  it('names the extension as designed', () => {
    assert.equal(manifest.name, 'cadenza');
    assert.equal(manifest.publisher, 'cadenza');
    assert.equal(manifest.displayName, 'Cadenza');
    assert.equal(manifest.engines.vscode, '^1.104.0');
  });

  it('pins @types/vscode no newer than engines.vscode', () => {
    const types = manifest.devDependencies['@types/vscode'] ?? '';
    assert.match(types, /^\d+\.\d+\.\d+$/, 'pin @types/vscode exactly');
    const [major, minor] = types.split('.').map(Number);
    assert.ok(major === 1 && (minor ?? 0) <= 104, `@types/vscode ${types} is newer than the engine`);
  });

  it('declares every setting the code reads, with the same defaults, a scope and a description', () => {
    const declared = manifest.contributes.configuration.properties;
    const inCode = Object.keys(settingDefaults).map((key) => `cadenza.${key}`).sort();
    assert.deepEqual(Object.keys(declared).sort(), inCode);
    for (const [key, value] of Object.entries(settingDefaults)) {
      const entry = declared[`cadenza.${key}`];
      assert.deepEqual(entry?.default, value, `default of cadenza.${key}`);
      assert.ok(entry?.scope, `scope of cadenza.${key}`);
      assert.ok(entry?.markdownDescription, `description of cadenza.${key}`);
    }
  });

  it('contributes exactly the commands the code registers', () => {
    const contributed = manifest.contributes.commands.map((command) => command.command).sort();
    assert.deepEqual(contributed, Object.values(commandIds).sort());
  });

  it('contributes the view container and the chat view', () => {
    assert.ok(manifest.contributes.viewsContainers.activitybar.some((container) => container.id === viewIds.container));
    assert.ok(manifest.contributes.views[viewIds.container]?.some((view) => view.id === viewIds.chat));
  });
});
