import { strict as assert } from 'node:assert';
import type { ModelView } from '../../../src/shared/views';
import {
  canAddStop,
  clampMaxTokens,
  clampTopK,
  clampUnit,
  normaliseStops,
  prepareOptions,
  schemaProblem,
  supportsJson,
  supportsVision,
  withOption,
  supportsAudio,
  offersTranscription,
} from '../../../src/webview/optionRules';

const llama: ModelView = { id: 'llama', capabilities: ['chat', 'json'], maxCompletionTokens: 4096 };
const plain: ModelView = { id: 'plain', capabilities: ['chat'] };

describe('option rules', () => {
  it('clamps temperature and top_p to 0..1 with two decimals; empty or junk means unset', () => {
    assert.equal(clampUnit('5'), 1);
    assert.equal(clampUnit(-0.3), 0);
    assert.equal(clampUnit('0.456'), 0.46);
    assert.equal(clampUnit(''), undefined);
    assert.equal(clampUnit('abc'), undefined);
    assert.equal(clampUnit(Number.NaN), undefined);
    assert.equal(clampUnit(undefined), undefined);
  });

  it('clamps top_k to a whole number from 1 to 100', () => {
    assert.equal(clampTopK('0'), 1);
    assert.equal(clampTopK('2.6'), 3);
    assert.equal(clampTopK(1000), 100);
    assert.equal(clampTopK(' '), undefined);
  });

  it('clamps max_tokens to 1..the model maximum', () => {
    assert.equal(clampMaxTokens('999999', 4096), 4096);
    assert.equal(clampMaxTokens('0', 4096), 1);
    assert.equal(clampMaxTokens('12.4', undefined), 12);
    assert.equal(clampMaxTokens('1e9', undefined), 1e9);
    assert.equal(clampMaxTokens('', 4096), undefined);
  });

  it('keeps at most four distinct, non-empty stop sequences', () => {
    assert.deepEqual(normaliseStops(['a', '', 'a', 'b', 'c', 'd', 'e']), ['a', 'b', 'c', 'd']);
    assert.deepEqual(normaliseStops([' ', '\n']), [' ', '\n']);
    assert.deepEqual(normaliseStops(undefined), []);
    assert.equal(canAddStop(['a', 'b', 'c']), true);
    assert.equal(canAddStop(['a', 'b', 'c', 'd']), false);
  });

  it('checks a schema is a JSON object', () => {
    assert.match(schemaProblem(undefined) ?? '', /Pick a JSON schema/);
    assert.match(schemaProblem('{') ?? '', /not valid JSON/);
    assert.match(schemaProblem('[1]') ?? '', /must be a JSON object/);
    assert.equal(schemaProblem('{"type":"object"}'), undefined);
  });

  it('prepares options within every limit and leaves unset fields out', () => {
    const { options, problems } = prepareOptions(
      { temperature: 3, topP: 0.5, topK: 500, maxTokens: 10_000, stop: ['x', '', 'y', 'z', 'w', 'v'], systemPrompt: '  ', jsonMode: 'object' },
      llama,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(options, { temperature: 1, topP: 0.5, topK: 100, maxTokens: 4096, stop: ['x', 'y', 'z', 'w'], jsonMode: 'object' });
    assert.equal('systemPrompt' in options, false);
  });

  it('turns JSON mode off for a model without the json capability', () => {
    const { options, problems } = prepareOptions({ jsonMode: 'schema' }, plain);
    assert.deepEqual(options, {});
    assert.deepEqual(problems, []);
  });

  it('refuses json_schema without a valid schema, and sends the schema when it is valid', () => {
    assert.equal(prepareOptions({ jsonMode: 'schema' }, llama).problems.length, 1);
    const { options, problems } = prepareOptions({ jsonMode: 'schema', schema: '{"type":"object"}' }, llama);
    assert.deepEqual(problems, []);
    assert.deepEqual(options, { jsonMode: 'schema', schema: '{"type":"object"}' });
  });

  it('does not send a schema outside json_schema mode', () => {
    assert.deepEqual(prepareOptions({ jsonMode: 'object', schema: '{}' }, llama).options, { jsonMode: 'object' });
  });

  it('knows vision and JSON capabilities', () => {
    assert.equal(supportsVision({ id: 'v', capabilities: ['chat', 'vision'] }), true);
    assert.equal(supportsVision(llama), false);
    assert.equal(supportsVision(undefined), false);
    assert.equal(supportsJson(llama), true);
  });

  it('sets and removes one option without touching the others', () => {
    const set = withOption({ temperature: 0.2 }, 'topK', 5);
    assert.deepEqual(set, { temperature: 0.2, topK: 5 });
    assert.deepEqual(withOption(set, 'temperature', undefined), { topK: 5 });
  });

  it('offers audio for audio-reasoning models, and transcription while any model transcribes', () => {
    const qwen: ModelView = { id: 'Qwen2-Audio-7B-Instruct', capabilities: ['chat', 'audioReasoning', 'transcription'] };
    const whisper: ModelView = { id: 'Whisper-Large-v3', capabilities: ['transcription'] };
    assert.equal(supportsAudio(qwen), true);
    assert.equal(supportsAudio(llama), false);
    assert.equal(supportsAudio(undefined), false);
    assert.equal(offersTranscription([llama, whisper]), true);
    assert.equal(offersTranscription([llama, plain]), false);
    assert.equal(offersTranscription([]), false);
  });
});
