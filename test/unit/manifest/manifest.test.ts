import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandIds, participantCommandNames, viewIds } from '../../../src/host/ids';
import { settingDefaults } from '../../../src/host/settingDefaults';
import { settingRules } from '../../../src/host/settingRules';

const root = join(__dirname, '..', '..', '..', '..');

interface Setting {
  default?: unknown;
  scope?: string;
  markdownDescription?: string;
  order?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  enumDescriptions?: string[];
  markdownEnumDescriptions?: string[];
}

/** One section of the Settings UI (`contributes.configuration` is an array of them). */
interface ConfigurationSection {
  id?: string;
  title: string;
  order?: number;
  properties: Record<string, Setting>;
}

interface Manifest {
  name: string;
  publisher: string;
  displayName: string;
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  contributes: {
    commands: { command: string }[];
    configuration: ConfigurationSection | ConfigurationSection[];
    views: Record<string, { id: string }[]>;
    viewsContainers: { activitybar: { id: string }[] };
    chatParticipants: { id: string; commands: { name: string }[] }[];
  };
}

/**
 * A manifest string as VS Code shows it in English: a whole-string `%key%` is replaced by its text in
 * package.nls.json, as VS Code does when it reads the manifest (scripts/checkL10n.mjs checks the keys exist).
 */
function localized(value: unknown, messages: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const key = /^%([\w.-]+)%$/.exec(value)?.[1];
    return key === undefined ? value : (messages[key] ?? value);
  }
  if (Array.isArray(value)) return value.map((item) => localized(item, messages));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, localized(item, messages)]));
  return value;
}

const messages = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const manifest = localized(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')), messages) as Manifest;
const sections = ([] as ConfigurationSection[]).concat(manifest.contributes.configuration);
/** Every declared setting, whichever section holds it. */
const declared: Record<string, Setting> = Object.assign({}, ...sections.map((section) => section.properties));

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
    const inCode = Object.keys(settingDefaults)
      .map((key) => `cadenza.${key}`)
      .sort();
    assert.deepEqual(Object.keys(declared).sort(), inCode);
    for (const [key, value] of Object.entries(settingDefaults)) {
      const entry = declared[`cadenza.${key}`];
      assert.deepEqual(entry?.default, value, `default of cadenza.${key}`);
      assert.ok(entry?.scope, `scope of cadenza.${key}`);
      assert.ok(entry?.markdownDescription, `description of cadenza.${key}`);
    }
  });

  it('groups the settings into ordered sections of the Settings UI, each setting in its own section', () => {
    assert.ok(Array.isArray(manifest.contributes.configuration), 'contributes.configuration is one block, not sections');
    const titles = sections.map((section) => section.title);
    for (const title of ['Connection', 'Chat', 'Audio', 'Index', 'Agent']) assert.ok(titles.includes(title), `no ${title} section`);
    const orders = sections.map((section) => section.order);
    assert.ok(
      orders.every((order) => Number.isInteger(order)),
      `every section needs an order: ${JSON.stringify(orders)}`,
    );
    assert.equal(new Set(orders).size, orders.length, 'two sections share an order');
    const keys = sections.flatMap((section) => Object.keys(section.properties));
    assert.equal(keys.length, new Set(keys).size, 'a setting is declared in two sections');
    for (const section of sections) {
      assert.match(section.id ?? '', /^cadenza\.[a-z]+$/, `section ${section.title} needs an id`);
      const settingOrders = Object.values(section.properties).map((setting) => setting.order);
      assert.ok(
        settingOrders.every((order) => Number.isInteger(order)),
        `a setting of ${section.title} has no order`,
      );
      assert.equal(new Set(settingOrders).size, settingOrders.length, `two settings of ${section.title} share an order`);
      // A namespaced setting lives in its namespace's section (cadenza.chat.* in cadenza.chat); the
      // connection section holds the rest.
      for (const key of Object.keys(section.properties)) {
        const namespace = /^cadenza\.(chat|completions|audio|index|agent)\./.exec(key)?.[1];
        assert.equal(section.id, namespace ? `cadenza.${namespace}` : 'cadenza.connection', `${key} is in the ${section.title} section`);
      }
    }
  });

  it('describes each setting with its effect on cost, and each enum value', () => {
    for (const [key, setting] of Object.entries(declared)) {
      assert.match(setting.markdownDescription ?? '', /cost|bill|price/i, `${key}: say what it does to cost`);
      if (setting.enum) {
        const descriptions = setting.enumDescriptions ?? setting.markdownEnumDescriptions ?? [];
        assert.equal(descriptions.length, setting.enum.length, `${key}: one description per enum value`);
      }
    }
  });

  it("says in each guarded setting's description what a workspace may do with it, and clamps to the manifest's range", () => {
    for (const [key, rule] of Object.entries(settingRules)) {
      const entry = declared[`cadenza.${key}`];
      assert.ok(entry, `cadenza.${key} is guarded but not declared`);
      const description = entry.markdownDescription ?? '';
      if (rule.kind === 'userOnly') assert.match(description, /A user setting only: a workspace/, `cadenza.${key}: say it is the user's alone`);
      else assert.match(description, /A workspace's settings (may|can) /, `cadenza.${key}: say what a workspace may do`);
      // The rule reads the value in the manifest's range, so a user's value beyond it counts as the bound.
      if (entry.minimum !== undefined) assert.equal(rule.effective({ globalValue: entry.minimum - 1000 }).value, entry.minimum, `cadenza.${key} minimum`);
      if (entry.maximum !== undefined) assert.equal(rule.effective({ globalValue: entry.maximum + 1000 }).value, entry.maximum, `cadenza.${key} maximum`);
    }
  });

  it('contributes exactly the commands the code registers', () => {
    const contributed = manifest.contributes.commands.map((command) => command.command).sort();
    assert.deepEqual(contributed, Object.values(commandIds).sort());
  });

  it('declares exactly the @cadenza commands the code keeps prompt files from taking', () => {
    const commands = manifest.contributes.chatParticipants.flatMap((participant) => participant.commands.map((command) => command.name));
    assert.deepEqual(commands.sort(), [...participantCommandNames].sort());
  });

  it('contributes the view container and the chat view', () => {
    assert.ok(manifest.contributes.viewsContainers.activitybar.some((container) => container.id === viewIds.container));
    assert.ok(manifest.contributes.views[viewIds.container]?.some((view) => view.id === viewIds.chat));
  });
});
