// The completion model: the fastest small chat model listed, never a reasoning, audio or embedding model.
import assert from 'node:assert/strict';
import { type ModelInfo } from '../../../src/core/api/types';
import { defaultCompletionModel, resolveCompletionModel } from '../../../src/core/completions/model';

function model(id: string, extra: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id,
    ownedBy: undefined,
    contextLength: 8192,
    maxCompletionTokens: 1024,
    pricing: undefined,
    capabilities: ['chat', 'json'],
    family: undefined,
    ...extra,
  };
}

// The service's catalogue as the emulator lists it.
const listed: ModelInfo[] = [
  model('Meta-Llama-3.3-70B-Instruct', { contextLength: 131072 }),
  model('Meta-Llama-3.1-8B-Instruct', { contextLength: 16384 }),
  model('DeepSeek-R1-Distill-Llama-3B', { reasoning: { controls: [] } }),
  model('gpt-oss-120b', { reasoning: { controls: ['effort'] } }),
  model('Llama-4-Maverick-17B-128E-Instruct', { capabilities: ['chat', 'vision', 'tools', 'json'] }),
  model('Qwen2-Audio-7B-Instruct', { capabilities: ['chat', 'audioReasoning', 'transcription'], family: 'audioInstruct' }),
  model('Whisper-Large-v3', { capabilities: ['transcription'], family: 'speechToText' }),
  model('E5-Mistral-7B-Instruct', { capabilities: ['embeddings'] }),
];

describe('completions/model', () => {
  it('defaults to the smallest stated size among general chat models that do not reason', () => {
    assert.equal(defaultCompletionModel(listed), 'Meta-Llama-3.1-8B-Instruct');
    assert.equal(defaultCompletionModel(listed.filter((m) => m.id !== 'Meta-Llama-3.1-8B-Instruct')), 'Llama-4-Maverick-17B-128E-Instruct');
    assert.equal(defaultCompletionModel([model('unsized'), model('Tiny-1B')]), 'Tiny-1B', 'a stated size beats none');
  });

  it('never picks a reasoning, audio or embedding model, even when nothing else is listed', () => {
    assert.equal(
      defaultCompletionModel(listed.filter((m) => m.reasoning !== undefined || m.family !== undefined || m.capabilities.includes('embeddings'))),
      undefined,
    );
    assert.equal(resolveCompletionModel('', [model('DeepSeek-R1', { reasoning: { controls: [] } })]), undefined);
  });

  it('uses the setting unless it names a listed model that cannot complete', () => {
    assert.deepEqual(resolveCompletionModel('Meta-Llama-3.3-70B-Instruct', listed), { id: 'Meta-Llama-3.3-70B-Instruct', source: 'setting' });
    assert.deepEqual(resolveCompletionModel('my-own-deployment', listed), { id: 'my-own-deployment', source: 'setting' });
    assert.deepEqual(resolveCompletionModel('gpt-oss-120b', listed), { id: 'Meta-Llama-3.1-8B-Instruct', source: 'default', refused: 'gpt-oss-120b' });
    assert.deepEqual(resolveCompletionModel('  ', listed), { id: 'Meta-Llama-3.1-8B-Instruct', source: 'default' });
  });
});
