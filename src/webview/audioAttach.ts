/**
 * Audio in the composer. "Attach audio" asks the host for a file (`audio/pick`, offered only when the
 * selected model reasons about audio); the host answers with `composer/audio`, and the chip shows the
 * name, duration and size with a remove button. The audio itself stays in the host: the panel keeps only
 * the token that `chat/send` names it by. "Transcribe audio into the prompt" (`audio/transcribeIntoPrompt`,
 * offered while the service lists a transcription model) puts a transcript at the caret instead.
 */
import type { AudioAttachment, FromWebview } from '../shared/protocol';
import { button, el, setDisabled, show } from './dom';
import { formatDuration } from './format';
import { icon } from './icons';
import { formatBytes } from './imageRules';
import { t } from './l10n';

const attachTitle = t('attachAudio');
const transcribeTitle = t('transcribeAudio');

/** The two audio buttons and the attached file's chip. */
export class AudioAttach {
  /** "Attach audio", for the composer's toolbar. */
  readonly button: HTMLButtonElement;
  /** "Transcribe audio into the prompt", for the composer's toolbar. */
  readonly transcribeButton: HTMLButtonElement;
  /** The chip, shown above the text box while audio is attached. */
  readonly chip = el('div', { className: 'audio-chip', attrs: { role: 'group', 'aria-label': t('attachedAudio') } });
  private current: AudioAttachment | undefined;
  private allowed = false;
  private reason = t('loadingModels');

  constructor(
    post: (message: FromWebview) => void,
    private readonly onChange: () => void,
  ) {
    this.button = button({ label: attachTitle, icon: 'audio', onClick: () => post({ type: 'audio/pick' }) });
    this.transcribeButton = button({ label: transcribeTitle, icon: 'mic', onClick: () => post({ type: 'audio/transcribeIntoPrompt' }) });
    setDisabled(this.button, true, this.reason, attachTitle);
    setDisabled(this.transcribeButton, true, this.reason, transcribeTitle);
    show(this.chip, false);
  }

  /** The attached audio, if any. */
  get audio(): AudioAttachment | undefined {
    return this.current;
  }

  /** Why the attached audio cannot be sent with the selected model, or undefined. */
  get problem(): string | undefined {
    return this.current && !this.allowed ? t('removeAudioOrModel', { reason: this.reason }) : undefined;
  }

  /** Whether the selected model reasons about audio; `reason` says why not. */
  setAllowed(allowed: boolean, reason: string): void {
    this.allowed = allowed;
    this.reason = reason;
    setDisabled(this.button, !allowed, reason, attachTitle);
    this.render();
  }

  /** Whether the service lists a model that transcribes; `reason` says why not. */
  setTranscribeAllowed(allowed: boolean, reason: string): void {
    setDisabled(this.transcribeButton, !allowed, reason, transcribeTitle);
  }

  /** The host picked and checked a file (`composer/audio`); it replaces any audio attached before. */
  accept(audio: AudioAttachment): void {
    this.current = audio;
    this.render();
    this.onChange();
  }

  /** Removes the audio (after sending, or when the user removes it). */
  clear(): void {
    if (!this.current) return;
    const hadFocus = this.chip.contains(document.activeElement);
    this.current = undefined;
    this.render();
    this.onChange();
    if (hadFocus && !this.button.disabled) this.button.focus();
  }

  private render(): void {
    const audio = this.current;
    show(this.chip, audio !== undefined);
    if (!audio) {
      this.chip.replaceChildren();
      return;
    }
    const facts = `${formatDuration(audio.seconds * 1000)} \u00b7 ${formatBytes(audio.bytes)}`;
    // The name may be cut short in a narrow panel; the tooltip has it whole.
    const label = el(
      'span',
      { className: 'audio-chip-label', attrs: { title: `${audio.name} (${facts})` } },
      el('span', { className: 'audio-chip-name', text: audio.name }),
      el('span', { className: 'audio-chip-facts', text: facts }),
    );
    const remove = button({ label: t('removeAudio', { name: audio.name }), icon: 'close', onClick: () => this.clear() });
    this.chip.replaceChildren(icon('audio'), label, remove);
    const problem = this.problem;
    if (problem) this.chip.append(el('p', { className: 'audio-problem', text: problem }));
  }
}
