// Reasoning that arrives inside the answer's content: DeepSeek-R1-style models open their content with
// `<think>` and stream their thinking until `</think>`, then the answer (docs/service.md#reasoning).
// The splitter routes the pieces as they arrive, with tags that may be cut across chunks, and holds back
// only the few characters that could still be the start of a tag.

const OPEN = '<think>';
const CLOSE = '</think>';

/** What one piece of content turned out to be. */
export interface SplitPiece {
  readonly kind: 'reasoning' | 'text';
  readonly text: string;
}

type State = 'start' | 'thinking' | 'answer';

/** The longest suffix of `text` that is a proper prefix of `tag` (what might still become the tag). */
function partialTagAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

/**
 * Splits streamed content into reasoning and answer text. Only a `<think>` at the very start of the
 * content (after whitespace) opens thinking: a model that writes about the tag later in its answer is
 * not taken for thinking. After `</think>` everything is answer text.
 */
export class ThinkTagSplitter {
  private state: State = 'start';
  private held = '';
  /** Right after `</think>`: the blank line before the answer is layout, dropped. */
  private trimNext = false;

  /** Routes one content piece; returns what can be handed on now. */
  push(piece: string): SplitPiece[] {
    const out: SplitPiece[] = [];
    let text = this.held + piece;
    this.held = '';
    if (this.state === 'start') {
      const trimmed = text.trimStart();
      if (trimmed.startsWith(OPEN)) {
        this.state = 'thinking';
        text = trimmed.slice(OPEN.length);
      } else if (OPEN.startsWith(trimmed)) {
        // Whitespace or a tag cut short: wait for more before deciding.
        this.held = text;
        return out;
      } else {
        this.state = 'answer';
      }
    }
    if (this.state === 'thinking') {
      const end = text.indexOf(CLOSE);
      if (end === -1) {
        const keep = partialTagAtEnd(text, CLOSE);
        const thought = text.slice(0, text.length - keep);
        this.held = text.slice(text.length - keep);
        if (thought !== '') out.push({ kind: 'reasoning', text: thought });
        return out;
      }
      const thought = text.slice(0, end);
      if (thought !== '') out.push({ kind: 'reasoning', text: thought });
      this.state = 'answer';
      // The answer usually starts after a blank line; that is layout, not answer text.
      text = text.slice(end + CLOSE.length).replace(/^\s+/, '');
      if (text === '') {
        this.trimNext = true;
        return out;
      }
    } else if (this.trimNext) {
      text = text.replace(/^\s+/, '');
      if (text === '') return out;
    }
    this.trimNext = false;
    if (text !== '') out.push({ kind: 'text', text });
    return out;
  }

  /** What is still held when the stream ends (an unfinished tag is text after all, or thinking cut off). */
  flush(): SplitPiece[] {
    const rest = this.held;
    this.held = '';
    if (rest === '') return [];
    if (this.state === 'thinking') return [{ kind: 'reasoning', text: rest }];
    return [{ kind: 'text', text: rest }];
  }

  /** True while the model is still inside `<think>`. */
  get thinking(): boolean {
    return this.state === 'thinking';
  }
}
