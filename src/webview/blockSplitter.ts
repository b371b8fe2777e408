/**
 * Splits streamed Markdown into top-level blocks as it arrives, so the panel renders each finished
 * block once and re-renders only the last, still-open one. Pure (no DOM): unit-tested in plain Node.
 *
 * A block ends at a blank line outside a fenced code block when the next line starts at column 0 and
 * does not continue a list that the block began with. Indented lines after a blank line (list item
 * continuations, indented code) stay in the same block, so splitting never changes how a block parses.
 * Only complete lines are classified; the partial last line always belongs to the open block.
 * Joining the blocks and the open block gives back the text exactly.
 */

// Lines reach these without their line ending (a CR of CRLF included).
const fenceOpen = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const fenceClose = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const listItem = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const blank = /^[ \t]*$/;

interface Fence {
  readonly char: string;
  readonly length: number;
  /** Where the line that opened the fence starts, in the open block. */
  readonly start: number;
}

/** Incrementally splits an append-only Markdown text into committed blocks and one open block. */
export class BlockSplitter {
  /**
   * The open block's text. Only it is kept as one string (the committed blocks are separate), so
   * scanning new text never copies the whole answer.
   */
  private open = '';
  /** Where the first line not yet classified starts, in the open block. */
  private scanned = 0;
  private fence: Fence | undefined;
  private previousBlank = false;
  private openHasContent = false;
  private openIsList = false;
  private readonly committedBlocks: string[] = [];

  /** The blocks that are finished and will not change. */
  get blocks(): readonly string[] {
    return this.committedBlocks;
  }

  /** The text of the block still being written (may be empty). */
  get openBlock(): string {
    return this.open;
  }

  /** The whole text so far. */
  get fullText(): string {
    return this.committedBlocks.join('') + this.open;
  }

  /** Whether the open block is inside a fenced code block that has not been closed yet. */
  get inFence(): boolean {
    return this.fence !== undefined;
  }

  /**
   * When the open block ends in an unclosed fence: the Markdown before the fence, the fence's info
   * string and the code so far (complete lines and the partial last one). Otherwise undefined.
   */
  get openFence(): { readonly before: string; readonly info: string; readonly code: string } | undefined {
    if (!this.fence) return undefined;
    const lineEnd = this.open.indexOf('\n', this.fence.start);
    if (lineEnd === -1) return undefined;
    const fenceLine = this.open.slice(this.fence.start, lineEnd);
    const info = (fenceOpen.exec(fenceLine)?.[2] ?? '').trim().split(/\s+/)[0] ?? '';
    return { before: this.open.slice(0, this.fence.start), info, code: this.open.slice(lineEnd + 1) };
  }

  /** Appends streamed text; returns how many blocks became committed because of it. */
  append(chunk: string): number {
    if (chunk === '') return 0;
    const before = this.committedBlocks.length;
    this.open += chunk;
    let newline = this.open.indexOf('\n', this.scanned);
    while (newline !== -1) {
      const line = this.open.slice(this.scanned, newline);
      const start = this.scanned;
      this.scanned = newline + 1;
      this.classify(line.endsWith('\r') ? line.slice(0, -1) : line, start);
      newline = this.open.indexOf('\n', this.scanned);
    }
    return this.committedBlocks.length - before;
  }

  /** Ends the stream: the last line is complete now, and the open block (if it has content) is committed. */
  finish(): void {
    if (this.scanned < this.open.length) {
      const line = this.open.slice(this.scanned);
      this.scanned = this.open.length;
      this.classify(line.endsWith('\r') ? line.slice(0, -1) : line, this.open.length - line.length);
    }
    if (this.open.trim() !== '') this.committedBlocks.push(this.open);
    else if (this.open !== '' && this.committedBlocks.length > 0) {
      // Trailing blank lines belong to the last block, so the blocks still join to the whole text.
      this.committedBlocks[this.committedBlocks.length - 1] += this.open;
    }
    this.open = '';
    this.scanned = 0;
    this.fence = undefined;
    this.openHasContent = false;
    this.openIsList = false;
    this.previousBlank = false;
  }

  /** Classifies the complete line that starts at `start` in the open block. */
  private classify(line: string, start: number): void {
    if (this.fence) {
      const close = fenceClose.exec(line)?.[1];
      if (close !== undefined && close.charAt(0) === this.fence.char && close.length >= this.fence.length) this.fence = undefined;
      return;
    }
    if (blank.test(line)) {
      this.previousBlank = this.openHasContent;
      return;
    }
    const isList = listItem.test(line);
    let lineStart = start;
    if (!this.openHasContent) {
      this.openHasContent = true;
      this.openIsList = isList;
    } else if (this.previousBlank && !/^[ \t]/.test(line) && !(this.openIsList && isList)) {
      this.committedBlocks.push(this.open.slice(0, start));
      this.open = this.open.slice(start);
      this.scanned -= start;
      lineStart = 0;
      this.openIsList = isList;
    }
    this.previousBlank = false;
    const open = fenceOpen.exec(line);
    const marker = open?.[1];
    // A backtick fence's info string may not contain a backtick (CommonMark 4.5).
    if (marker && !(marker.startsWith('`') && (open[2] ?? '').includes('`'))) {
      this.fence = { char: marker.charAt(0), length: marker.length, start: lineStart };
    }
  }
}

/** Whether a text has reference-style link definitions, which only resolve when rendered whole. */
export function hasReferenceDefinitions(text: string): boolean {
  return /^ {0,3}\[[^\]\n]+\]:\s*\S/m.test(text);
}
