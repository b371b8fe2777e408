/* global document -- the page.evaluate callbacks run in the browser */
// The webview tier's checks of the composer's `/` list of prompt files (issue #38): typing `/` at the start
// lists them as `/name` with their description, the list is a listbox the text box points at, the keyboard
// moves and picks, the text that follows `/name ` is the prompt's input, and `chat/send` names the prompt. A
// prompt from a workspace in Restricted Mode is marked untrusted in the list, over the text box and on the
// message it ran. `/` elsewhere than at the start opens nothing.
import { axeProblems } from './axe.mjs';

export async function promptChecks({ check, open, posted, expect }) {
  await check('typing / lists the prompt files; arrows and Enter pick one; sending names it with the text after it', async (context) => {
    const page = await open(context, 'bench');
    const input = page.getByRole('textbox', { name: 'Message to Cadenza' });
    await input.pressSequentially('/');
    const list = page.getByRole('listbox', { name: 'Prompt files' });
    await list.waitFor();
    const options = list.getByRole('option');
    await page.waitForFunction(() => document.querySelectorAll('.prompt-item').length === 3);
    const texts = (await options.allTextContents()).map((text) => text.trim());
    expect(
      JSON.stringify(texts) === JSON.stringify(['/reviewReview the selected code', '/standupDraft my stand-up note', '/testsWrite tests for the active file']),
      `offers: ${JSON.stringify(texts)}`,
    );
    expect((await posted(page, 'prompts/query')).length === 1, 'the list was asked for more than once');
    expect((await input.getAttribute('aria-activedescendant')) === `${await list.getAttribute('id')}-0`, 'the first option is not the active one');
    const controls = (await input.getAttribute('aria-controls')) ?? '';
    const listId = await list.getAttribute('id');
    expect(controls.split(' ').includes(listId ?? ''), `aria-controls "${controls}" does not name the list ${listId}`);
    // Typing filters; arrows move (the text box names the active option); Enter picks instead of sending.
    await input.pressSequentially('t');
    await page.waitForFunction(() => document.querySelectorAll('.prompt-item').length === 2);
    // "t": the names that start with it first (tests), then those that hold it (standup).
    const activeName = async () => page.locator(`#${await input.getAttribute('aria-activedescendant')}`).getAttribute('data-name');
    await input.press('ArrowDown');
    expect((await activeName()) === 'standup', `ArrowDown: the active option is ${await activeName()}`);
    await input.press('ArrowUp');
    expect((await activeName()) === 'tests', `ArrowUp: the active option is ${await activeName()}`);
    await input.press('Enter');
    expect((await posted(page, 'chat/send')).length === 0, 'Enter in the list sent the message');
    expect((await input.inputValue()) === '/tests ', `after the pick: ${JSON.stringify(await input.inputValue())}`);
    expect(!(await list.isVisible()), 'the list stayed open after the pick');
    const badge = page.locator('.prompt-badge');
    expect((await badge.textContent())?.startsWith('/testsSending runs this prompt file (.cadenza/prompts/tests.md)'), await badge.textContent());
    await input.pressSequentially('cover the empty list');
    await input.press('Enter');
    await page.waitForFunction(() => document.querySelector('.message.user [data-prompt="tests"]') !== null);
    const [sent] = await posted(page, 'chat/send');
    expect(sent.prompt === 'tests' && sent.text === 'cover the empty list', `sent ${JSON.stringify(sent)}`);
    const chip = await page.locator('.message.user .message-prompt').last().textContent();
    expect(chip?.startsWith('/testsPrompt file .cadenza/prompts/tests.md'), `the message's chip: ${chip}`);
    await page.waitForFunction(() => document.querySelector('.composer-input').value === '');
    expect(!(await badge.isVisible()), 'the badge stayed after sending');
  });

  await check('Escape closes the / list; a / that is not at the start, or a name that is no prompt, sends plain text', async (context) => {
    const page = await open(context, 'bench');
    const input = page.getByRole('textbox', { name: 'Message to Cadenza' });
    await input.pressSequentially('/re');
    const list = page.getByRole('listbox', { name: 'Prompt files' });
    await list.waitFor();
    await input.press('Escape');
    expect(!(await list.isVisible()), 'Escape left the list open');
    await input.fill('');
    await input.pressSequentially('what does a/b mean?');
    expect(!(await list.isVisible()), 'a / in the middle opened the list');
    await input.fill('/etc/hosts is what?');
    await input.press('Escape');
    await input.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.message.user').length > 1);
    const [sent] = await posted(page, 'chat/send');
    expect(sent.prompt === undefined && sent.text === '/etc/hosts is what?', `sent ${JSON.stringify(sent)}`);
  });

  await check('an untrusted prompt is marked in the / list, over the text box and on the message it ran; axe passes with the list open', async (context) => {
    const page = await open(context, 'prompts');
    const ran = page.locator('.message.user .message-prompt');
    expect((await ran.textContent())?.includes('untrusted workspace: ran read-only'), `the message's chip: ${await ran.textContent()}`);
    const input = page.getByRole('textbox', { name: 'Message to Cadenza' });
    await input.pressSequentially('/rev');
    const option = page.getByRole('option', { name: /review/ });
    await option.waitFor();
    expect((await option.textContent())?.endsWith('untrusted'), `the option: ${await option.textContent()}`);
    const { problems } = await axeProblems(page);
    expect(problems.length === 0, problems.join('\n'));
    await input.press('Tab');
    expect((await page.locator('.prompt-badge').textContent())?.includes('untrusted workspace: read-only'), 'the badge does not say untrusted');
  });
}
