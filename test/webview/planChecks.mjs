/* global document -- the page.evaluate callbacks run in the browser */
// The webview tier's checks of Plan and Act (issue #38): the composer's switch shows and changes the
// conversation's mode, every answer says which mode made it, the last Plan answer's plan is editable and
// Act on this plan sends the edited plan, an edited plan survives a reload until it is acted on, and in
// Restricted Mode the switch is locked on Plan and says why.

/** The plan the sandbox's Plan answer ends with (test/webview/page/scenarios.js). */
const plan = '1. In src/greeting.ts, rename `greeting` to `welcome`.\n2. In src/main.ts, update the import and the call.\n3. Run the tests.';

export async function planChecks({ check, open, posted, expect }) {
  const radio = (page, name) =>
    page
      .getByRole('radiogroup', { name: 'Agent mode' })
      .or(page.getByRole('group', { name: 'Agent mode' }))
      .getByRole('radio', { name });

  await check('the mode switch shows the conversation mode and posts agent/setMode', async (context) => {
    const page = await open(context, 'plan');
    await page.locator('.message.assistant').first().waitFor();
    expect(await radio(page, 'Plan').isChecked(), 'Plan is not checked in a Plan conversation');
    expect(!(await radio(page, 'Act').isChecked()), 'Act is checked');
    await page.locator('.mode-option', { hasText: 'Act' }).click();
    const sent = await posted(page, 'agent/setMode');
    expect(JSON.stringify(sent) === '[{"type":"agent/setMode","mode":"act"}]', JSON.stringify(sent));
    await page.waitForFunction(() => document.querySelector('.mode-switch')?.getAttribute('data-mode') === 'act');
    expect(await radio(page, 'Act').isChecked(), 'Act is not checked after the host said so');
  });

  await check('every answer shows the mode that made it', async (context) => {
    const page = await open(context, 'plan');
    await page.locator('.message.assistant').first().waitFor();
    // One label per answer: the steps of an agent answer after its first have no header.
    const labels = await page
      .locator('.message.assistant .message-mode')
      .evaluateAll((elements) => elements.filter((element) => element.offsetParent !== null).map((element) => element.textContent));
    expect(JSON.stringify(labels) === '["Act","Plan"]', `visible labels: ${JSON.stringify(labels)}`);
    const names = await page.locator('.message.assistant').evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')));
    expect(names[0]?.endsWith('Act mode') && names[1]?.endsWith('Plan mode'), `answer names: ${JSON.stringify(names)}`);
  });

  await check('the last Plan answer has its plan in an editable box; Act on this plan sends the edited plan and switches to Act', async (context) => {
    const page = await open(context, 'plan');
    const box = page.getByRole('textbox', { name: 'Plan (edit it, then act on it)' });
    await box.waitFor();
    expect((await page.locator('.plan-block:visible').count()) === 1, 'more than one plan box, or none');
    const prefilled = await box.inputValue();
    expect(prefilled === plan, `prefilled with ${JSON.stringify(prefilled)}`);
    const edited = `${plan}\n4. Update the README.`;
    await box.fill(edited);
    await page.getByRole('button', { name: /^Act on this plan/ }).click();
    const [sent] = await posted(page, 'agent/actOnPlan');
    expect(sent?.plan === edited, `sent ${JSON.stringify(sent)}`);
    expect(typeof sent?.options === 'object', 'no options sent with the plan');
    await page.waitForFunction(() => document.querySelector('.mode-switch')?.getAttribute('data-mode') === 'act');
    const lastUser = await page.locator('.message.user').last().textContent();
    expect(lastUser?.includes('Update the README.'), `last user message: ${JSON.stringify(lastUser)}`);
  });

  await check('an edited plan survives a reload (setState) until it is acted on', async (context) => {
    const page = await open(context, 'plan');
    const box = () => page.getByRole('textbox', { name: 'Plan (edit it, then act on it)' });
    await box().waitFor();
    const edited = `${plan}\n4. Update the README.`;
    await box().fill(edited);
    await page.reload();
    await box().waitFor();
    const restored = await box().inputValue();
    expect(restored === edited, `after reload: ${JSON.stringify(restored)}`);
    // Acting on it forgets the edit: the next load fills the box from the answer again.
    await page.getByRole('button', { name: /^Act on this plan/ }).click();
    const [sent] = await posted(page, 'agent/actOnPlan');
    expect(sent?.plan === edited, `sent ${JSON.stringify(sent)}`);
    await page.reload();
    await box().waitFor();
    const refilled = await box().inputValue();
    expect(refilled === plan, `after acting and a reload: ${JSON.stringify(refilled)}`);
  });

  await check('a new Plan answer takes the box: the edit of the old plan is forgotten', async (context) => {
    const page = await open(context, 'plan');
    const box = page.getByRole('textbox', { name: 'Plan (edit it, then act on it)' });
    await box.waitFor();
    await box.fill(`${plan}\n4. Update the README.`);
    const composer = page.getByRole('textbox', { name: 'Message to Cadenza' });
    await composer.fill('Plan it once more.');
    await composer.press('Enter');
    // The sandbox answers in Plan; when it is done, its plan box is the one shown.
    await page.waitForFunction(() => document.querySelectorAll('.message.assistant').length === 4);
    await page.waitForFunction(() => {
      const boxes = [...document.querySelectorAll('.plan-block')].filter((block) => !block.hidden);
      return boxes.length === 1 && boxes[0]?.closest('.message.assistant') === [...document.querySelectorAll('.message.assistant')].at(-1);
    });
    // The sandbox shows its conversation as it was: the old plan's box is filled from the answer again.
    await page.reload();
    await box.waitFor();
    const refilled = await box.inputValue();
    expect(refilled === plan, `after a new Plan answer and a reload: ${JSON.stringify(refilled)}`);
  });

  await check('in Restricted Mode the switch is locked on Plan and says why, and Act on this plan is disabled', async (context) => {
    const page = await open(context, 'planRestricted');
    await page.locator('.message.assistant').first().waitFor();
    expect(await radio(page, 'Plan').isChecked(), 'Plan is not checked');
    expect(await radio(page, 'Act').isDisabled(), 'Act can be chosen in Restricted Mode');
    const note = page.locator('.mode-lock');
    expect(await note.isVisible(), 'the reason is not shown');
    expect((await note.textContent())?.startsWith('Restricted Mode:'), `reason: ${await note.textContent()}`);
    const act = page.getByRole('button', { name: /^Act on this plan/ });
    expect(await act.isDisabled(), 'Act on this plan is enabled in Restricted Mode');
  });
}
