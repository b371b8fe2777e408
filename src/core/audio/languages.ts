// The one language table: the picker lists it, settings and agents name a language from it, and the
// client sends each audio family the form it takes (docs/service.md#transcription-and-translation).
import { type AudioFamily } from './limits';

/** A language the transcription models can be told about: ISO-639-1 code and English name. */
export interface Language {
  readonly code: string;
  readonly name: string;
}

/** Common ISO-639-1 languages (Whisper's best-covered ones first by name order), for the language picker. */
export const languages: readonly Language[] = [
  ['af', 'Afrikaans'],
  ['ar', 'Arabic'],
  ['hy', 'Armenian'],
  ['az', 'Azerbaijani'],
  ['be', 'Belarusian'],
  ['bs', 'Bosnian'],
  ['bg', 'Bulgarian'],
  ['ca', 'Catalan'],
  ['zh', 'Chinese'],
  ['hr', 'Croatian'],
  ['cs', 'Czech'],
  ['da', 'Danish'],
  ['nl', 'Dutch'],
  ['en', 'English'],
  ['et', 'Estonian'],
  ['fi', 'Finnish'],
  ['fr', 'French'],
  ['gl', 'Galician'],
  ['de', 'German'],
  ['el', 'Greek'],
  ['he', 'Hebrew'],
  ['hi', 'Hindi'],
  ['hu', 'Hungarian'],
  ['is', 'Icelandic'],
  ['id', 'Indonesian'],
  ['it', 'Italian'],
  ['ja', 'Japanese'],
  ['kn', 'Kannada'],
  ['kk', 'Kazakh'],
  ['ko', 'Korean'],
  ['lv', 'Latvian'],
  ['lt', 'Lithuanian'],
  ['mk', 'Macedonian'],
  ['ms', 'Malay'],
  ['mr', 'Marathi'],
  ['mi', 'Maori'],
  ['ne', 'Nepali'],
  ['no', 'Norwegian'],
  ['fa', 'Persian'],
  ['pl', 'Polish'],
  ['pt', 'Portuguese'],
  ['ro', 'Romanian'],
  ['ru', 'Russian'],
  ['sr', 'Serbian'],
  ['sk', 'Slovak'],
  ['sl', 'Slovenian'],
  ['es', 'Spanish'],
  ['sw', 'Swahili'],
  ['sv', 'Swedish'],
  ['tl', 'Tagalog'],
  ['ta', 'Tamil'],
  ['th', 'Thai'],
  ['tr', 'Turkish'],
  ['uk', 'Ukrainian'],
  ['ur', 'Urdu'],
  ['vi', 'Vietnamese'],
  ['cy', 'Welsh'],
].map(([code, name]) => ({ code: code ?? '', name: name ?? '' }));

/** Finds a language by its code or its English name (case-insensitive). */
export function findLanguage(codeOrName: string): Language | undefined {
  const key = codeOrName.trim().toLowerCase();
  return languages.find((language) => language.code === key || language.name.toLowerCase() === key);
}

/**
 * The `language` form field for `family`: the speech-to-text family (Whisper) takes ISO-639-1 codes, the
 * audio-instruct family (Qwen2-Audio) full lowercase names ("spanish", as the service's examples send).
 * A language outside the table, or a model of unknown family, gets the text as given. Called by the client.
 */
export function wireLanguage(given: string, family: AudioFamily | undefined): string {
  const text = given.trim();
  const language = family === undefined ? undefined : findLanguage(text);
  if (language === undefined) return text;
  return family === 'speechToText' ? language.code : language.name.toLowerCase();
}
