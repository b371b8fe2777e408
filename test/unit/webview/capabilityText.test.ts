// The model line's capabilities in the user's language: each capability by its catalogue id, and the list
// joined the way the page's language joins one (Intl.ListFormat).
import { strict as assert } from 'node:assert';
import { panelStrings } from '../../../src/shared/panelStrings';
import type { Capability } from '../../../src/shared/views';
import { modelFacts } from '../../../src/webview/format';
import { useLocale, useStrings } from '../../../src/webview/l10n';

const all: Capability[] = ['chat', 'vision', 'tools', 'json', 'audioReasoning', 'transcription', 'embeddings', 'fim'];

describe("model line: capabilities in the user's language", () => {
  it('in English, names each capability but chat, joined with commas', () => {
    assert.equal(modelFacts({ id: 'm', capabilities: ['chat', 'tools', 'json'] }), 'tools, json');
    assert.equal(modelFacts({ id: 'm', capabilities: all }), 'vision, tools, json, audio reasoning, transcription, embeddings, fill in the middle');
  });

  it("shows the catalogue's text of each capability, joined as the page's language joins a list", () => {
    const marked = Object.fromEntries(Object.entries(panelStrings).map(([id, text]) => [id, `«${text}»`]));
    useStrings(marked);
    useLocale('de');
    try {
      assert.equal(modelFacts({ id: 'm', capabilities: ['chat', 'tools', 'json'] }), '«tools» und «json»');
      const words = modelFacts({ id: 'm', capabilities: all }).split(/, | und /);
      assert.equal(words.length, all.length - 1);
      for (const word of words) assert.match(word, /^«[^«»]+»$/);
      assert.equal(new Set(words).size, words.length, 'each capability has its own text');
    } finally {
      useStrings(undefined);
      useLocale('en');
    }
  });
});
