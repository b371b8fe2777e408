// The chat panel as the suites drive it: they send what the webview sends (FromWebview, handed to the view
// provider's `handle`, where the webview's postMessage arrives) and read only what the host posted back
// (ToWebview, through `onDidPost`), folded into what the panel shows (panelState.ts). Nothing here reaches
// the chat controller or the turn behind it, so they can be rebuilt without rewriting the suites. What only
// the disk knows (a conversation as saved) is read from the conversations folder (helpers.ts).
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import type { MentionCandidate, MentionChip } from '../../src/shared/mentionCandidates';
import type { ConnectionState, FromWebview, ImageAttachment, ToWebview } from '../../src/shared/protocol';
import type { ChatOptions } from '../../src/shared/views';
import type { RunningEmulator } from '../support/emulator/emulator';
import { cadenzaApi, openChatView, spyOnDialogs, useEmulator, waitFor } from './helpers';
import { PanelState, type ShownConversation } from './panelState';

/** A message the host posted, by its type. */
type Posted<T extends ToWebview['type']> = Extract<ToWebview, { type: T }>;
type Done = Posted<'chat/done'>;

/** One turn of the chat as the panel saw it: from the message sent to the end of its answer. */
export interface Turn {
  /** What the host posted to the panel from the send to the turn's end. */
  readonly posted: readonly ToWebview[];
  /** How the turn's last answer ended; undefined when no answer began (no model could be chosen, or a notice refused the message). */
  readonly done: Done | undefined;
  /** The last answer's text as the panel shows it; empty when no answer began or it failed (the panel shows the error instead). */
  readonly answer: string;
}

/** What a message carries besides its text, as the composer sends it. */
interface Attachments {
  readonly image?: ImageAttachment;
  /** The token of a `composer/audio`. */
  readonly audio?: string;
  /** The tokens of `composer/mention` chips. */
  readonly mentions?: readonly string[];
  /** The prompt file picked in the `/` list (the text is then what follows `/name`). */
  readonly prompt?: string;
}

/**
 * Whether the turn whose messages are `posted` has ended: its last answer (an agent turn adds one per
 * step, the next before the previous one's `chat/done`) is done, and stopped, failed, stopped early by the
 * agent, or called no tools (a step that called tools is followed by another). No answer at all ends it too:
 * the host said why with a notice.
 */
function turnEnded(posted: readonly ToWebview[]): boolean {
  const last = lastAnswerId(posted);
  if (last === undefined) return true;
  const done = posted.find((message): message is Done => message.type === 'chat/done' && message.messageId === last);
  if (!done) return false;
  if (done.stopped || done.error !== undefined || done.agentStop !== undefined) return true;
  return !posted.some((message) => message.type === 'tool/call' && message.messageId === last);
}

function lastAnswerId(posted: readonly ToWebview[]): string | undefined {
  return posted.flatMap((message) => (message.type === 'message/add' && message.message.role === 'assistant' ? [message.message.id] : [])).at(-1);
}

/** The turn's last answer as the panel shows it: the text it was added with and its deltas. */
function turnOf(posted: readonly ToWebview[]): Turn {
  const last = lastAnswerId(posted);
  const done = posted.find((message): message is Done => message.type === 'chat/done' && message.messageId === last);
  const added = posted.find((message): message is Posted<'message/add'> => message.type === 'message/add' && message.message.id === last);
  const text =
    (added?.message.text ?? '') + posted.flatMap((message) => (message.type === 'chat/delta' && message.messageId === last ? [message.text] : [])).join('');
  return { posted, done, answer: done === undefined || done.error !== undefined ? '' : text };
}

/**
 * The chat panel, driven through its messages. Attach it before what a test reads happens: it sees only
 * what is posted after. `messages` is what was recorded since the last `clear()`; the panel's state (the
 * conversation, the list, the picker) is kept across clears. Every verb opens the panel first when it is
 * not open and ready, as a user would, and resolves once the host has handled the message.
 */
export class Panel {
  /** What the host delivered to the panel since the last `clear()` (messages queued until the webview was ready are recorded when delivered). */
  readonly messages: ToWebview[] = [];
  /** Everything delivered since attached; verbs slice it for what their message caused. */
  private readonly log: ToWebview[] = [];
  private readonly state = new PanelState();
  private readonly subscription: vscode.Disposable;
  private mentionRequests = 0;

