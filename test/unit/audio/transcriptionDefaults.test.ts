import assert from 'node:assert/strict';
import type { ModelInfo } from '../../../src/core/api/types';
import { defaultLanguage, defaultTranscriptionModel } from '../../../src/core/audio/transcriptionDefaults';

const model = (id: string, capabilities: ModelInfo['capabilities'], family?: ModelInfo['family']): ModelInfo => ({
  id,
  ownedBy: undefined,
  contextLength: undefined,
  maxCompletionTokens: undefined,
  pricing: undefined,
  capabilities,
  family,
});
const llama = model('Meta-Llama-3.1-8B-Instruct', ['chat']);
const qwen = model('Qwen2-Audio-7B-Instruct', ['chat', 'audioReasoning', 'transcription'], 'audioInstruct');
const whisper = model('Whisper-Large-v3', ['transcription'], 'speechToText');
const whisperTurbo = model('Whisper-Large-v3-Turbo', ['transcription'], 'speechToText');

describe('audio/transcriptionDefaults: what transcribe uses without asking', () => {
  it('takes the configured model when the service lists it', () => {
    assert.equal(defaultTranscriptionModel([llama, qwen, whisper], 'Qwen2-Audio-7B-Instruct'), qwen);
    assert.equal(defaultTranscriptionModel([llama, qwen, whisper], ' Whisper-Large-v3 '), whisper);
  });

  it('with no setting, takes the first listed speech-to-text model, else the first that transcribes', () => {
    assert.equal(defaultTranscriptionModel([llama, qwen, whisperTurbo, whisper], ''), whisperTurbo);
    assert.equal(defaultTranscriptionModel([llama, qwen], ''), qwen);
  });

  it('chooses none when the setting names a model the service does not list, or nothing transcribes', () => {
    assert.equal(defaultTranscriptionModel([llama, qwen, whisper], 'Whisper-Retired'), undefined);
    assert.equal(defaultTranscriptionModel([llama, qwen, whisper], 'Meta-Llama-3.1-8B-Instruct'), undefined);
    assert.equal(defaultTranscriptionModel([llama], ''), undefined);
    assert.equal(defaultTranscriptionModel([], ''), undefined);
  });

  it('reads the language setting as a code, a name from the table, or empty for "detect"', () => {
    assert.equal(defaultLanguage(''), '');
    assert.equal(defaultLanguage('  '), '');
    assert.equal(defaultLanguage('fr'), 'fr');
    assert.equal(defaultLanguage('French'), 'fr');
    assert.equal(defaultLanguage('Yue'), 'yue');
  });
});
