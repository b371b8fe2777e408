// The real-model tier's search corpus (test/real/searchCorpus.ts) holds what its test claims:
// enough files for a top 5 to mean something, near neighbours in topic, and questions that share no content
// word with the file they should find, by the keyword index's own tokenizer.
import * as assert from 'node:assert/strict';
import { contentWords, corpus, questions, rankFigures, sharedWords } from '../../real/searchCorpus';
import { distractors } from '../../real/searchDistractors';
import { targets } from '../../real/searchTargets';

describe('real-model tier: the search corpus and its held-out questions', () => {
  it('has some 60 files in several languages, with no name both a target and a distractor', () => {
    assert.ok(Object.keys(corpus).length >= 60, `${Object.keys(corpus).length} files`);
    assert.deepEqual(
      Object.keys(targets).filter((name) => name in distractors),
      [],
    );
    const languages = new Set(Object.keys(corpus).map((name) => name.slice(name.lastIndexOf('.'))));
    assert.ok(languages.size >= 8, [...languages].join(' '));
  });

  it('asks about 20 questions, each about its own target file', () => {
    assert.ok(questions.length >= 20, `${questions.length} questions`);
    const files = questions.map((q) => q.file);
    assert.deepEqual(
      files.filter((file) => !(file in targets)),
      [],
      'every question names a target file',
    );
    assert.equal(new Set(files).size, files.length, 'one question a file');
  });

  for (const { question, file } of questions) {
    it(`"${question}" shares no content word with ${file}`, () => {
      assert.ok(contentWords(question).size >= 3, 'a question of a few content words');
      assert.deepEqual(sharedWords(question, file), []);
    });
  }

  it('finds a shared word when there is one: identifiers in parts, the path, any case', () => {
    assert.deepEqual(sharedWords('hash it again', 'passwordHash.ts'), ['hash']);
    assert.deepEqual(sharedWords('a Business trip', 'business_days.py'), ['business']);
    assert.deepEqual(sharedWords('the realsearch folder', 'geo.py'), ['realsearch']);
  });

  it('scores a ranking: first places, recall at 5 and reciprocal rank over the first 10 (a miss is 0)', () => {
    assert.deepEqual(rankFigures([1, 2, 5, 6, 0]), { top1: 1, recall5: 3 / 5, mrr10: (1 + 1 / 2 + 1 / 5 + 1 / 6) / 5 });
    assert.deepEqual(rankFigures([11, 1]), { top1: 1, recall5: 1 / 2, mrr10: 1 / 2 });
  });
});
