import { strict as assert } from 'node:assert';
import type { ModelInfo } from '../../../src/core/api/types';
import { newConversation } from '../../../src/core/chat/conversation';
import { checkJsonAnswer } from '../../../src/core/chat/jsonCheck';
import { buildChatRequest, normaliseOptions } from '../../../src/core/chat/requestBuilder';

const model: ModelInfo = {
  id: 'Llama-4-Maverick-17B-128E-Instruct',
  ownedBy: undefined,
  contextLength: 131072,
  maxCompletionTokens: 16384,
  pricing: undefined,
  capabilities: ['chat', 'vision', 'tools', 'json'],
  family: undefined,
};

describe('request builder', () => {
  it('brings every option within the spec limits and says what it changed', () => {
    const { options, problems } = normaliseOptions({ temperature: 1.7, topP: -1, topK: 250.4, maxTokens: 99_999, stop: ['a', '', 'b', 'c', 'd', 'e'] }, model);
    assert.deepEqual(options, { temperature: 1, topP: 0, topK: 100, maxTokens: 16384, stop: ['a', 'b', 'c', 'd'] });
    assert.deepEqual(
      problems.map((problem) => problem.param),
      ['temperature', 'topP', 'topK', 'maxTokens', 'stop'],
    );
  });

  it('leaves valid options alone', () => {
    const input = { temperature: 0.2, topP: 0.9, topK: 50, maxTokens: 100, stop: ['END'] };
    assert.deepEqual(normaliseOptions(input, model), { options: input, problems: [] });
  });

  it('falls back to plain JSON mode when the schema does not parse', () => {
    const { options, problems } = normaliseOptions({ jsonMode: 'schema', schema: '{ nope' }, model);
    assert.equal(options.jsonMode, 'object');
    assert.equal(problems[0]?.param, 'schema');
  });

  it('sends the system prompt, the history and only the newest image', () => {
    const conversation = newConversation(model.id);
    conversation.messages.push(
      { id: '1', role: 'user', text: 'first', imageDataUrl: 'data:image/png;base64,AAAA', createdAt: 1 },
      { id: '2', role: 'assistant', text: 'a cat', createdAt: 2 },
      { id: '3', role: 'assistant', text: '', createdAt: 3, error: { message: 'x', reason: 'server' } },
      { id: '4', role: 'user', text: 'second', imageDataUrl: 'data:image/png;base64,BBBB', createdAt: 4 },
    );
    const { request, budget } = buildChatRequest(conversation, model, { systemPrompt: 'Be brief.', temperature: 0.5, stop: ['X'] });
    assert.equal(request.model, model.id);
    assert.equal(request.maxTokens, 4096);
    assert.equal(request.temperature, 0.5);
    assert.deepEqual(request.stop, ['X']);
    assert.equal(budget.droppedCount, 0);
    const roles = request.messages.map((message) => message.role);
    assert.deepEqual(roles, ['system', 'user', 'assistant', 'user']);
    const images = JSON.stringify(request.messages).match(/data:image/g) ?? [];
    assert.equal(images.length, 1, 'one image per request');
    assert.match(JSON.stringify(request.messages[1]), /not resent/);
    assert.match(JSON.stringify(request.messages[3]), /BBBB/);
  });

  it('asks for JSON in json modes', () => {
    const conversation = newConversation(model.id);
    conversation.messages.push({ id: '1', role: 'user', text: 'list colours', createdAt: 1 });
    const plain = buildChatRequest(conversation, model, { jsonMode: 'object' }).request;
    assert.deepEqual(plain.responseFormat, { type: 'json_object' });
    assert.match(JSON.stringify(plain.messages[0]), /JSON/);
    const schema = buildChatRequest(conversation, model, { jsonMode: 'schema', schema: '{"type":"object"}' }).request;
    assert.deepEqual(schema.responseFormat, { type: 'json_schema', jsonSchema: { name: 'answer', schema: { type: 'object' } } });
  });
});

describe('JSON check', () => {
  const schema = { type: 'object', required: ['name', 'age'], properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } } };

  it('pretty-prints a conforming answer', () => {
    const check = checkJsonAnswer('{"name":"Ada","age":36}', schema);
    assert.equal(check.valid, true);
    assert.equal(check.pretty, '{\n  "name": "Ada",\n  "age": 36\n}');
  });

  it('lists each mismatch with its path', () => {
    const check = checkJsonAnswer('{"name":1,"age":-2}', schema);
    assert.equal(check.valid, false);
    assert.deepEqual(check.problems, ['/name must be string', '/age must be >= 0']);
  });

  it('reports an answer that is not JSON, and accepts a fenced one', () => {
    assert.match(checkJsonAnswer('not json').problems[0] ?? '', /not valid JSON/);
    assert.equal(checkJsonAnswer('```json\n{"a":1}\n```').valid, true);
  });
});

describe('audio reasoning request', () => {
  it('resends the newest audio with the last question as the instruction and earlier turns as history', async () => {
    const { buildAudioReasoningRequest } = await import('../../../src/core/chat/requestBuilder');
    const conversation = newConversation('Qwen2-Audio-7B-Instruct');
    const dataUrl = `data:audio/wav;base64,${Buffer.from('RIFFdata').toString('base64')}`;
    conversation.messages.push(
      { id: '1', role: 'user', text: 'What is said?', audio: { name: 'a.wav', dataUrl }, createdAt: 1 },
      { id: '2', role: 'assistant', text: 'Hello world.', createdAt: 2 },
      { id: '3', role: 'user', text: 'In which language?', createdAt: 3 },
    );
    const request = buildAudioReasoningRequest(conversation, { temperature: 0 });
    assert.equal(request?.model, 'Qwen2-Audio-7B-Instruct');
    assert.equal(Buffer.from(request?.audio ?? []).toString(), 'RIFFdata');
    assert.equal(request?.instruction, 'In which language?');
    assert.deepEqual(request?.history, [
      { role: 'user', content: 'What is said?' },
      { role: 'assistant', content: 'Hello world.' },
    ]);
    assert.equal(request?.temperature, 0);
  });

  it('is not used for a conversation without audio', async () => {
    const { buildAudioReasoningRequest } = await import('../../../src/core/chat/requestBuilder');
    const conversation = newConversation('m');
    conversation.messages.push({ id: '1', role: 'user', text: 'hi', createdAt: 1 });
    assert.equal(buildAudioReasoningRequest(conversation, {}), undefined);
  });
});