  constructor(private readonly api: CadenzaApi) {
    this.subscription = api.chatView.onDidPost((message) => {
      this.messages.push(message);
      this.log.push(message);
      this.state.apply(message);
    });
  }

  /** Forgets what was recorded so far (not what the panel shows). */
  clear(): void {
    this.messages.splice(0);
  }

  /** Stops recording. */
  dispose(): void {
    this.subscription.dispose();
  }

  /** The recorded messages of one type. */
  posted<T extends ToWebview['type']>(type: T): Posted<T>[] {
    return this.messages.filter((message): message is Posted<T> => message.type === type);
  }

  /** Resolves with the first connection state (already recorded or still to come) that satisfies `match`. */
  async connectionState(match: (state: ConnectionState) => boolean, what: string, timeoutMs = 15_000): Promise<ConnectionState> {
    const states = (): ConnectionState[] => this.posted('state/connection').map((message) => message.state);
    let found: ConnectionState | undefined;
    await waitFor(
      () => (found = states().find(match)) !== undefined,
      () => `a panel state with ${what} (seen: ${JSON.stringify(states())})`,
      timeoutMs,
    );
    if (!found) throw new Error('unreachable');
    return found;
  }

  // --- What the panel shows -------------------------------------------------------------------------

  /** The open conversation as the panel shows it; waits (a bounded time) for the first one shown after attaching. */
  async conversation(timeoutMs = 15_000): Promise<ShownConversation> {
    await waitFor(() => this.state.conversation !== undefined, 'the panel to be shown a conversation', timeoutMs);
    const shown = this.state.conversation;
    if (!shown) throw new Error('unreachable');
    return shown;
  }

  /** The model the picker shows for the open conversation. */
  selectedModel(): string | undefined {
    return this.state.models?.selected;
  }

  // --- What the user does -------------------------------------------------------------------------------

  /** Hands the host a message as the webview would; resolves with what the host posted while handling it. */
  async post(message: FromWebview): Promise<readonly ToWebview[]> {
    if (message.type !== 'ready') await this.open();
    const start = this.log.length;
    await this.api.chatView.handle(message);
    return this.log.slice(start);
  }

  /** Sends a message (with the options the composer sends: none set unless given) and waits for the end of its turn. */
  send(text: string, options: ChatOptions = {}, attachments: Attachments = {}): Promise<Turn> {
    return this.turn({ type: 'chat/send', text, options, ...attachments });
  }

  /** Answers the last question again (Regenerate), replacing the answer; waits for the end of the turn. */
  regenerate(options: ChatOptions = {}): Promise<Turn> {
    return this.turn({ type: 'chat/regenerate', options });
  }

  /** Stops the answer being streamed (the Stop button). */
  async stop(): Promise<void> {
    await this.post({ type: 'chat/stop' });
  }

  /** Save again under answer `messageId`: the host's answer. */
  async retrySave(messageId: string): Promise<Posted<'chat/saveResult'>> {
    const result = (await this.post({ type: 'chat/retrySave', messageId })).find(
      (message): message is Posted<'chat/saveResult'> => message.type === 'chat/saveResult' && message.messageId === messageId,
    );
    if (!result) throw new Error(`the host did not answer Save again for ${messageId}`);
    return result;
  }

  /** New chat: resolves with the conversation the panel then shows. */
  async newConversation(): Promise<ShownConversation> {
    await this.post({ type: 'conversation/new' });
    return this.conversation();
  }

  /** Picks the open conversation's model in the panel's picker. */
  async selectModel(modelId: string): Promise<void> {
    await this.post({ type: 'model/select', modelId });
  }

  /** Opens a conversation of the list. */
  async switchTo(id: string): Promise<void> {
    await this.post({ type: 'conversation/switch', id });
  }

  /** Renames a conversation of the list, typing `title` into the box the host asks with. */
  async rename(id: string, title: string): Promise<void> {
    const dialogs = spyOnDialogs((call) => (call.kind === 'inputBox' ? title : undefined));
    try {
      await this.post({ type: 'conversation/rename', id });
    } finally {
      dialogs.restore();
    }
  }

  /** Deletes a conversation of the list, confirming the host's question. */
  async delete(id: string): Promise<void> {
    const dialogs = spyOnDialogs((call) => (call.kind === 'warning' ? 'Delete' : undefined));
    try {
      await this.post({ type: 'conversation/delete', id });
    } finally {
      dialogs.restore();
    }
  }

