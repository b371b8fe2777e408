// Audio as a person uses it: right-click a recording in the Explorer → Cadenza → Transcribe Audio, and
// read the Markdown document the transcript streams into, with nothing asked (the first speech-to-text
// model, the language detected, the cost from the duration); then → Transcribe with Options…, answer the
// two pickers (model, language). The recording is real speech from the generated audio fixtures, put at
// the workspace root by runUi.mjs; the transcript is scripted in the emulator, and the upload it received
// is checked.
import fs from 'node:fs';
import path from 'node:path';
import {
  check,
  chooseInFileDialog,
  clickMenuPath,
  closeQuickInput,
  pickQuickItem,
  quickInput,
  readEditorLines,
  runCommand,
  setApiKey,
  setTextSetting,
  waitForText,
  waitUntil,
  wavSeconds,
} from './actions.mjs';

const transcriptionModel = 'Whisper-Large-v3';

/** The chat panel's way of writing a small cost (src/shared/cost.ts formatCost). */
function formatUsd(usd) {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '< $0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** Right-clicks the recording in the Explorer and runs Cadenza → `entry` from its context menu. */
async function runFromExplorer(page, audioFile, entry, shot) {
  // The palette's Show Explorer, not the activity-bar icon: clicking the icon of the view already
  // shown (the Explorer is, in a fresh window) would close the side bar.
  await runCommand(page, 'View: Show Explorer');
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: audioFile }).first();
  await row.waitFor({ timeout: 20_000 });
  await row.click({ button: 'right' });
  await shot?.('explorer context menu');
  await clickMenuPath(page, ['Cadenza', entry]);
}

/** Waits for the transcript document and returns its lines once the transcript is in. */
async function transcriptDocument(page, audioFile, transcript, title = 'Transcript') {
  const tab = page.locator('.tabs-container .tab.active');
  // An untitled document's tab is named after its first line.
  await waitForText(tab, new RegExp(`${title}: ${audioFile.replace(/[.]/g, '\\.')}`), 30_000);
  return waitUntil(
    async () => {
      const shown = await readEditorLines(page);
      return shown.join(' ').replace(/\s+/g, ' ').includes(transcript) ? shown : undefined;
    },
    'the transcript to stream into the document',
    30_000,
  );
}

