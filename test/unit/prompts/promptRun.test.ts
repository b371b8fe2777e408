// How a prompt file's front matter shapes its run, in the panel and in @cadenza alike: the model it names
// (used when the service lists it, else a notice and the fallback), its mode (ask answers without tools,
// agent and edit may use them) and Restricted Mode (a workspace's prompt never gets a tool that changes
// anything).
import assert from 'node:assert/strict';
import { planPromptRun } from '../../../src/core/prompts/promptRun';

const listed = ['small-chat', 'Big-Coder', 'vision-1'];

describe('prompts/promptRun', () => {
  it('runs with the model the file names when the service lists it (its id compared without case)', () => {
    assert.deepEqual(planPromptRun({ name: 'review', mode: undefined, model: 'big-coder' }, listed, false, "the conversation's model"), {
      model: 'Big-Coder',
      tools: 'default',
      modelNotice: undefined,
      readOnlyNotice: undefined,
    });
  });

  it('names an unknown model in a notice and leaves the choice to the fallback', () => {
    const plan = planPromptRun({ name: 'review', mode: undefined, model: 'gpt-9' }, listed, false, "the conversation's model");
    assert.equal(plan.model, undefined);
    assert.equal(plan.modelNotice, `/review names the model "gpt-9", which the service does not list; it runs with the conversation's model.`);
    assert.equal(plan.readOnlyNotice, undefined);
  });

  it('a file without a model keeps the fallback, without a notice', () => {
    assert.deepEqual(planPromptRun({ name: 'p', mode: undefined, model: undefined }, listed, false, 'x'), {
      model: undefined,
      tools: 'default',
      modelNotice: undefined,
      readOnlyNotice: undefined,
    });
  });

  it('mode ask answers without tools; agent and edit may use them', () => {
    assert.equal(planPromptRun({ name: 'p', mode: 'ask', model: undefined }, listed, false, 'x').tools, 'none');
    assert.equal(planPromptRun({ name: 'p', mode: 'agent', model: undefined }, listed, false, 'x').tools, 'all');
    assert.equal(planPromptRun({ name: 'p', mode: 'edit', model: undefined }, listed, false, 'x').tools, 'all');
  });

  it('an untrusted workspace prompt in agent mode gets only the reading tools, and says so', () => {
    const plan = planPromptRun({ name: 'fix', mode: 'agent', model: undefined }, listed, true, 'x');
    assert.equal(plan.tools, 'readOnly');
    assert.equal(
      plan.readOnlyNotice,
      '/fix comes from a workspace you have not trusted (Restricted Mode): it runs read-only, without any tool that changes files.',
    );
  });

  it('an untrusted prompt without a mode is read-only too; in ask mode it stays without tools', () => {
    assert.equal(planPromptRun({ name: 'p', mode: undefined, model: undefined }, listed, true, 'x').tools, 'readOnly');
    assert.equal(planPromptRun({ name: 'p', mode: 'ask', model: undefined }, listed, true, 'x').tools, 'none');
  });
});
