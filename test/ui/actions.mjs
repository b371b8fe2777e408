// What a user does in the workbench, as playwright steps. Selectors are VS Code's own DOM (1.139); keep
// them here so a workbench change is fixed in one place.
import fs from 'node:fs';
import path from 'node:path';

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
  // The row whose label is exactly the title: a fuzzy match can rank another command first
  // ("Preferences: Browse Color Themes in Marketplace" above "Preferences: Color Theme").
  const row = page
    .locator('.quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }),
    })
    .first();
  await row.waitFor({ timeout: 30_000 });
  await beforeEnter?.();
  if ((await row.getAttribute('class'))?.includes('focused')) await page.keyboard.press('Enter');
  else await row.click();
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

/** Polls `probe` (async, returns a value or undefined/false) until it returns something truthy, and returns it. */
export async function waitUntil(probe, what, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let lastError;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Picks a row of the visible quick pick: types `filter` into its box, then clicks the row labelled `label`.
 * `beforePick` runs while the filtered list shows the row (a screenshot).
 */
export async function pickQuickItem(page, label, filter = label, beforePick = undefined) {
  const box = quickInput(page);
  const input = box.locator('input.input').first();
  await input.waitFor({ timeout: 15_000 });
  await input.fill(filter);
  const row = box
    .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) })
    .first();
  await row.waitFor({ timeout: 30_000 });
  await beforePick?.();
  await row.click();
}

/** Closes a quick input left open (a failed step), so the next test starts from a clean workbench. */
export async function closeQuickInput(page) {
  if (await quickInput(page).isVisible()) {
    await page.keyboard.press('Escape');
    await quickInput(page)
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => undefined);
  }
}

/**
 * Chooses a file of the workspace folder in VS Code's own open dialog, which something just opened (in
 * code-server: the simple file dialog, a quick input with a path box). It opens at the workspace folder,
 * or at the folder of the last file a dialog or an editor used, so the whole path is typed over whatever
 * it shows, and Enter pressed. `beforeEnter` runs while the box shows the path (a screenshot). Resolves
 * with the folder the dialog opened at, once it is gone (another quick input, e.g. a picker, may have
 * replaced it); on a failure the dialog is closed.
 */
export async function chooseInFileDialog(page, workspace, fileName, beforeEnter = undefined) {
  const dialog = quickInput(page);
  const pathBox = dialog.locator('input.input').first();
  const wanted = `${workspace}/${fileName}`;
  try {
    const opened = await waitUntil(async () => {
      const value = await pathBox.inputValue({ timeout: 500 });
      return value.startsWith('/') && value.endsWith('/') ? value : undefined;
    }, 'the file dialog to show a folder');
    // Set the whole path in one input event: typed character by character, the dialog's folder
    // auto-completion races the keystrokes under load and can leave a different path in the box.
    // If a completion still rewrites it, set it again.
    await waitUntil(async () => {
      if ((await pathBox.inputValue()) === wanted) return true;
      await pathBox.fill(wanted);
      await page.waitForTimeout(150);
      return (await pathBox.inputValue()) === wanted;
    }, `the dialog's path box to read ${wanted}`);
    await dialog.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first().waitFor({ timeout: 15_000 });
    await beforeEnter?.();
    await page.keyboard.press('Enter');
    await waitUntil(
      async () => !(await dialog.isVisible()) || (await pathBox.inputValue({ timeout: 500 }).catch(() => '')) !== wanted,
      'the file dialog to close',
      10_000,
    );
    return opened;
  } catch (error) {
    await closeQuickInput(page);
    throw error;
  }
}

/**
 * Opens a file with File: Open File... and VS Code's own file dialog, and waits for its editor tab. Unlike
 * Quick Open it reads the folder from disk, so a file a test has just written is there at once (Quick
 * Open's file list follows the watcher, which lags on a loaded machine).
 */
