/**
 * The text a terminal shows for a command's raw output, as the `@terminal` mention gives it to the
 * model: escape sequences (colours, OSC titles, VS Code's shell-integration marks `ESC ] 633 ; ... BEL`)
 * are dropped, and the line edits programs make with them are applied, so a progress line that redraws
 * itself with `\r` (and `ESC [ K`) is its last state, not every state it went through.
 *
 * Output arrives in chunks that can split anywhere, even inside an escape sequence or between `\r` and
 * `\n`; an unfinished sequence waits for the next chunk. Lines are edited in place (`\r`, backspace,
 * erase in line, cursor to a column); moves to other lines (cursor up, whole-screen redraws) are not
 * followed: their text lands on the line being written.
 */

/** A complete escape sequence at the start of a string, with its parts. */
// eslint-disable-next-line no-control-regex
const sequence = /^\u001b(?:\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\[([0-?]*)[ -/]*([@-~])|[ -/]*[0-Z\\^-~])/;
/** An escape sequence that may still be completed by the next chunk. */
// eslint-disable-next-line no-control-regex
const unfinished = /^\u001b(?:\][^\u0007\u001b]*\u001b?|\[[0-?]*[ -/]*|[ -/]*)$/;

/** A command's output as the terminal shows it, kept to its last `maxChars` characters. */
export class TerminalText {
  private readonly done: string[] = [];
  private doneChars = 0;
  private line: string[] = [];
  private column = 0;
  private carry = '';
  private wasCut = false;

  constructor(private readonly maxChars: number) {}

  /** Whether the start of the output was dropped to keep its end. */
  get cut(): boolean {
    return this.wasCut;
  }

  /** The output so far: finished lines and the line being written, without a final empty line. */
  get text(): string {
    const current = this.line.join('').trimEnd();
    const lines = current === '' ? this.done : [...this.done, current];
    return lines.join('\n');
  }

  /** Adds a chunk of raw output. */
  write(data: string): void {
    const input = this.carry + data;
    this.carry = '';
    let index = 0;
    while (index < input.length) {
      const char = input[index] ?? '';
      if (char === '\u001b') {
        const rest = input.slice(index);
        const match = sequence.exec(rest);
        if (match) {
          if (match[2] !== undefined) this.control(match[2], match[1] ?? '');
          index += match[0].length;
          continue;
        }
        if (unfinished.test(rest)) {
          this.carry = rest;
          return;
        }
        index += 1; // A lone ESC that starts nothing known.
        continue;
      }
      index += 1;
      if (char === '\n') this.newLine();
      else if (char === '\r') this.column = 0;
      else if (char === '\b') this.column = Math.max(0, this.column - 1);
      else if (char === '\t') this.put(' '.repeat(8 - (this.column % 8)));
      else if (char >= ' ' && char !== '\u007f') this.put(char);
      // Other control characters (BEL, shift in and out) show nothing.
    }
  }

  /** Writes text at the cursor, over what is there. */
  private put(text: string): void {
    for (const char of text) {
      while (this.line.length < this.column) this.line.push(' ');
      this.line[this.column] = char;
      this.column += 1;
    }
    // One endless line (minified output, a log without newlines) keeps its end too.
    if (this.line.length > 2 * this.maxChars) {
      const drop = this.line.length - this.maxChars;
      this.line.splice(0, drop);
      this.column = Math.max(0, this.column - drop);
      this.wasCut = true;
    }
  }

  /** The line edits of a CSI sequence; every other sequence (colours, modes, moves) shows nothing. */
  private control(final: string, parameters: string): void {
    const first = Number.parseInt(parameters, 10);
    const n = Number.isNaN(first) ? 0 : first;
    switch (final) {
      case 'K': // Erase in line: 0 to its end, 1 to the cursor, 2 all of it.
        if (n === 0) this.line.length = Math.min(this.line.length, this.column);
        else if (n === 1) this.line.fill(' ', 0, Math.min(this.line.length, this.column + 1));
        else if (n === 2) this.line = [];
        return;
      case 'G': // Cursor to column n (1-based).
        this.column = Math.max(0, n - 1);
        return;
      case 'C': // Cursor forward.
        this.column += Math.max(1, n);
        return;
      case 'D': // Cursor back.
        this.column = Math.max(0, this.column - Math.max(1, n));
        return;
      default:
        return;
    }
  }

  private newLine(): void {
    const text = this.line.join('').trimEnd();
    this.done.push(text);
    this.doneChars += text.length + 1;
    this.line = [];
    this.column = 0;
    while (this.doneChars > this.maxChars && this.done.length > 0) {
      this.doneChars -= (this.done.shift() ?? '').length + 1;
      this.wasCut = true;
    }
  }
}
