// Judging a real model's output by its meaning, not by one machine's exact words. Whisper base's
// translation of the same clip differs between CPUs (CTranslate2 takes another numeric path on an AMD CPU
// with AVX-512: no MKL there; test/unit/realmodels/meaning.test.ts holds what each path wrote), so the
// real-model tier asks whether the sentence's ideas came through in English, and whether its Italian words
// are gone. Plain functions, no `vscode`: the unit tier checks them on recorded outputs.
import { words } from './wer';

/** The Italian sentence the tier speaks (festival's Italian voice) and translates. */
export const italianSentence = 'Buongiorno. Il cane gioca in giardino con la palla.';

/** Each idea of the sentence, with English words that carry it (lower case; a phrase is whole words). */
const ideas: readonly { readonly idea: string; readonly english: readonly string[] }[] = [
  { idea: 'the greeting', english: ['good morning', 'good day', 'hello'] },
  { idea: 'the dog', english: ['dog', 'dogs', 'puppy'] },
  { idea: 'playing', english: ['play', 'plays', 'playing'] },
  { idea: 'the garden', english: ['garden', 'yard', 'backyard'] },
  { idea: 'the ball', english: ['ball'] },
];

/** The sentence's own Italian words: none of them may stay in a translation. */
const italianWords = ['buongiorno', 'il', 'cane', 'gioca', 'giardino', 'con', 'palla'];

/** How many of the sentence's ideas must come through: a greeting, a dog and a ball at the least. */
export const ideasNeeded = 3;

/** The ideas of the sentence that `text` carries in English. */
export function englishIdeas(text: string): string[] {
  const padded = ` ${words(text).join(' ')} `;
  return ideas.filter(({ english }) => english.some((phrase) => padded.includes(` ${phrase} `))).map(({ idea }) => idea);
}

/** The sentence's Italian words still in `text`. */
export function italianLeft(text: string): string[] {
  const present = new Set(words(text));
  return italianWords.filter((word) => present.has(word));
}

/**
 * What is wrong with `translation` as the English of `italianSentence` (empty when nothing is): it is
 * empty, fewer than `ideasNeeded` ideas came through, or Italian words stayed.
 */
export function translationProblems(translation: string): string[] {
  const problems: string[] = [];
  if (translation.trim() === '') return ['the translation is empty'];
  const carried = englishIdeas(translation);
  if (carried.length < ideasNeeded)
    problems.push(`only ${carried.length} of ${ideas.length} ideas in English (${carried.join(', ') || 'none'}); want ${ideasNeeded}`);
  const left = italianLeft(translation);
  if (left.length > 0) problems.push(`Italian words stayed: ${left.join(', ')}`);
  return problems;
}

/** The sentence's Italian content words a transcript (not a translation) of the clip holds. */
export function italianHeard(transcript: string): string[] {
  const present = new Set(words(transcript));
  return ['buongiorno', 'cane', 'gioca', 'giardino', 'palla'].filter((word) => present.has(word));
}