export async function openFileByPath(page, workspace, fileName) {
  const tab = page.locator(`.tabs-container .tab.active[aria-label^="${fileName.split('/').pop()}"]`);
  // Navigation, not the thing under test: on a loaded machine the dialog now and then closes without
  // opening (Enter lands while its list is being refreshed) or its list does not show the file in time
  // (chooseInFileDialog closes it then), so it is tried up to three times.
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommand(page, 'File: Open File...');
      await chooseInFileDialog(page, workspace, fileName);
      await tab.waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The text of the quick pick's rows (label, description and detail), one string per row. */
export async function quickPickRows(page) {
  return quickInput(page).locator('.quick-input-list .monaco-list-row').allTextContents();
}

export function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Waits until the workbench has registered Cadenza (its activity-bar icon is there): until then its
 * commands are missing from the palette. Right after the workbench loads this can take a while.
 */
export async function waitForCadenza(page) {
  await page.locator('.activitybar .action-item a[aria-label^="Cadenza"]').first().waitFor({ timeout: 60_000 });
}

/** Stores `key` as the API key the way a user does: F1 → Cadenza: Set API Key → type → Enter. */
export async function setApiKey(page, key) {
  await waitForCadenza(page);
  await runCommand(page, 'Cadenza: Set API Key');
  const password = quickInput(page).locator('input[type="password"]');
  await password.waitFor({ timeout: 15_000 });
  await password.pressSequentially(key, { delay: 2 });
  await page.keyboard.press('Enter');
  await password.waitFor({ state: 'hidden', timeout: 10_000 });
}

/**
 * Walks a context menu that is open (right-click first): each label in `path` is pointed at with the mouse
 * (which focuses it and opens a submenu), and the last is run with Enter, e.g. ['Cadenza', 'Explain
 * Selection']. (A quick click right after the menu opened can be taken for the release of the right-click
 * and ignored; Enter on the focused entry is what the menu runs for sure.) VS Code draws its menus in a
 * shadow root, which playwright's CSS locators pierce.
 */
export async function clickMenuPath(page, path) {
  for (const label of path) {
    // The newest menu (a submenu opens in its own .monaco-menu) holds the entry.
    const item = page
      .locator('.context-view .monaco-menu .action-item:not(.disabled)', {
        has: page.locator('.action-label', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
      })
      .last();
    await item.waitFor({ timeout: 10_000 });
    await item.hover();
    await waitUntil(async () => (await item.getAttribute('class'))?.includes('focused'), `the menu entry ${label} to take focus`, 5_000);
  }
  await page.keyboard.press('Enter');
  await page.locator('.context-view .monaco-menu').first().waitFor({ state: 'hidden', timeout: 5_000 });
}

/** The active text editor's rendered text (one element: its lines run together; Monaco renders only visible lines). */
export function activeEditorLines(page) {
  return page.locator('.editor-group-container.active .monaco-editor .view-lines');
}

/**
 * The active text editor's visible lines in screen order (Monaco positions line elements absolutely, so
 * DOM order is not reading order), with Monaco's non-breaking spaces made plain. A wrapped line comes
 * back as several entries.
 */
export async function readEditorLines(page) {
  return page
    .locator('.editor-group-container.active .monaco-editor .view-lines')
    .first()
    .evaluate((lines) =>
      Array.from(lines.querySelectorAll('.view-line'))
        .map((line) => ({ top: parseFloat(line.style.top) || line.offsetTop, text: (line.textContent ?? '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text),
    );
}

/** Opens a workspace file with Quick Open (Ctrl+P), as a user would, and waits for its editor tab. */
export async function quickOpen(page, relativePath) {
  await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 15_000 });
  await input.fill(relativePath);
  const name = relativePath.split('/').pop();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor({ timeout: 15_000 });
}

/**
 * A real, small PNG (RGB, 8 bit) of one colour with a lighter diagonal, so the preview shows something.
 * Built with zlib: no image library needed.
 */
export async function makePng(width, height, [r, g, b]) {
  const { deflateSync, crc32 } = await import('node:zlib');
  const row = (y) => {
    const line = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const light = Math.abs(x - y) < 3;
      line.set(light ? [255, 255, 255] : [r, g, b], 1 + x * 3);
    }
    return line;
  };
  const raw = Buffer.concat(Array.from({ length: height }, (_, y) => row(y)));
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Seconds of audio in a PCM WAV file, from its own header (fmt byte rate, data size). */
export function wavSeconds(bytes) {
  let byteRate;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ') byteRate = bytes.readUInt32LE(at + 16);
    if (id === 'data' && byteRate) return size / byteRate;
    at += 8 + size + (size % 2);
  }
  throw new Error('not a PCM WAV file with fmt and data chunks');
}

/**
 * Sets a text setting in the Settings editor, as a person would: Preferences: Open Settings (UI), the
 * setting's id typed into the search, the value typed over the setting's box, the editor closed. The
 * Settings editor writes the User settings. Resolves once the box holds the value.
 */
export async function setTextSetting(page, id, value) {
  await runCommand(page, 'Preferences: Open Settings (UI)');
  const search = page.locator('.settings-header .suggest-input-container').first();
  await search.waitFor({ timeout: 30_000 });
  await search.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(id);
  // The setting's box is labelled with its id (the search filters as it is typed: wait for that row).
  const row = page.locator('.settings-body .monaco-list-row', { has: page.locator(`.setting-item-control input[aria-label="${id}"]`) }).first();
  const box = row.locator(`.setting-item-control input[aria-label="${id}"]`);
  const configured = async () => /\bis-configured\b/.test((await row.getAttribute('class')) ?? '') || (await row.locator('.is-configured').count()) > 0;
  await box.waitFor({ timeout: 30_000 });
  await box.fill(value);
  await box.press('Tab');
  // The editor writes the value after a debounce; the row is marked configured (or not, for '') once it has.
  await waitUntil(
    async () => (await box.inputValue()) === value && (await configured()) === (value !== ''),
    `${id} to be written as ${JSON.stringify(value)} by the Settings editor`,
  );
  const modal = page.locator('.monaco-modal-editor-block');
  for (let i = 0; i < 3 && (await modal.count()) > 0 && (await modal.first().isVisible()); i++) await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
}

/**
 * Puts a scratch file a test wrote into the workspace back: its editor reverted and closed, the file
 * removed, so later tests (and the index they build) see the fixture workspace as it was.
 */
export async function discardScratchFile(page, file) {
  await closeQuickInput(page);
  // A rewrite applied or text typed but not yet saved leaves the file dirty: revert it first, so closing
  // asks nothing.
  const tab = page.locator(`.tabs-container .tab[aria-label^="${path.basename(file)}"]`).first();
  if ((await tab.count()) > 0 && /\bdirty\b/.test((await tab.getAttribute('class')) ?? '')) {
    await tab.click();
    await runCommand(page, 'File: Revert File').catch(() => undefined);
  }
  await runCommand(page, 'View: Close All Editors').catch(() => undefined);
  // If the file was still dirty (the revert raced the undo's bookkeeping), VS Code asks before closing.
  const dontSave = page.getByRole('button', { name: "Don't Save" });
  if ((await dontSave.count()) > 0)
    await dontSave
      .first()
      .click()
      .catch(() => undefined);
  // The next test may open the same file: its editor must be gone first, or that test starts from this one's state.
  await tab.waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  fs.rmSync(file, { force: true });
}
