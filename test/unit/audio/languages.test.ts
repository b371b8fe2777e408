import assert from 'node:assert/strict';
import { findLanguage, languages, wireLanguage } from '../../../src/core/audio/languages';

describe('audio/languages: one table, each family its form', () => {
  it('sends ISO-639-1 codes to the speech-to-text family, whether given a code or a name', () => {
    assert.equal(wireLanguage('es', 'speechToText'), 'es');
    assert.equal(wireLanguage('Spanish', 'speechToText'), 'es');
    assert.equal(wireLanguage(' SPANISH ', 'speechToText'), 'es');
  });

  it('sends full lowercase names to the audio-instruct family, as the service examples do', () => {
    assert.equal(wireLanguage('es', 'audioInstruct'), 'spanish');
    assert.equal(wireLanguage('Spanish', 'audioInstruct'), 'spanish');
    assert.equal(wireLanguage('zh', 'audioInstruct'), 'chinese');
  });

  it('passes a language outside the table as given (trimmed), and keeps an unknown family as given', () => {
    assert.equal(wireLanguage(' yue ', 'speechToText'), 'yue');
    assert.equal(wireLanguage('Klingon', 'audioInstruct'), 'Klingon');
    assert.equal(wireLanguage('Spanish', undefined), 'Spanish');
    assert.equal(wireLanguage('', 'audioInstruct'), '');
  });

  it('has unique codes and names, codes of two lowercase letters', () => {
    assert.equal(new Set(languages.map((l) => l.code)).size, languages.length);
    assert.equal(new Set(languages.map((l) => l.name)).size, languages.length);
    for (const language of languages) assert.match(language.code, /^[a-z]{2}$/);
    assert.equal(findLanguage('spanish')?.code, 'es');
  });
});
