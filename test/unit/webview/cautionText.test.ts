// A card's "Always asked" line in the user's language: the catalogue's text of the reason's id, and the English
// reason the core wrote when the id is one this version does not know (a conversation saved by another one).
import { strict as assert } from 'node:assert';
import { sensitivePathCaution } from '../../../src/core/tools/sensitivePaths';
import { panelStrings } from '../../../src/shared/panelStrings';
import { cautionIds, type CautionRule } from '../../../src/shared/views';
import { useStrings } from '../../../src/webview/l10n';
import { cautionText } from '../../../src/webview/toolText';
import { cautionExamples } from '../tools/cautionExamples';

describe('tool card text: why a file is always asked', () => {
  it('in English, says exactly what the core wrote, for every reason', () => {
    const wrong = cautionIds.flatMap((id) => {
      const [path, facts] = cautionExamples[id];
      const caution = sensitivePathCaution(path, facts);
      if (!caution) return [`${id}: no caution for ${path}`];
      const shown = cautionText({ caution: caution.text, cautionRule: caution.rule });
      return shown === `Always asked: ${caution.text}` ? [] : [`${id}: ${shown}`];
    });
    assert.deepEqual(wrong, []);
  });

  it("in the user's language, shows the catalogue's text of the id, and the English reason for an id it does not know", () => {
    const marked = Object.fromEntries(Object.entries(panelStrings).map(([id, text]) => [id, `«${text}»`]));
    useStrings(marked);
    try {
      const vscode = sensitivePathCaution('.vscode/tasks.json');
      assert.ok(vscode);
      assert.equal(
        cautionText({ caution: vscode.text, cautionRule: vscode.rule }),
        `«Always asked: «${vscode.text}»»`,
        'the reason is translated, inside the translated line',
      );
      const dot = sensitivePathCaution('.idea/workspace.xml');
      assert.ok(dot);
      assert.equal(cautionText({ caution: dot.text, cautionRule: dot.rule }), `«Always asked: «${dot.text}»»`);
      // Every id has its own text.
      const texts = cautionIds.map((id) => {
        const [path, facts] = cautionExamples[id];
        const caution = sensitivePathCaution(path, facts);
        return caution ? cautionText({ caution: caution.text, cautionRule: caution.rule }) : id;
      });
      assert.equal(new Set(texts).size, cautionIds.length);
      for (const text of texts) assert.match(text, /^«Always asked: «[^«»]+»»$/);
      // An id from another version, a missing value, or none at all: the English reason the card was given.
      const unknown = { id: 'melted' } as unknown as CautionRule;
      assert.equal(cautionText({ caution: 'It melts.', cautionRule: unknown }), '«Always asked: It melts.»');
      assert.equal(cautionText({ caution: '.idea starts with a dot.', cautionRule: { id: 'dotName' } }), '«Always asked: .idea starts with a dot.»');
      assert.equal(cautionText({ caution: 'Older card.' }), '«Always asked: Older card.»');
    } finally {
      useStrings(undefined);
    }
  });
});
