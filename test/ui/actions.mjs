// What a user does in the workbench, as playwright steps. Selectors are VS Code's own DOM (1.139); keep
// them here so a workbench change is fixed in one place.

/** Fails with `message` when `condition` is false (playwright-core has no `expect`). */
export function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** Clicks an activity-bar icon by its container title, e.g. "Cadenza". */
export async function openActivityBarView(page, title) {
  const icon = page.locator(`.activitybar .action-item a[aria-label^="${title}"]`).first();
  await icon.waitFor({ timeout: 60_000 });
  await icon.click();
}

/**
 * Runs a command from the command palette (F1), typing its full title ("Cadenza: Set API Key") and
 * pressing Enter on the matching row. `beforeEnter` runs while the palette shows the row (a screenshot).
 */
export async function runCommand(page, title, beforeEnter) {
  // Focus the workbench itself first: a key pressed while focus is inside a webview stays there.
  await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 15_000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
  await beforeEnter?.();
  await page.keyboard.press('Enter');
}

/** The visible quick-input box (an input box or a quick pick), e.g. a password prompt. */
export function quickInput(page) {
  return page.locator('.quick-input-widget:visible');
}

/**
 * Waits until the text of all elements matching `locator` (joined by newlines, non-breaking spaces made
 * plain: Monaco renders spaces as U+00A0) matches `pattern`, and returns that text.
 */
export async function waitForText(locator, pattern, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let last = '';
  for (;;) {
    last = (await locator.allTextContents().catch(() => [])).join('\n').replace(/\u00a0/g, ' ');
    if (pattern.test(last)) return last;
    if (Date.now() > deadline) throw new Error(`expected text matching ${pattern}, last saw: ${JSON.stringify(last.slice(0, 300))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
