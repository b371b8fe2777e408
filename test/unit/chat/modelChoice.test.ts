// A conversation never lacks a model when one can be chosen: resolution order, and the default.
import assert from 'node:assert/strict';
import { type ModelInfo } from '../../../src/core/api/types';
import { defaultChatModel, resolveChatModel, statedSizeB } from '../../../src/core/chat/modelChoice';

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
  model('Meta-Llama-3.1-8B-Instruct', { contextLength: 16384 }),
  model('Meta-Llama-3.3-70B-Instruct', { contextLength: 131072 }),
  model('DeepSeek-R1', { contextLength: 16384, reasoning: { controls: [] } }),
  model('gpt-oss-120b', { contextLength: 131072, reasoning: { controls: ['effort'] } }),
  model('Llama-4-Maverick-17B-128E-Instruct', { contextLength: 131072, capabilities: ['chat', 'vision', 'tools', 'json'] }),
  model('Qwen2-Audio-7B-Instruct', { capabilities: ['chat', 'audioReasoning', 'transcription'], family: 'audioInstruct' }),
  model('Whisper-Large-v3', { capabilities: ['transcription'], family: 'speechToText' }),
  model('E5-Mistral-7B-Instruct', { capabilities: ['embeddings'] }),
];

describe('chat/modelChoice', () => {
  it('reads the stated size of an id', () => {
    assert.equal(statedSizeB('Meta-Llama-3.3-70B-Instruct'), 70);
    assert.equal(statedSizeB('Meta-Llama-3.1-8B-Instruct'), 8);
    assert.equal(statedSizeB('Llama-4-Maverick-17B-128E-Instruct'), 17);
    assert.equal(statedSizeB('gemma-3-270m'), undefined);
    assert.equal(statedSizeB('DeepSeek-R1'), undefined);
  });

  it('defaults to the largest general chat model: not audio, embeddings or a reasoning model', () => {
    assert.equal(defaultChatModel(listed), 'Meta-Llama-3.3-70B-Instruct');
    assert.equal(defaultChatModel(listed.filter((m) => !m.id.includes('70B'))), 'Llama-4-Maverick-17B-128E-Instruct');
    assert.equal(defaultChatModel(listed.filter((m) => m.family !== undefined || m.capabilities.includes('embeddings'))), undefined);
    assert.equal(defaultChatModel([model('DeepSeek-R1', { reasoning: { controls: [] } })]), 'DeepSeek-R1', 'only reasoning models: still one');
    assert.equal(
      defaultChatModel([model('small', { contextLength: 4096 }), model('big', { contextLength: 32768 })]),
      'big',
      'no stated size: the larger context',
    );
    assert.equal(defaultChatModel([]), undefined);
  });

  it('resolves the conversation, then the setting, then the last model used, then the default', () => {
    assert.deepEqual(resolveChatModel({ conversation: 'DeepSeek-R1', setting: 'gpt-oss-120b', lastUsed: 'Meta-Llama-3.1-8B-Instruct', models: listed }), {
      id: 'DeepSeek-R1',
      source: 'conversation',
    });
    assert.deepEqual(resolveChatModel({ setting: 'gpt-oss-120b', lastUsed: 'Meta-Llama-3.1-8B-Instruct', models: listed }), {
      id: 'gpt-oss-120b',
      source: 'setting',
    });
    assert.deepEqual(resolveChatModel({ setting: '  ', lastUsed: 'Meta-Llama-3.1-8B-Instruct', models: listed }), {
      id: 'Meta-Llama-3.1-8B-Instruct',
      source: 'lastUsed',
    });
    assert.deepEqual(resolveChatModel({ models: listed }), { id: 'Meta-Llama-3.3-70B-Instruct', source: 'default' });
  });

  it('keeps an explicit setting before the list arrives, but waits for the list for anything else', () => {
    assert.deepEqual(resolveChatModel({ setting: 'Meta-Llama-3.1-8B-Instruct', models: [] }), { id: 'Meta-Llama-3.1-8B-Instruct', source: 'setting' });
    assert.equal(resolveChatModel({ lastUsed: 'Meta-Llama-3.1-8B-Instruct', models: [] }), undefined);
    assert.equal(resolveChatModel({ models: [] }), undefined);
  });

  it('skips a last-used model the service no longer lists, or one that cannot chat', () => {
    assert.equal(resolveChatModel({ lastUsed: 'Retired-Model', models: listed })?.source, 'default');
    assert.equal(resolveChatModel({ lastUsed: 'Whisper-Large-v3', models: listed })?.id, 'Meta-Llama-3.3-70B-Instruct');
  });

  it("puts what the entry point itself asked for (VS Code chat's model for @cadenza) first, while the service lists it as a chat model", () => {
    const input = { conversation: 'DeepSeek-R1', setting: 'gpt-oss-120b', lastUsed: 'Meta-Llama-3.1-8B-Instruct', models: listed };
    assert.deepEqual(resolveChatModel({ ...input, requested: 'Qwen2-Audio-7B-Instruct' }), { id: 'Qwen2-Audio-7B-Instruct', source: 'request' });
    assert.deepEqual(
      resolveChatModel({ ...input, requested: 'Retired-Model' }),
      { id: 'DeepSeek-R1', source: 'conversation' },
      'a model no longer listed is not asked for',
    );
    assert.deepEqual(
      resolveChatModel({ ...input, requested: 'E5-Mistral-7B-Instruct' }),
      { id: 'DeepSeek-R1', source: 'conversation' },
      'nor one that cannot chat',
    );
  });

  it('without a request of its own, an entry point gets what the panel would: the same resolution, the same model', () => {
    assert.deepEqual(resolveChatModel({ requested: undefined, models: listed }), resolveChatModel({ models: listed }));
    assert.deepEqual(resolveChatModel({ requested: undefined, models: listed }), { id: 'Meta-Llama-3.3-70B-Instruct', source: 'default' });
  });
});
