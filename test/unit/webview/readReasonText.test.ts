// A read_file card's "why it is asked" line in the user's language: the catalogue's text of the reason's id
// (and of "path leads to target." for a link), and the English reason the core wrote for an id it does not know.
import { strict as assert } from 'node:assert';
import { readTools } from '../../../src/core/tools/readTools';
import { ToolSession, type ChangePreview } from '../../../src/core/tools/toolTypes';
import { panelStrings } from '../../../src/shared/panelStrings';
import type { ReadReasonRule } from '../../../src/shared/views';
import { useStrings } from '../../../src/webview/l10n';
import { readReasonText } from '../../../src/webview/toolText';
import { MemoryPort } from '../tools/memoryPort';

async function asked(path: string): Promise<Extract<ChangePreview, { kind: 'read' }>> {
  const port = new MemoryPort({ '.env': 'API_TOKEN=zebra\n', 'config/app.txt': 'API_TOKEN=zebra\n' });
  port.ignored.add('.env');
  port.links.set('config/app.txt', '.env');
  const readFile = readTools(port).find((tool) => tool.definition.name === 'read_file');
  const preview = await readFile?.confirm?.({ path }, { signal: new AbortController().signal, session: new ToolSession() });
  assert.equal(preview?.kind, 'read', path);
  return preview as Extract<ChangePreview, { kind: 'read' }>;
}

describe('tool card text: why reading a secret is asked first', () => {
  it('in English, says exactly what the core wrote, for a secret and for a link to one', async () => {
    for (const path of ['.env', 'config/app.txt']) {
      const preview = await asked(path);
      assert.equal(readReasonText(preview), preview.reason);
    }
    assert.match((await asked('config/app.txt')).reason, /^config\/app\.txt leads to \.env\. \.env is ignored by git/);
  });

  it("in the user's language, shows the catalogue's text, with the file's name and where a link leads", async () => {
    const marked = Object.fromEntries(Object.entries(panelStrings).map(([id, text]) => [id, `«${text}»`]));
    useStrings(marked);
    try {
      const secret = `«${panelStrings.readSecretFile.replace('{name}', '.env')}»`;
      assert.equal(readReasonText(await asked('.env')), secret);
      assert.equal(readReasonText(await asked('config/app.txt')), `«config/app.txt leads to .env. ${secret}»`);
      // An id from another version, a missing name, or none at all: the English reason the card was given.
      const unknown = { id: 'melted', values: { name: '.env' } } as unknown as ReadReasonRule;
      assert.equal(readReasonText({ reason: 'It melts.', reasonRule: unknown }), 'It melts.');
      assert.equal(readReasonText({ reason: 'No name.', reasonRule: { id: 'secretFile', values: {} } }), 'No name.');
      assert.equal(readReasonText({ reason: 'Older card.' }), 'Older card.');
    } finally {
      useStrings(undefined);
    }
  });
});
