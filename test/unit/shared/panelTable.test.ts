import { strict as assert } from 'node:assert';
import { panelStrings } from '../../../src/shared/panelStrings';
import { fillPlaceholders, jsonForScript, localizePanelStrings, panelStringsFrom } from '../../../src/shared/panelTable';
import { t, useStrings } from '../../../src/webview/l10n';

describe("the panel's texts: the catalogue, the table the host hands the page, and t", () => {
  afterEach(() => useStrings(undefined));

  it('fills every placeholder of a text, and leaves one it has no value for', () => {
    assert.equal(
      fillPlaceholders('{cause} — retrying in {seconds} s (retry {attempt})', { cause: 'Rate limited', seconds: 4, attempt: 2 }),
      'Rate limited — retrying in 4 s (retry 2)',
    );
    assert.equal(fillPlaceholders('Open {label}', {}), 'Open {label}');
    // A value that looks like a placeholder is text, not filled again.
    assert.equal(fillPlaceholders('Rename “{name}”', { name: '{name}' }), 'Rename “{name}”');
  });

  it('translates each English text of the catalogue, and falls back to English for what the given table lacks', () => {
    const german = localizePanelStrings((english) => (english === 'New chat' ? 'Neuer Chat' : english));
    assert.equal(german.newChat, 'Neuer Chat');
    assert.equal(german.stop, 'Stop');
    const read = panelStringsFrom({ newChat: 'Neuer Chat', stop: 42, dismiss: '', notAnId: 'x' });
    assert.deepEqual([read.newChat, read.stop, read.dismiss, Object.keys(read).length], ['Neuer Chat', 'Stop', 'Dismiss', Object.keys(panelStrings).length]);
    assert.deepEqual(panelStringsFrom('not a table'), { ...panelStrings });
  });

  it('writes the table as JSON no translation can break out of a script element with', () => {
    const json = jsonForScript({ newChat: '</script><script>alert(1)</script> <!-- x' });
    assert.ok(!json.includes('<'), json);
    assert.deepEqual(JSON.parse(json), { newChat: '</script><script>alert(1)</script> <!-- x' });
  });

  it('t reads the table the page was given, with placeholders filled; a plural has its own text', () => {
    assert.equal(t('answerFrom', { model: 'DeepSeek-R1' }), 'Answer from DeepSeek-R1');
    const plural = (count: number): string => t(count === 1 ? 'checkpointOne' : 'checkpointMany', { count });
    assert.deepEqual([plural(1), plural(2)], ['This turn changed 1 file', 'This turn changed 2 files']);
    useStrings({ answerFrom: 'Antwort von {model}', checkpointMany: 'Diese Runde hat {count} Dateien geändert' });
    assert.equal(t('answerFrom', { model: 'DeepSeek-R1' }), 'Antwort von DeepSeek-R1');
    assert.equal(plural(3), 'Diese Runde hat 3 Dateien geändert');
    assert.equal(t('newChat'), 'New chat');
  });

  it('writes each text whole: no text of the catalogue is empty or starts or ends with a space (a piece to join)', () => {
    for (const [id, text] of Object.entries(panelStrings)) assert.ok(text.trim() !== '' && text.trim() === text, `${id}: ${JSON.stringify(text)}`);
  });
});
