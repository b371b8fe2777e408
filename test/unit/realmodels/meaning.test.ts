// The real-model tier's judge of a translation, checked on what Whisper base really wrote for the tier's
// Italian clip on each of CTranslate2's numeric paths (int8, beam 5, faster-whisper 1.2.1, ctranslate2
// 4.8.5; CT2_USE_MKL and CT2_FORCE_CPU_ISA forced on one Xeon with AVX-512). MKL off with AVX-512 is what
// an AMD EPYC takes by default, and wrote the "hot dog" line a CI run failed on; MKL on with AVX-512 is
// where the earlier, word-for-word assertion was written.
import * as assert from 'node:assert/strict';
import { englishIdeas, italianHeard, translationProblems } from '../../real/meaning';

const translations: Readonly<Record<string, string>> = {
  'MKL off, generic': 'Good morning! The dog plays in the garden with the ball!',
  'MKL off, AVX2': 'Good morning, the dog plays in the garden with the ball.',
  'MKL off, AVX-512 (AMD EPYC default)': 'Good morning, the hot dog in Jardino with the ball.',
  'MKL on, generic': 'Good morning! The dog plays in the garden with the ball!',
  'MKL on, AVX2': 'Good morning, the dog plays in the garden with the ball.',
  'MKL on, AVX-512': 'Good morning, the dog plays in a garden with the ball.',
  'a Spanish source hint, AVX2': 'Good morning. The dog plays in a garden with the ball.',
};

describe('real-model tier: judging a translation by its meaning', () => {
  for (const [path, text] of Object.entries(translations)) {
    it(`accepts what ${path} wrote`, () => {
      assert.deepEqual(translationProblems(text), [], text);
    });
  }

  it('rejects the clip transcribed instead of translated (the transcription endpoint, language detected)', () => {
    for (const transcript of ['Buongiorno, il cane gioca in giardino con la palla.', 'Buongiorno, il cane gioca in giardino con la pala.']) {
      const problems = translationProblems(transcript);
      assert.match(problems.join('; '), /only 0 of 5 ideas/);
      assert.match(problems.join('; '), /Italian words stayed: buongiorno, il, cane, gioca, giardino, con/);
    }
  });

  it('rejects an empty answer, a cut one and another language', () => {
    assert.deepEqual(translationProblems('  \n'), ['the translation is empty']);
    assert.match(translationProblems('Good morning.').join(), /only 1 of 5 ideas in English \(the greeting\)/);
    assert.match(translationProblems('Buenos días, el perro juega en el jardín con la pelota.').join(), /only 0 of 5/);
    assert.match(translationProblems('Good morning, il cane plays with the ball.').join(), /Italian words stayed: il, cane/);
  });

  it('reads ideas as whole words and phrases', () => {
    assert.deepEqual(englishIdeas('Hotdogs! A goodmorning ballet.'), []);
    assert.deepEqual(englishIdeas('GOOD   MORNING; dogs play in the backyard, ball.'), ['the greeting', 'the dog', 'playing', 'the garden', 'the ball']);
  });

  it('hears the Italian words in a transcript of the clip', () => {
    assert.deepEqual(italianHeard('Buongiorno, il cane gioca in giardino con la pala.'), ['buongiorno', 'cane', 'gioca', 'giardino']);
    assert.deepEqual(italianHeard('Good morning, the dog plays in a garden with the ball.'), []);
  });
});