/** Discards the untitled transcript (else a later "Close All Editors" would stop at the save prompt). */
async function closeTranscript(page, audioFile, title = 'Transcript') {
  await runCommand(page, 'View: Revert and Close Editor');
  await waitUntil(
    async () => (await page.locator('.tabs-container .tab', { hasText: `${title}: ${audioFile}` }).count()) === 0,
    'the transcript document to close',
  );
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'Explorer → Cadenza → Transcribe Audio asks nothing: the transcript opens as a Markdown document with its cost',
    async run({ page, emulator, workspace, audioFile, shot }) {
      await setApiKey(page, emulator.key);
      const audio = fs.readFileSync(path.join(workspace, audioFile));
      const seconds = wavSeconds(audio);
      const whole = Math.round(seconds);
      const duration = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
      const perHour = Number(emulator.models.find((model) => model.id === transcriptionModel)?.pricing.durationPerHour);
      check(Number.isFinite(perHour), 'the emulator lists a price per audio hour for Whisper');
      const transcript =
        'Hello from the Cadenza UI test. The emulator was told to say these words for the recording, and they stream into a new Markdown document.';
      emulator.scriptTranscript(transcript);
      const before = emulator.requests.length;

      await runFromExplorer(page, audioFile, 'Transcribe Audio', shot);
      // No picker: the first speech-to-text model and the detected language are the defaults.
      const lines = await transcriptDocument(page, audioFile, transcript);
      check((await quickInput(page).count()) === 0, 'a picker is open');
      check(lines[0] === `# Transcript: ${audioFile}`, `the heading is ${JSON.stringify(lines[0])}`);
      const heading = lines.slice(0, 7);
      const cost = `- Cost: ${formatUsd((seconds * perHour) / 3600)}`;
      for (const line of [`- Model: ${transcriptionModel}`, '- Language: detected', `- Duration: ${duration}`, cost]) {
        check(heading.includes(line), `the heading lacks "${line}": ${JSON.stringify(heading)}`);
      }
      const bodyText = lines
        .slice(lines.indexOf(cost) + 1)
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      check(bodyText === transcript, `the document's text after the heading is not the transcript: ${JSON.stringify(bodyText)}`);
      // The status bar's language indicator names the document's language.
      await waitForText(page.locator('[id="status.editor.mode"]'), /^\s*Markdown\s*$/);

      // The upload: one streamed transcription request with the default model, no language, and the whole file.
      const uploads = emulator.requests.slice(before).filter((request) => request.path === '/v1/audio/transcriptions');
      check(uploads.length === 1, `expected 1 transcription request, the emulator received ${uploads.length}`);
      const form = uploads[0].body;
      check(form.model === transcriptionModel, `the upload asked for ${form.model}`);
      check(form.language === undefined, `the upload declared language ${form.language}, not none (detect)`);
      check(form['stream_options[include_usage]'] === 'true', `the upload's stream options are ${JSON.stringify(form)}`);
      check(
        form.file?.filename === audioFile && form.file?.size === audio.length,
        `the upload's file is ${JSON.stringify(form.file)}, not ${audioFile} (${audio.length} bytes)`,
      );
      await shot('transcript document');
      await closeTranscript(page, audioFile);
    },
  },
  {
    name: 'Explorer → Cadenza → Transcribe with Options…: pick Whisper and English',
    async run({ page, emulator, audioFile, shot }) {
      const transcript = 'Transcribed with the options the pickers gave.';
      emulator.scriptTranscript(transcript);
      const before = emulator.requests.length;
      await runFromExplorer(page, audioFile, 'Transcribe with Options\u2026');

      // First picker: the transcription models from the live list.
      const picker = quickInput(page);
      await waitForText(picker.locator('.quick-input-title, .quick-input-header'), /transcription model/i);
      // Each row's first label is the model id (its detail line is a label too).
      const models = await picker
        .locator('.quick-input-list .monaco-list-row')
        .evaluateAll((rows) => rows.map((row) => row.querySelector('.label-name')?.textContent ?? ''));
      const expected = emulator.models.filter((model) => model.kind === 'speechToText' || model.kind === 'audioInstruct').map((model) => model.id);
      check(
        expected.every((id) => models.some((label) => label.trim() === id)) && models.length === expected.length,
        `the model picker lists ${JSON.stringify(models)}, not the transcription models ${JSON.stringify(expected)}`,
      );
      await shot('model picker');
      await pickQuickItem(page, transcriptionModel);

      // Second picker: the language spoken; typed, as a user would.
      await waitForText(picker.locator('.quick-input-title, .quick-input-header'), /Language spoken/i);
      await pickQuickItem(page, 'English', 'English', () => shot('language picker'));

      const lines = await transcriptDocument(page, audioFile, transcript);
      const heading = lines.slice(0, 7);
      for (const line of [`- Model: ${transcriptionModel}`, '- Language: en'])
        check(heading.includes(line), `the heading lacks "${line}": ${JSON.stringify(heading)}`);
      const uploads = emulator.requests.slice(before).filter((request) => request.path === '/v1/audio/transcriptions');
      check(
        uploads.length === 1 && uploads[0].body.language === 'en' && uploads[0].body.model === transcriptionModel,
        `the upload was ${JSON.stringify(uploads.map((u) => u.body))}`,
      );
      await shot('transcript document');
      await closeTranscript(page, audioFile);
    },
  },
  {
    name: 'Command palette → Translate Audio: the file dialog, then (the set model unlisted) the warning and the model picker; the translation streams into a document',
    async run({ page, emulator, workspace, audioFile, shot }) {
      await setApiKey(page, emulator.key);
      const unlisted = 'Whisper-Tiny-Retired';
      const translation = 'Good morning. The dog plays with the ball in the garden.';
      emulator.scriptTranscript(translation);
      const before = emulator.requests.length;
      const audio = fs.readFileSync(path.join(workspace, audioFile));
      try {
        // A model the service no longer lists, set the way a user sets it: in the Settings editor.
        await setTextSetting(page, 'cadenza.audio.transcriptionModel', unlisted);
        // From the palette no file is given: VS Code's own open dialog asks for it.
        await runCommand(page, 'Cadenza: Translate Audio');
        await chooseInFileDialog(page, workspace, audioFile, () => shot('file dialog'));

        // The setting names no listed model: a warning says so, and the model picker asks for one for now.
        const warning = page.locator('.notifications-toasts .notification-toast', { hasText: `cadenza.audio.transcriptionModel is ${unlisted}` });
        await warning.waitFor({ timeout: 30_000 });
        const picker = quickInput(page);
        await waitForText(picker.locator('.quick-input-title, .quick-input-header'), /transcription model/i, 30_000);
        const models = await picker
          .locator('.quick-input-list .monaco-list-row')
          .evaluateAll((rows) => rows.map((row) => row.querySelector('.label-name')?.textContent?.trim() ?? ''));
        const expected = emulator.models.filter((model) => model.kind === 'speechToText' || model.kind === 'audioInstruct').map((model) => model.id);
        check(
          models.length === expected.length && expected.every((id) => models.includes(id)) && !models.includes(unlisted),
          `the model picker lists ${JSON.stringify(models)}, not the transcription models ${JSON.stringify(expected)}`,
        );
        await pickQuickItem(page, transcriptionModel, transcriptionModel, () => shot('warning and model picker'));

        // The translation streams into its own document, headed as a translation.
        const lines = await transcriptDocument(page, audioFile, translation, 'Translation');
        check(lines[0] === `# Translation: ${audioFile}`, `the heading is ${JSON.stringify(lines[0])}`);
        check(lines.slice(0, 7).includes(`- Model: ${transcriptionModel}`), `the heading lacks the model: ${JSON.stringify(lines.slice(0, 7))}`);
        const cut = lines.findIndex((line) => line.startsWith('- Cost:'));
        const bodyText = lines
          .slice(cut + 1)
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim();
        check(bodyText === translation, `the document's text after the heading is not the translation: ${JSON.stringify(bodyText)}`);

        // What the emulator saw: one upload to the translation endpoint, the picked model, the whole file, nothing transcribed.
        const sent = emulator.requests.slice(before).filter((request) => request.path.startsWith('/v1/audio/'));
        check(sent.length === 1 && sent[0].path === '/v1/audio/translations', `the audio requests were ${JSON.stringify(sent.map((request) => request.path))}`);
        const form = sent[0].body;
        check(form.model === transcriptionModel, `the upload asked for ${form.model}`);
        check(
          form.file?.filename === audioFile && form.file?.size === audio.length,
          `the upload's file is ${JSON.stringify(form.file)}, not ${audioFile} (${audio.length} bytes)`,
        );
        await shot('translation document');
        await closeTranscript(page, audioFile, 'Translation');
      } finally {
        await closeQuickInput(page);
        await setTextSetting(page, 'cadenza.audio.transcriptionModel', '').catch(() => undefined);
      }
    },
  },
];
