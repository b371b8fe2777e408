// One streamed answer's text and thinking on their way to the panel. Deltas are coalesced for two frames
// (~32 ms): every postMessage costs the webview a task, so a fast stream of thousands of deltas becomes a
// few hundred messages (bench/panel/render.mjs measures the cost). A reasoning model's thinking goes apart from
// the answer (`chat/reasoning`), coalesced the same way, and is kept with the reply, never in its text.
import type { StoredMessage } from '../conversation';
import type { PanelSink } from './answerDeps';

/** Collects and forwards the text and thinking of the answer `messageId`. */
export class ReplyCoalescer {
  private readonly parts: string[] = [];
  private pending = '';
  private readonly thoughts: string[] = [];
  private pendingThought = '';
  private thinkingFrom: number | undefined;
  private thinkingMs: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: PanelSink,
    private readonly messageId: string,
  ) {}

  /** Answer text; the first piece ends the thinking time. */
  text(text: string): void {
    if (this.thinkingFrom !== undefined) this.thinkingMs ??= Date.now() - this.thinkingFrom;
    this.parts.push(text);
    this.pending += text;
    this.timer ??= setTimeout(() => this.flush(), 32);
  }

  /** Thinking, before (or between) the answer text. */
  reasoning(text: string): void {
    this.thinkingFrom ??= Date.now();
    this.thoughts.push(text);
    this.pendingThought += text;
    this.timer ??= setTimeout(() => this.flush(), 32);
  }

  /** Sends what is pending now. */
  private flush(): void {
    this.timer = undefined;
    if (this.pendingThought !== '') {
      this.sink({ type: 'chat/reasoning', messageId: this.messageId, text: this.pendingThought });
      this.pendingThought = '';
    }
    if (this.pending === '') return;
    this.sink({ type: 'chat/delta', messageId: this.messageId, text: this.pending });
    this.pending = '';
  }

  /** The stream ended (answered, stopped or failed): sends the rest and writes text and thinking into `reply`. */
  finish(reply: StoredMessage): void {
    if (this.timer) clearTimeout(this.timer);
    this.flush();
    reply.text = this.parts.join('');
    if (this.thoughts.length === 0) return;
    this.thinkingMs ??= Date.now() - (this.thinkingFrom ?? Date.now());
    reply.reasoning = { text: this.thoughts.join(''), ms: this.thinkingMs };
  }
}
