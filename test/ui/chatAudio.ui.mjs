// Audio in the chat panel, used as a person would: pick the audio model in the panel, attach a recording
// through VS Code's own file dialog, see its chip, ask about it and watch the answer stream in; then
// "Transcribe audio into the prompt" puts a transcript at the caret. The recording is the real speech WAV
// that runUi.mjs puts at the workspace root; answers and transcripts are scripted in the emulator, and what
// it received is checked.
import fs from 'node:fs';
import path from 'node:path';
import { check, chooseInFileDialog, quickInput, runCommand, setApiKey, waitForText, waitUntil, wavSeconds } from './actions.mjs';
import { composer, modelSelect, userMessages, answers } from './panel.mjs';

const audioModel = 'Qwen2-Audio-7B-Instruct';
const textModel = 'Meta-Llama-3.3-70B-Instruct';
const transcriptionModel = 'Whisper-Large-v3';

const attachButton = (webview) => webview.getByRole('button', { name: 'Attach audio', exact: true });
const transcribeButton = (webview) => webview.getByRole('button', { name: 'Transcribe audio into the prompt' });
const audioChip = (webview) => webview.getByRole('group', { name: 'Attached audio' });

/** How the panel writes a duration under a minute and a size: `3.2 s`, `101.4 KB` (format.ts, imageRules.ts). */
const shownSeconds = (seconds) => `${seconds.toFixed(1).replace(/\.0$/, '')} s`;
const shownBytes = (bytes) => (bytes < 1024 ? `${bytes} B` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`);

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: `chat panel: pick ${audioModel}, attach a recording through the file dialog, ask about it, the answer streams in`,
    async run({ page, webview, emulator, workspace, audioFile, shot }) {
      await setApiKey(page, emulator.key);
      if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
      await runCommand(page, 'Cadenza: Open Chat');
      await composer(webview).waitFor({ timeout: 30_000 });
      await webview.getByRole('button', { name: 'New chat' }).click();
      await waitUntil(async () => (await userMessages(webview).count()) === 0, 'a new, empty conversation');

      // With a text-only model the button is disabled and its tooltip says why.
      await waitUntil(
        async () => (await modelSelect(webview).locator('option', { hasText: audioModel }).count()) === 1,
        `${audioModel} in the panel's model list`,
        20_000,
      );
      await modelSelect(webview).selectOption(textModel);
      await waitUntil(async () => attachButton(webview).isDisabled(), `Attach audio to be disabled for ${textModel}`);
      const why = await attachButton(webview).getAttribute('title');
      check(why === `${textModel} cannot listen to audio. Pick a model with audio reasoning to attach audio.`, `the disabled button's tooltip says ${why}`);
      await modelSelect(webview).selectOption(audioModel);
      await waitUntil(async () => !(await attachButton(webview).isDisabled()), `Attach audio to be enabled for ${audioModel}`);
      check((await attachButton(webview).getAttribute('title')) === 'Attach audio', 'the enabled button is not titled "Attach audio"');

      await attachButton(webview).click();
      await chooseInFileDialog(page, workspace, audioFile, () => shot('file dialog'));

      const audio = fs.readFileSync(path.join(workspace, audioFile));
      const chip = audioChip(webview);
      await chip.waitFor({ timeout: 15_000 });
      const chipText = await waitForText(chip, new RegExp(audioFile.replace(/[.]/g, '\\.')));
      const facts = `${shownSeconds(wavSeconds(audio))} · ${shownBytes(audio.length)}`;
      check(chipText.includes(facts), `the chip says ${JSON.stringify(chipText)}, not the duration and size ${facts}`);
      check(await chip.getByRole('button', { name: `Remove the audio ${audioFile}` }).isVisible(), 'the chip has no remove button');
      await shot('audio chip');

      const question = 'What is said in this recording, and in which language?';
      const answer = 'A voice reads a short English test sentence: "Hello from the Cadenza test recording." The language is English.';
      emulator.scriptChat({ content: answer, chunkCount: 30 });
      emulator.setChunkDelay(60);
      const before = emulator.requests.length;
      try {
        const box = composer(webview);
        await box.click();
        await box.pressSequentially(question, { delay: 2 });
        await box.press('Enter');
        await waitUntil(async () => (await userMessages(webview).count()) === 1, 'the question to appear in the conversation');
        await waitUntil(async () => !(await chip.isVisible()), 'the chip to leave the composer once the message is sent');
        const sent = userMessages(webview).last();
        check(await sent.getByRole('img', { name: `Attached audio ${audioFile}` }).isVisible(), 'the sent message does not show its audio');
        const reply = answers(webview).last();
        await waitUntil(async () => ((await reply.locator('.markdown').textContent()) ?? '').includes('A voice reads'), 'the answer to start streaming');
        await waitUntil(async () => (await reply.getAttribute('aria-busy')) === 'false', 'the answer to finish', 30_000);
        const text = (await reply.locator('.markdown').textContent()) ?? '';
        check(text.replace(/\s+/g, ' ').trim() === answer, `the answer shows ${JSON.stringify(text)}`);
        check(
          (await reply.getAttribute('aria-label')) === `Answer from ${audioModel}, Act mode`,
          `the answer is labelled ${await reply.getAttribute('aria-label')}`,
        );
      } finally {
        emulator.setChunkDelay(0);
      }

      // What went over the wire: one audio-reasoning request with the whole file inline and the question.
      const requests = emulator.requests.slice(before);
      const reasoning = requests.filter((request) => request.path === '/v1/audio/reasoning');
      check(reasoning.length === 1, `expected 1 audio-reasoning request, the emulator received ${reasoning.length}`);
      check(!requests.some((request) => request.path === '/v1/chat/completions'), 'the question also went to chat completions');
      const body = JSON.stringify(reasoning[0].body);
      check(reasoning[0].body.model === audioModel, `the request asked for ${reasoning[0].body.model}`);
      check(body.includes(`"content":"data:audio/wav;base64,${audio.toString('base64')}"`), 'the request does not carry the attached file as a data URL');
      check(body.includes(question), 'the request does not carry the question');
      await shot('answer about the audio');
    },
  },
  {
    name: 'chat panel: "Transcribe audio into the prompt" puts the transcript at the caret',
    async run({ page, webview, emulator, workspace, audioFile, shot }) {
      const transcript = 'Hello from the Cadenza test recording.';
      emulator.scriptTranscript(transcript);
      const before = emulator.requests.length;
      const box = composer(webview);
      await box.click();
      await box.pressSequentially('Summarise this:', { delay: 2 });
      check(!(await transcribeButton(webview).isDisabled()), 'the transcribe button is disabled although the service lists transcription models');
      await transcribeButton(webview).click();
      await chooseInFileDialog(page, workspace, audioFile);

      // Nothing is asked: the last transcription model and language, else the defaults (the first
      // speech-to-text model, the language detected).
      const outcome = await waitUntil(
        async () => {
          if ((await box.inputValue()).includes(transcript)) return 'inserted';
          if (await quickInput(page).isVisible()) return 'asked';
          return undefined;
        },
        'the transcript in the composer',
        30_000,
      );
      check(outcome === 'inserted', 'a picker asked for the transcription model or language although defaults exist');
      await waitUntil(async () => (await box.inputValue()) === `Summarise this: ${transcript}`, 'the transcript after the typed text', 30_000);
      const uploads = emulator.requests.slice(before).filter((request) => request.path === '/v1/audio/transcriptions');
      check(uploads.length === 1, `expected 1 transcription request, got ${uploads.length}`);
      check(uploads[0].body.file?.filename === audioFile, `the upload's file is ${JSON.stringify(uploads[0].body.file)}`);
      check(uploads[0].body.model === transcriptionModel, `the upload asked for ${uploads[0].body.model}`);
      await shot('transcript in the composer');
      // Leave an empty composer (the draft is kept across reloads).
      await box.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await waitUntil(async () => (await box.inputValue()) === '', 'the composer to be emptied');
    },
  },
];
