/**
 * The rendered body of a message, updated incrementally while it streams.
 *
 * - Deltas are buffered and applied at most once per animation frame, and at most every
 *   `minIntervalMs` (and less often when rendering is slow: each render is followed by a pause a
 *   few times its cost), which bounds the main-thread share streaming takes.
 * - Finished top-level blocks are rendered once, batched, and appended into chunks of a few blocks
 *   (`.md-chunk`, which CSS lets the browser skip while off screen); only the open last block is
 *   re-rendered.
 * - A backlog (many deltas at once, or the end of a fast stream) is rendered in slices of about
 *   `sliceMs` a frame, so no frame is long.
 * - Nothing is rendered while a pointer is pressed inside the body: a press on a code block's Copy
 *   (or a drag selecting text) would otherwise end on a block rendered again meanwhile, and the browser
 *   sends the click to no button (the one pressed is gone). Text keeps arriving; it shows on release.
 */
import { BlockSplitter, hasReferenceDefinitions } from './blockSplitter';
import { renderCode, renderMarkdown } from './markdown';

/** An unclosed code fence longer than this is shown unhighlighted until it closes. */
const highlightOpenFenceLimit = 16_000;
/** After a render that took `t` ms, the next one waits at least `t * renderPause` ms more. */
const renderPause = 2;
const maxPauseMs = 250;
/** Streamed text is shown at most this often (the first delta at once). */
const minIntervalMs = 100;
/** How long one frame may spend on a backlog of finished blocks. */
const sliceMs = 8;
/** At most this much Markdown goes into one render call while working through a backlog. */
const batchChars = 1_500;
/** Blocks per chunk element. */
const chunkBlocks = 12;

/** How a body shows its text: as Markdown, or as one JSON code block (JSON mode answers). */
export type BodyKind = 'markdown' | 'json';

/** A message body that can be set whole or streamed into. */
export class MarkdownBody {
  /** The element holding the rendered content. */
  readonly element: HTMLDivElement = document.createElement('div');
  private splitter = new BlockSplitter();
  private renderedBlocks = 0;
  private chunk: HTMLElement | undefined;
  private blocksInChunk = 0;
  private openNodes: ChildNode[] = [];
  private pending = '';
  private frame: number | undefined;
  private timer: number | undefined;
  private notBefore = 0;
  private finished = false;
  private jsonText: Text | undefined;
  /** A pointer is pressed inside the body; `heldBack` when a render waits for its release. */
  private pressed = false;
  private heldBack = false;

  constructor(private kind: BodyKind) {
    this.element.className = 'markdown';
    this.element.addEventListener('pointerdown', () => this.press());
  }

  /** All text received so far, including text not yet rendered. */
  get text(): string {
    return this.splitter.fullText + this.pending;
  }

  /** Replaces the content with a finished text, rendered whole now. */
  setText(text: string, kind: BodyKind = this.kind): void {
    this.reset();
    this.kind = kind;
    this.splitter.append(text);
    this.splitter.finish();
    this.finished = true;
    this.renderWhole();
  }

  /** Replaces the content with the start of a text that is still streaming. */
  restart(text: string): void {
    this.reset();
    this.append(text);
  }

  /** Appends streamed text; it appears on a coming animation frame. */
  append(text: string): void {
    if (text === '' || this.finished) return;
    this.pending += text;
    this.schedule();
  }

  /** Ends streaming: what is left is rendered over the next frames and the last block closes. */
  finish(): void {
    if (this.finished) return;
    this.splitter.append(this.pending);
    this.pending = '';
    this.splitter.finish();
    this.finished = true;
    if (this.kind === 'json') {
      this.renderWhole();
      return;
    }
    this.notBefore = 0;
    this.schedule();
  }

  /** Stops pending work (the message is being removed or replaced). */
  dispose(): void {
    this.cancel();
  }

  private reset(): void {
    this.cancel();
    this.splitter = new BlockSplitter();
    this.renderedBlocks = 0;
    this.chunk = undefined;
    this.blocksInChunk = 0;
    this.openNodes = [];
    this.pending = '';
    this.finished = false;
    this.notBefore = 0;
    this.jsonText = undefined;
    this.element.replaceChildren();
  }

  private cancel(): void {
    this.heldBack = false;
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    this.frame = undefined;
    this.timer = undefined;
  }

  /** Asks for a frame, after the pause the last render earned. */
  private schedule(): void {
    if (this.frame !== undefined || this.timer !== undefined) return;
    const wait = this.notBefore - performance.now();
    if (wait > 20) {
      // Wait with a timer rather than spinning on animation frames.
      this.timer = window.setTimeout(() => {
        this.timer = undefined;
        this.frame = requestAnimationFrame(() => this.tick());
      }, wait - 10);
      return;
    }
    this.frame = requestAnimationFrame(() => this.tick());
  }

