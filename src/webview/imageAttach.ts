/**
 * One image per message: attach with the button (the host's file picker), by dropping a file on the
 * composer, or by pasting. Dropped and pasted files are checked here (type, size), read as a data
 * URL and sent to the host with `image/check`; the host answers with `composer/image` or a notice.
 * Only offered when the selected model can read images.
 */
import type { FromWebview, ImageAttachment } from '../shared/protocol';
import { button, el, setDisabled, show } from './dom';
import { formatBytes, imageProblem } from './imageRules';
import { t } from './l10n';

/** What the attachment needs from the panel. */
export interface ImageAttachDeps {
  readonly post: (message: FromWebview) => void;
  /** Reports a problem found before the host was asked. */
  readonly warn: (text: string) => void;
  readonly onChange: () => void;
}

const enabledTitle = t('attachImage');

/** The attach button, the preview with its remove button, and the drop/paste handling. */
export class ImageAttach {
  /** The attach button, for the composer's toolbar. */
  readonly button: HTMLButtonElement;
  /** The preview, shown above the text box while an image is attached. */
  readonly preview = el('div', { className: 'image-preview' });
  private current: ImageAttachment | undefined;
  private allowed = false;
  private reason = t('loadingModels');
  private checking = false;

  constructor(private readonly deps: ImageAttachDeps) {
    this.button = button({ label: enabledTitle, icon: 'image', onClick: () => this.deps.post({ type: 'image/pick' }) });
    show(this.preview, false);
  }

  /** The attached image, if any. */
  get image(): ImageAttachment | undefined {
    return this.current;
  }

  /** Why the image cannot be sent with the selected model, or undefined. */
  get problem(): string | undefined {
    return this.current && !this.allowed ? t('removeImageOrModel', { reason: this.reason }) : undefined;
  }

  /** Whether the selected model can read images; `reason` says why not. */
  setAllowed(allowed: boolean, reason: string): void {
    this.allowed = allowed;
    this.reason = reason;
    setDisabled(this.button, !allowed, reason, enabledTitle);
    this.render();
  }

  /** The host accepted an image (picked, or checked after a drop or paste). */
  accept(image: ImageAttachment): void {
    this.checking = false;
    this.current = image;
    this.render();
    this.deps.onChange();
  }

  /** The host rejected the image it was asked to check (it sent a notice saying why). */
  rejected(): void {
    if (!this.checking) return;
    this.checking = false;
    this.render();
  }

  /** Removes the image (after sending, or when the user removes it). */
  clear(): void {
    this.current = undefined;
    this.checking = false;
    this.render();
    this.deps.onChange();
  }

  /** Handles files dropped or pasted: returns whether an image file was among them. */
  takeFiles(files: readonly File[]): boolean {
    const file = files.find((candidate) => candidate.type.startsWith('image/')) ?? files[0];
    if (!file) return false;
    if (!this.allowed) {
      this.deps.warn(this.reason);
      return true;
    }
    const problem = imageProblem(file.type, file.size);
    if (problem) {
      this.deps.warn(problem);
      return true;
    }
    this.checking = true;
    this.render();
    const reader = new FileReader();
    reader.addEventListener('load', () => {
      if (typeof reader.result !== 'string') return;
      this.deps.post({ type: 'image/check', image: { name: file.name || t('pastedImage'), dataUrl: reader.result, bytes: file.size } });
    });
    reader.addEventListener('error', () => {
      this.checking = false;
      this.render();
      this.deps.warn(file.name ? t('couldNotReadFile', { name: file.name }) : t('couldNotReadImage'));
    });
    reader.readAsDataURL(file);
    return true;
  }

  /** Wires drag and drop onto `target` and paste into `input`. */
  attachTo(target: HTMLElement, input: HTMLTextAreaElement): void {
    const hasFiles = (event: DragEvent): boolean => Array.from(event.dataTransfer?.types ?? []).includes('Files');
    target.addEventListener('dragover', (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = this.allowed ? 'copy' : 'none';
      target.classList.add('drop-target');
    });
    target.addEventListener('dragleave', () => target.classList.remove('drop-target'));
    target.addEventListener('drop', (event) => {
      target.classList.remove('drop-target');
      if (!hasFiles(event)) return;
      event.preventDefault();
      this.takeFiles(Array.from(event.dataTransfer?.files ?? []));
    });
    input.addEventListener('paste', (event) => {
      const files = Array.from(event.clipboardData?.files ?? []).filter((file) => file.type.startsWith('image/'));
      if (files.length > 0 && this.takeFiles(files)) event.preventDefault();
    });
  }

  private render(): void {
    const image = this.current;
    if (!image && !this.checking) {
      this.preview.replaceChildren();
      show(this.preview, false);
      return;
    }
    show(this.preview, true);
    if (!image) {
      this.preview.replaceChildren(el('span', { className: 'image-checking', text: t('checkingImage') }));
      return;
    }
    const thumbnail = el('img', { className: 'image-thumbnail', attrs: { alt: t('attachedImageNamed', { name: image.name }) } });
    thumbnail.src = image.dataUrl;
    const facts = el('span', { className: 'image-name', text: `${image.name} (${formatBytes(image.bytes)})` });
    const remove = button({ label: t('removeImage', { name: image.name }), icon: 'close', onClick: () => this.clear() });
    this.preview.replaceChildren(thumbnail, facts, remove);
    const problem = this.problem;
    if (problem) this.preview.append(el('p', { className: 'image-problem', text: problem }));
  }
}