  /** Condense (the panel's button, with its max tokens when given): whether the panel was shown a summary. */
  async condense(maxTokens?: number): Promise<boolean> {
    const posted = await this.post({ type: 'chat/condense', ...(maxTokens !== undefined ? { maxTokens } : {}) });
    return posted.some((message) => message.type === 'conversation/show' && message.conversation.condensed !== undefined);
  }

  /** Replaces the open conversation's summary with the user's edit. */
  async editSummary(summary: string): Promise<void> {
    await this.post({ type: 'condense/edit', summary });
  }

  /** "Restore to before this turn" (the test answers the host's question): whether the panel was told the turn is restored. */
  async restoreCheckpoint(id: string): Promise<boolean> {
    const posted = await this.post({ type: 'checkpoint/restore', id });
    return posted.some((message) => message.type === 'checkpoint/update' && message.checkpoint.id === id && message.checkpoint.restoredAt !== undefined);
  }

  /** What the webview says each time its page loads: the host sends the panel everything again. */
  async ready(): Promise<readonly ToWebview[]> {
    return this.post({ type: 'ready' });
  }

  /** Types `@query`: the offers of the `@` list. */
  async queryMentions(query: string): Promise<readonly MentionCandidate[]> {
    const requestId = ++this.mentionRequests;
    const posted = await this.post({ type: 'mention/query', requestId, query });
    const answer = posted.find((message): message is Posted<'mention/candidates'> => message.type === 'mention/candidates' && message.requestId === requestId);
    if (!answer) throw new Error(`the host did not answer the @ query ${JSON.stringify(query)}`);
    return answer.candidates;
  }

  /** Picks an offer of the `@` list: the chip the composer then shows (undefined when none came). */
  async attachMention(candidate: MentionCandidate): Promise<MentionChip | undefined> {
    const posted = await this.post({ type: 'mention/attach', candidate });
    return posted.find((message): message is Posted<'composer/mention'> => message.type === 'composer/mention')?.mention;
  }

  /** Posts a message that starts a turn and waits for the turn's end in what the panel is sent. */
  private async turn(message: FromWebview): Promise<Turn> {
    await this.open();
    const start = this.log.length;
    await this.post(message);
    const posted = (): readonly ToWebview[] => this.log.slice(start);
    // The host's handling ends with the turn today; the wait below is what the panel itself goes by.
    await waitFor(
      () => turnEnded(posted()),
      () =>
        `the end of the turn (saw ${posted()
          .map((entry) => entry.type)
          .join(', ')})`,
      120_000,
    );
    return turnOf(posted());
  }

  /** Opens the panel when it is not open and ready (a user types into an open panel). */
  private async open(): Promise<void> {
    if (!this.api.chatView.isResolved || !this.api.chatView.isReady) await openChatView(this.api);
  }
}

/**
 * Attaches a driver to the chat panel: it records what the host posts from now on and drives the panel
 * through its messages. Dispose it at the end of the suite.
 */
export function drivePanel(api: CadenzaApi): Panel {
  return new Panel(api);
}

/**
 * The set-up of a suite that chats: attaches a panel driver, starts the emulator (see useEmulator), stores
 * its key, opens the chat view on a new conversation (with `model` when given), resets the emulator and the
 * recording before each test, and undoes it all afterwards. Call it at the top of a `suite` body.
 */
export function useChatSuite(model?: string): { readonly emulator: () => RunningEmulator; readonly panel: () => Panel } {
  let panel: Panel | undefined;
  suiteSetup(async () => {
    // Attached before useEmulator() changes cadenza.baseUrl, so the states posted for that are recorded.
    panel = drivePanel(await cadenzaApi());
  });
  const emulator = useEmulator();
  const driver = (): Panel => {
    if (!panel) throw new Error('the panel driver is not attached (useChatSuite() must be called in a suite body)');
    return panel;
  };
  suiteSetup(async () => {
    const api = await cadenzaApi();
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await openChatView(api);
    await driver().newConversation();
    if (model) await vscode.commands.executeCommand('cadenza.selectModel', model);
  });
  setup(() => {
    emulator().reset();
    panel?.clear();
  });
  suiteTeardown(async () => {
    panel?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });
  return { emulator, panel: driver };
}
