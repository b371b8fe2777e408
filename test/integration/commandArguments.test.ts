// Commands that change a key, the team index connection or the index take their arguments as given only
// in VS Code's test mode (these suites). An installed Cadenza gets the same arguments from any extension,
// so there an argument is only a proposal the user sees and confirms: the key or connection string
// prefilled in the box the command shows anyway, a modal question for clearing a key or rebuilding from
// scratch. The handlers are called here as the composition root calls them outside test mode.
import * as assert from 'node:assert/strict';
import { clearApiKey } from '../../src/host/commands/clearApiKey';
import { rebuildIndex } from '../../src/host/commands/indexCommands';
import { setApiKey } from '../../src/host/commands/setApiKey';
import { setTeamConnection } from '../../src/host/commands/setTeamConnection';
import type { HostContext } from '../../src/host/context';
import type { IndexService } from '../../src/host/index/indexService';
import { spyOnDialogs } from './helpers';

/** What the handlers did to the key store, the secret storage and the index. */
interface Effects {
  readonly done: string[];
}

/** A host whose key store and secret storage only record what they are asked to do. */
function recordingHost(effects: Effects): HostContext {
  const record =
    (what: string) =>
    async (...args: unknown[]): Promise<void> => {
      effects.done.push(`${what}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`);
    };
  const host = {
    log: { info: () => undefined, warn: () => undefined },
    apiKey: { set: record('set'), setFor: record('setFor'), clear: record('clear'), clearFor: record('clearFor') },
    extension: { secrets: { store: record('secrets.store'), delete: record('secrets.delete') } },
  };
  return host as unknown as HostContext;
}

/** An index that only records what it is asked to do. */
function recordingIndex(effects: Effects): IndexService {
  const index = {
    consent: async () => {
      effects.done.push('consent');
    },
    sync: async (notify: boolean, fromScratch: boolean) => {
      effects.done.push(`sync(${notify}, ${fromScratch})`);
      return undefined;
    },
    refreshTeam: async () => {
      effects.done.push('refreshTeam');
      return undefined;
    },
  };
  return index as unknown as IndexService;
}

suite('Command arguments outside test mode', () => {
  const outsideTestMode = false;

  test('setApiKey with a key shows it in the key box: dismissed, nothing is stored; confirmed, it is', async () => {
    const effects: Effects = { done: [] };
    const dismissed = spyOnDialogs(() => undefined);
    try {
      assert.equal(await setApiKey(recordingHost(effects), 'key-of-another-account', undefined, outsideTestMode), false);
    } finally {
      dismissed.restore();
    }
    assert.deepEqual(effects.done, [], 'the key was stored without asking');
    assert.deepEqual(
      dismissed.calls.map((call) => [call.kind, call.value]),
      [['inputBox', 'key-of-another-account']],
    );
    assert.match(dismissed.calls[0]?.prompt ?? '', /A command filled this in/);

    const confirmed = spyOnDialogs((call) => call.value);
    try {
      assert.equal(await setApiKey(recordingHost(effects), 'key-of-another-account', 'audio', outsideTestMode), true);
    } finally {
      confirmed.restore();
    }
    assert.deepEqual(effects.done, ['setFor("audio", "key-of-another-account")']);
    assert.match(confirmed.calls[0]?.message ?? '', /audio server/);
  });

  test('setTeamConnection with a connection string shows it, with its target, in the box: dismissed, nothing is stored', async () => {
    const effects: Effects = { done: [] };
    const dialogs = spyOnDialogs(() => undefined);
    try {
      const offered = 'postgresql://attacker:pw@db.attacker.example:5432/theirs?sslmode=require';
      assert.equal(await setTeamConnection(recordingHost(effects), recordingIndex(effects), offered, outsideTestMode), false);
      assert.deepEqual(
        dialogs.calls.map((call) => [call.kind, call.value]),
        [['inputBox', offered]],
      );
      assert.match(dialogs.calls[0]?.prompt ?? '', /db\.attacker\.example:5432\/theirs/);
      // Removing the connection is a change too: asked, not done.
      assert.equal(await setTeamConnection(recordingHost(effects), recordingIndex(effects), '', outsideTestMode), false);
    } finally {
      dialogs.restore();
    }
    assert.deepEqual(effects.done, [], 'the connection was changed without asking');
    assert.equal(dialogs.calls.length, 2);
  });

  test('clearApiKey with a role asks first, modally; declined, the key stays', async () => {
    const effects: Effects = { done: [] };
    const declined = spyOnDialogs(() => undefined);
    try {
      await clearApiKey(recordingHost(effects), 'chat', outsideTestMode);
    } finally {
      declined.restore();
    }
    assert.deepEqual(effects.done, [], 'the key was removed without asking');
    assert.deepEqual(
      declined.calls.map((call) => [call.kind, call.modal]),
      [['warning', true]],
    );
    assert.match(declined.calls[0]?.message ?? '', /chat server/);

    const accepted = spyOnDialogs((call) => call.items[0]);
    try {
      await clearApiKey(recordingHost(effects), 'chat', outsideTestMode);
    } finally {
      accepted.restore();
    }
    assert.deepEqual(effects.done, ['clearFor("chat")']);
  });

  test('rebuild from scratch asks first, modally; declined, the index is neither discarded nor consented to', async () => {
    const effects: Effects = { done: [] };
    const declined = spyOnDialogs(() => undefined);
    try {
      assert.equal(await rebuildIndex(recordingIndex(effects), { fromScratch: true }, outsideTestMode), undefined);
    } finally {
      declined.restore();
    }
    assert.deepEqual(effects.done, [], 'the index was rebuilt from scratch without asking');
    assert.deepEqual(
      declined.calls.map((call) => [call.kind, call.modal]),
      [['warning', true]],
    );

    const accepted = spyOnDialogs((call) => call.items[0]);
    try {
      await rebuildIndex(recordingIndex(effects), { fromScratch: true }, outsideTestMode);
    } finally {
      accepted.restore();
    }
    assert.deepEqual(effects.done, ['consent', 'sync(true, true)']);
  });
});
