// The panel's router: every message from the webview is checked once against the protocol's declarations
// (it is untrusted input), then handed to its handler from the table the features' handler files make
// (`handlers/<feature>.ts`, assembled in `routingTable.ts`). A handler of a request resolves with the answer
// its declaration names, and the router posts it. A failure is logged and shown in the panel, never thrown.
import { isFromWebview, type FromWebview, type FromWebviewOf, type ReplyTo, type ToWebview } from '../../shared/protocol';
import type { PanelAudio } from '../audio/panelAudio';
import type { ChatController } from '../chat/chatController';
import type { MentionService } from '../chat/context/mentionService';
import type { HostContext } from '../context';
import type { AgentService } from '../tools/agentService';
import type { PanelPrompts } from '../chat/panelPrompts';
import type { PanelConnectionState } from './connectionState';
import type { PanelChannel } from './panelChannel';

/** Does the work of message `K`; a request's handler may resolve with its answer (or post a notice instead). */
export type Handler<K extends FromWebview['type']> = (message: FromWebviewOf<K>) => ReplyTo<K> | void | Promise<ReplyTo<K> | void>;

/** The handlers of some message types: what a feature's handler file makes. */
export type Handlers<K extends FromWebview['type']> = { readonly [P in K]: Handler<P> };

/** A handler for every message the webview may send: a message without one does not compile. */
export type PanelHandlers = Handlers<FromWebview['type']>;

/** What the panel's handlers reach, built before them (activate() constructs in this order); each takes what it needs. */
export interface PanelParts {
  readonly host: HostContext;
  readonly channel: PanelChannel;
  readonly chat: ChatController;
  readonly audio: PanelAudio;
  readonly agent: AgentService;
  readonly mentions: MentionService;
  readonly connectionState: PanelConnectionState;
  /** The prompt files of the composer's `/` list. */
  readonly prompts: PanelPrompts;
}

/** Checks and routes what the webview sends. */
export class PanelRouter {
  constructor(
    private readonly host: HostContext,
    private readonly channel: PanelChannel,
    private readonly handlers: PanelHandlers,
  ) {}

  /**
   * Validates one message from the webview and routes it; resolves when it has been handled. A failure is
   * logged and shown in the panel, never thrown. (The integration suites post through here too.)
   */
  async handle(message: unknown): Promise<void> {
    if (!isFromWebview(message)) {
      this.host.log.warn('Ignored a malformed message from the chat panel.');
      return;
    }
    try {
      const reply = await this.route(message);
      if (reply) this.channel.post(reply);
    } catch (error) {
      this.host.log.error(error instanceof Error ? error : String(error));
      this.channel.post({ type: 'notice', level: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  }

  private route(message: FromWebview): ToWebview | void | Promise<ToWebview | void> {
    // The table pairs each type with its handler; TypeScript cannot follow that pairing through an index by a
    // union, so the one handler is called as a handler of any message (PanelHandlers checked the pairing).
    const handler = this.handlers[message.type] as (message: FromWebview) => ToWebview | void | Promise<ToWebview | void>;
    return handler(message);
  }
}
