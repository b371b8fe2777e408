// A small code base for semantic search on real embeddings (66 files in nine languages: the targets of
// searchTargets.ts and the near neighbours of searchDistractors.ts), and held-out questions in plain
// language that share no content word with the file they should find (test/unit/realmodels/
// searchCorpus.test.ts checks that claim word by word, so BM25 cannot find the file: only its meaning can).
// A question may share a word with another file, as real questions do: the words then pull a wrong file up.
import { tokenize } from '../../src/core/index/tokenize';
import { distractors } from './searchDistractors';
import { targets } from './searchTargets';

/** Every file written into the workspace under `realsearch/`, by name. */
export const corpus: Readonly<Record<string, string>> = { ...targets, ...distractors };

/** Held-out questions and the file each should find. */
export const questions: readonly { readonly question: string; readonly file: string }[] = [
  { question: 'show how long back something happened, in friendly words a feed displays', file: 'relativeTime.ts' },
  { question: 'when is the deadline counting only Monday through Friday', file: 'business_days.py' },
  { question: "confirm a user's secret phrase when signing on", file: 'passwordHash.ts' },
  { question: 'make sure a download was not corrupted or tampered with', file: 'checksum.go' },
  { question: 'turn a spreadsheet export into structured records', file: 'csv_reader.py' },
  { question: "deliver a message to somebody's inbox", file: 'mailer.ts' },
  { question: 'keep only the newest items in memory and forget old ones once there is no room', file: 'lruCache.ts' },
  { question: 'shrink a picture down to a small preview', file: 'thumbnail.ts' },
  { question: 'locate the position of an item within an ordered list quickly', file: 'binary_search.rs' },
  { question: 'postpone a handler while keystrokes keep arriving', file: 'debounce.ts' },
  { question: 'try a flaky network operation again, pausing longer each round', file: 'retry.go' },
  { question: 'suggest the nearest correctly spelled term for a typo', file: 'levenshtein.py' },
  { question: 'stop a single client from calling us too often', file: 'rateLimiter.ts' },
  { question: 'check that a signed login ticket is genuine and still valid', file: 'jwt.ts' },
  { question: 'how far apart are cities on the globe', file: 'geo.py' },
  { question: 'archive the folder every night and throw away copies past a week', file: 'backup.sh' },
  { question: 'which buyers spent the most money since January', file: 'top_customers.sql' },
  { question: 'find the commonest terms in a body of writing', file: 'word_freq.py' },
  { question: 'catch a mistyped Visa or Mastercard before charging', file: 'Luhn.java' },
  { question: 'let in-flight requests finish before the web process exits', file: 'shutdown.go' },
  { question: 'how warm is it in the units Americans use for weather', file: 'temperature.ts' },
];

const stopWords = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'in',
  'into',
  'is',
  'it',
  'for',
  'on',
  'and',
  'or',
  'how',
  'where',
  'what',
  'when',
  'with',
  'by',
  'at',
  'from',
  'that',
  'this',
  'do',
  'does',
  's',
  'as',
]);

/** Content words as the keyword index sees them (its tokenizer: identifiers whole and in parts, lower case), stop words out. */
export function contentWords(text: string): Set<string> {
  return new Set(tokenize(text).filter((word) => !stopWords.has(word)));
}

/** The content words `question` shares with the file `name` as the keyword index holds it (its path, then its text). */
export function sharedWords(question: string, name: string): string[] {
  const words = contentWords(`realsearch/${name}\n${corpus[name] ?? ''}`);
  return [...contentWords(question)].filter((word) => words.has(word));
}

/** A ranking's figures over the questions, from each question's file rank (1-based; 0 when it is not in the first 10). */
export interface RankFigures {
  /** Questions whose file came first. */
  readonly top1: number;
  /** The share of questions whose file is among the first 5 files. */
  readonly recall5: number;
  /** The mean of 1 / rank over the first 10 files (0 when the file is not there). */
  readonly mrr10: number;
}

/** The figures of `ranks`, one a question. */
export function rankFigures(ranks: readonly number[]): RankFigures {
  const n = Math.max(1, ranks.length);
  return {
    top1: ranks.filter((rank) => rank === 1).length,
    recall5: ranks.filter((rank) => rank >= 1 && rank <= 5).length / n,
    mrr10: ranks.reduce((sum, rank) => sum + (rank >= 1 && rank <= 10 ? 1 / rank : 0), 0) / n,
  };
}