  private press(): void {
    if (this.pressed) return;
    this.pressed = true;
    // The release can happen anywhere (the pointer may leave the panel); the click, if any, is
    // dispatched right after it, before the frame the held render waits for.
    const release = (): void => {
      window.removeEventListener('pointerup', release, true);
      window.removeEventListener('pointercancel', release, true);
      this.pressed = false;
      if (!this.heldBack) return;
      this.heldBack = false;
      this.schedule();
    };
    window.addEventListener('pointerup', release, true);
    window.addEventListener('pointercancel', release, true);
  }

  private tick(): void {
    this.frame = undefined;
    if (this.pressed) {
      this.heldBack = true;
      return;
    }
    const started = performance.now();
    const chunk = this.pending;
    this.pending = '';
    this.splitter.append(chunk);
    let caughtUp = true;
    if (this.kind === 'json') this.appendJson(chunk);
    else caughtUp = this.renderIncrement(started + sliceMs);
    const cost = performance.now() - started;
    if (!caughtUp) {
      this.schedule();
      return;
    }
    this.notBefore = started + Math.max(minIntervalMs, cost + Math.min(maxPauseMs, cost * renderPause));
    if (this.pending !== '') this.schedule();
    else if (this.finished && hasReferenceDefinitions(this.splitter.fullText)) this.renderWhole();
  }

  /** JSON answers stream as plain text into one code block; they are pretty-printed at the end. */
  private appendJson(chunk: string): void {
    if (!this.jsonText) {
      this.element.replaceChildren(renderCode('', 'json', false));
      this.jsonText = document.createTextNode('');
      this.element.querySelector('pre > code')?.append(this.jsonText);
    }
    this.jsonText.appendData(chunk);
  }

  private renderWhole(): void {
    this.cancel();
    this.element.replaceChildren();
    this.openNodes = [];
    this.chunk = undefined;
    this.blocksInChunk = 0;
    this.renderedBlocks = 0;
    if (this.kind === 'json') {
      this.element.append(renderCode(prettyJson(this.splitter.fullText), 'json', true));
      this.renderedBlocks = this.splitter.blocks.length;
    } else if (hasReferenceDefinitions(this.splitter.fullText)) {
      // Reference links resolve only within one render.
      this.element.append(renderMarkdown(this.splitter.fullText));
      this.renderedBlocks = this.splitter.blocks.length;
    } else {
      this.renderIncrement(Number.POSITIVE_INFINITY);
    }
  }

  /**
   * Renders newly finished blocks (until `deadline`, a `performance.now()` time) and, once there is
   * no backlog, the open block. Returns whether it caught up.
   */
  private renderIncrement(deadline: number): boolean {
    const blocks = this.splitter.blocks;
    if (this.renderedBlocks < blocks.length) {
      this.removeOpenNodes();
      do {
        // One render call per batch of consecutive blocks that go into the same chunk.
        let batch = '';
        let count = 0;
        while (this.renderedBlocks + count < blocks.length && this.blocksInChunk + count < chunkBlocks && (count === 0 || batch.length < batchChars)) {
          batch += blocks[this.renderedBlocks + count] ?? '';
          count += 1;
        }
        if (!this.chunk) {
          this.chunk = document.createElement('div');
          this.chunk.className = 'md-chunk';
          this.element.append(this.chunk);
        }
        this.chunk.append(renderMarkdown(batch));
        this.renderedBlocks += count;
        this.blocksInChunk += count;
        if (this.blocksInChunk >= chunkBlocks) {
          this.chunk = undefined;
          this.blocksInChunk = 0;
        }
      } while (this.renderedBlocks < blocks.length && performance.now() < deadline);
      if (this.renderedBlocks < blocks.length) return false;
    }
    this.removeOpenNodes();
    const open = this.renderOpenBlock();
    if (open) {
      this.openNodes = Array.from(open.childNodes);
      this.element.append(open);
    }
    return true;
  }

  private removeOpenNodes(): void {
    for (const node of this.openNodes) node.remove();
    this.openNodes = [];
  }

  private renderOpenBlock(): DocumentFragment | undefined {
    const fence = this.splitter.openFence;
    if (fence && fence.code.length > highlightOpenFenceLimit) {
      const fragment = renderMarkdown(fence.before);
      fragment.append(renderCode(fence.code, fence.info, false));
      return fragment;
    }
    const text = this.splitter.openBlock;
    return text.trim() === '' ? undefined : renderMarkdown(text);
  }
}

/** JSON text pretty-printed with two spaces, or as it came when it does not parse. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
