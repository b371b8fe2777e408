// What starts an answer in the chat panel: a new message (with its image or audio and the context of its
// @-mentions, stored with it), a conversation about an audio file, regenerate, edit-and-resend and retry.
// Each changes the history, saves it (so no error loses the user's text), shows it and hands the
// conversation to `Answering`, which runs one answer at a time.
import { randomUUID } from 'node:crypto';
import { titleFromText, type Conversation, type StoredMessage, type StoredOptions } from '../../core/chat/conversation';
import { normaliseOptions } from '../../core/chat/requestBuilder';
import type { ImageAttachment } from '../../shared/protocol';
import type { ChatOptions } from '../../shared/views';
import type { Answering } from '../../core/chat/answer/answering';
import type { ServiceConnection } from '../service/connection';
import type { MentionService } from './context/mentionService';
import { gatherContext, roomTokens } from './context/turnContext';
import type { ConversationSession } from './conversationSession';
import { toView } from './messageView';
import type { ChatPanelState } from './panelState';
import type { MessageAudio, PanelSink, TurnOverrides } from './turnTypes';

/** A prompt file a message runs: its chip, the conversation's title for it, and what it changes for the answer. */
export interface PromptRun {
  readonly chip: NonNullable<StoredMessage['prompt']>;
  /** `/name` and what was typed after it (the expanded text would make a poor title). */
  readonly title: string;
  readonly overrides: TurnOverrides;
}

/** What a prompt file's run used, as the message stores it. */
function promptRunOf(overrides: TurnOverrides): NonNullable<StoredMessage['promptRun']> {
  return { ...(overrides.model !== undefined ? { model: overrides.model } : {}), tools: overrides.tools ?? 'default' };
}

/** What the turns need from the controller. */
export interface ChatTurnsHost {
  readonly session: ConversationSession;
  readonly panel: ChatPanelState;
  readonly answering: Answering<TurnOverrides>;
  readonly connection: ServiceConnection;
  readonly sink: PanelSink;
  /** The composer's @-mentions. */
  readonly mentions: MentionService;
  /** The model a message of `conversation` would use now. */
  modelFor(conversation: Conversation): string | undefined;
}

/** The panel's ways to start an answer; each resolves with the answer text (empty on error). */
export class ChatTurns {
  constructor(private readonly host: ChatTurnsHost) {}

  /** Adds a user message (image, audio, the mentions' context stored with it, the prompt file it runs) and answers it. */
  async send(
    text: string,
    options: ChatOptions,
    image?: ImageAttachment,
    audio?: MessageAudio,
    mentions: readonly string[] = [],
    prompt?: PromptRun,
  ): Promise<string> {
    const { session, sink, connection } = this.host;
    const conversation = await session.current();
    const message: StoredMessage = {
      id: randomUUID(),
      role: 'user',
      text,
      createdAt: Date.now(),
      ...(image ? { imageDataUrl: image.dataUrl } : {}),
      ...(audio ? { audio } : {}),
      ...(prompt ? { prompt: prompt.chip, promptRun: promptRunOf(prompt.overrides) } : {}),
    };
    if (!conversation.titleSetByUser && !conversation.messages.some((entry) => entry.role === 'user'))
      conversation.title = titleFromText(prompt?.title ?? (text.trim() || (audio?.name ?? '')));
    this.applyOptions(conversation, options);
    const provider = this.host.mentions;
    if (mentions.length > 0) {
      const room = roomTokens(connection.model(this.host.modelFor(conversation)), conversation.options);
      const gathered = await gatherContext([provider.provider(mentions)], text, room, sink, new AbortController().signal);
      if (gathered.message.length > 0) message.context = gathered.message;
    }
    conversation.messages.push(message);
    await session.save(conversation);
    sink({ type: 'message/add', message: toView(message) });
    await this.host.panel.conversations();
    return this.host.answering.answer(conversation, prompt?.overrides);
  }

  /** Starts a conversation about an audio file with an audio-reasoning model; later messages go on with the same audio. */
  async askAboutAudio(model: string, audio: MessageAudio, question: string): Promise<string> {
    const { session } = this.host;
    this.host.answering.stop();
    const conversation = session.fresh();
    conversation.model = model;
    conversation.title = titleFromText(`${audio.name}: ${question}`);
    conversation.titleSetByUser = true;
    conversation.messages.push({ id: randomUUID(), role: 'user', text: question, audio, createdAt: Date.now() });
    await session.show(conversation);
    await session.save(conversation);
    await this.host.panel.showAll();
    return this.host.answering.answer(conversation);
  }

  /** Answers the last user message again, replacing the answer after it. */
  async regenerate(options: ChatOptions): Promise<string> {
    const conversation = await this.host.session.current();
    this.applyOptions(conversation, options);
    while (conversation.messages.at(-1)?.role === 'assistant') conversation.messages.pop();
    return this.answerAgain(conversation);
  }

  /** Replaces a user message's text, drops everything after it, and answers again. */
  async editResend(messageId: string, text: string, options: ChatOptions): Promise<string> {
    const conversation = await this.host.session.current();
    const index = conversation.messages.findIndex((message) => message.id === messageId && message.role === 'user');
    const target = conversation.messages[index];
    if (!target) return '';
    target.text = text;
    conversation.messages.splice(index + 1);
    this.applyOptions(conversation, options);
    return this.answerAgain(conversation);
  }

  /** Retries after an error (dropping the failed answer); `trim` first drops the oldest half of the history. */
  async retry(trim: boolean, options: ChatOptions): Promise<string> {
    const conversation = await this.host.session.current();
    while (conversation.messages.at(-1)?.role === 'assistant') conversation.messages.pop();
    const droppable = conversation.messages.length - 1;
    if (trim && droppable > 0) conversation.messages.splice(0, Math.max(1, Math.floor(droppable / 2)));
    this.applyOptions(conversation, options);
    return this.answerAgain(conversation);
  }

  /**
   * Saves a conversation whose history changed, shows it, and answers its last user message; a message that ran
   * a prompt file is answered with the model and tools its first run used.
   */
  private async answerAgain(conversation: Conversation): Promise<string> {
    await this.host.session.save(conversation);
    this.host.panel.conversation(conversation);
    const run = conversation.messages.at(-1)?.promptRun;
    return this.host.answering.answer(conversation, run && { ...(run.model !== undefined ? { model: run.model } : {}), tools: run.tools });
  }

  /** The panel's options, fixed for the conversation's model (what was changed is said). */
  private applyOptions(conversation: Conversation, options: ChatOptions): void {
    const { stop, ...rest } = options;
    const stored: StoredOptions = { ...rest, ...(stop ? { stop: [...stop] } : {}) };
    const { options: fixed, problems } = normaliseOptions(stored, this.host.connection.model(conversation.model));
    conversation.options = fixed;
    for (const problem of problems) this.host.sink({ type: 'notice', level: 'warning', text: problem.message });
  }
}
