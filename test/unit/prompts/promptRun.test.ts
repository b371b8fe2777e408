// How a prompt file's front matter shapes its run, in the panel and in @cadenza alike: the model it names
// (used when the service lists it, else a notice and the fallback), its mode (ask answers without tools,
// agent and edit may use them) and Restricted Mode (a workspace's prompt never gets a tool that changes
// anything).
import assert from 'node:assert/strict';
import { planPromptRun, promptRunNoticeMessage } from '../../../src/core/prompts/promptRun';

const listed = ['small-chat', 'Big-Coder', 'vision-1'];

describe('prompts/promptRun', () => {
  it('runs with the model the file names when the service lists it (its id compared without case)', () => {
    assert.deepEqual(planPromptRun({ name: 'review', mode: undefined, model: 'big-coder' }, listed, false, 'conversation'), {
      model: 'Big-Coder',
      tools: 'default',
      modelNotice: undefined,
      readOnlyNotice: undefined,
    });
  });

  it('names an unknown model in a notice (data the host words: the prompt, the model, which fallback runs) and leaves the choice to the fallback', () => {
    const plan = planPromptRun({ name: 'review', mode: undefined, model: 'gpt-9' }, listed, false, 'conversation');
    assert.equal(plan.model, undefined);
    assert.deepEqual(plan.modelNotice, { kind: 'unknownModel', prompt: 'review', model: 'gpt-9', fallback: 'conversation' });
    assert.equal(
      promptRunNoticeMessage(plan.modelNotice!),
      `/review names the model "gpt-9", which the service does not list; it runs with the conversation's model.`,
    );
    assert.equal(plan.readOnlyNotice, undefined);
    const inChat = planPromptRun({ name: 'review', mode: undefined, model: 'gpt-9' }, listed, false, 'chat');
    assert.deepEqual(inChat.modelNotice, { kind: 'unknownModel', prompt: 'review', model: 'gpt-9', fallback: 'chat' });
    assert.match(promptRunNoticeMessage(inChat.modelNotice!), /it runs with the chat's model\.$/);
  });

  it('a file without a model keeps the fallback, without a notice', () => {
    assert.deepEqual(planPromptRun({ name: 'p', mode: undefined, model: undefined }, listed, false, 'conversation'), {
      model: undefined,
      tools: 'default',
      modelNotice: undefined,
      readOnlyNotice: undefined,
    });
  });

  it('mode ask answers without tools; agent and edit may use them', () => {
    assert.equal(planPromptRun({ name: 'p', mode: 'ask', model: undefined }, listed, false, 'conversation').tools, 'none');
    assert.equal(planPromptRun({ name: 'p', mode: 'agent', model: undefined }, listed, false, 'conversation').tools, 'all');
    assert.equal(planPromptRun({ name: 'p', mode: 'edit', model: undefined }, listed, false, 'conversation').tools, 'all');
  });

  it('an untrusted workspace prompt in agent mode gets only the reading tools, and says so', () => {
    const plan = planPromptRun({ name: 'fix', mode: 'agent', model: undefined }, listed, true, 'conversation');
    assert.equal(plan.tools, 'readOnly');
    assert.deepEqual(plan.readOnlyNotice, { kind: 'readOnly', prompt: 'fix' });
    assert.equal(
      promptRunNoticeMessage(plan.readOnlyNotice!),
      '/fix comes from a workspace you have not trusted (Restricted Mode): it runs read-only, without any tool that changes files.',
    );
  });

  it('an untrusted prompt without a mode is read-only too; in ask mode it stays without tools', () => {
    assert.equal(planPromptRun({ name: 'p', mode: undefined, model: undefined }, listed, true, 'conversation').tools, 'readOnly');
    assert.equal(planPromptRun({ name: 'p', mode: 'ask', model: undefined }, listed, true, 'conversation').tools, 'none');
  });
});
