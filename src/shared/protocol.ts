/**
 * The typed message protocol between the host (extension) and the webview (chat panel).
 * `ToWebview` is sent by the host; `FromWebview` by the webview. Names are namespaced (`area/verb`).
 * The webview sends `ready` first; the host queues everything until then. A streamed answer is zero or
 * more `chat/delta` messages followed by exactly one `chat/done` for the same `messageId`.
 */
import { isMentionCandidate, type MentionCandidate, type MentionChip } from './mentionCandidates';
import type { ChatOptions, CheckpointView, ConversationSummary, ConversationView, ErrorView, MessageView, ModelView, SourceView, ToolCallView, UsageView, VscodeToolView } from './views';

/** What the panel shows about the connection; sent on `ready` and whenever it changes. */
export interface ConnectionState {
  /** The service's base address, as configured. */
  readonly baseUrl: string;
  /** Whether an API key is stored in SecretStorage (never the key itself). */
  readonly hasKey: boolean;
}

/** Host → webview. */
export type ToWebview =
  /** The connection state changed (or the webview just said `ready`). */
  | { readonly type: 'state/connection'; readonly state: ConnectionState }
  /** The live model list (from GET /v1/models, with derived capabilities) and the conversation's model. */
  | { readonly type: 'state/models'; readonly models: readonly ModelView[]; readonly selected: string | undefined; readonly loading: boolean; readonly error?: ErrorView }
  /** The list of saved conversations and which one is open. */
  | { readonly type: 'state/conversations'; readonly conversations: readonly ConversationSummary[]; readonly activeId: string }
  /** The open conversation, whole: sent on switch, load, and after edits that change history. */
  | { readonly type: 'conversation/show'; readonly conversation: ConversationView }
  /** A message was added (the user's, or the assistant's placeholder before streaming starts). */
  | { readonly type: 'message/add'; readonly message: MessageView }
  /** More text for a streaming assistant message. Only the new text: the webview appends it. */
  | { readonly type: 'chat/delta'; readonly messageId: string; readonly text: string }
  /**
   * More of a reasoning model's thinking for a streaming answer (before or between answer text). Only the
   * new text. The panel shows it live in a "Thinking" section that collapses when the answer starts.
   */
  | { readonly type: 'chat/reasoning'; readonly messageId: string; readonly text: string }
  /**
   * The request is waiting before a retry (429, 5xx, network); `seconds` counts down in the panel.
   * `attempt` is 1 for the first retry. `reason` is the failed attempt's error reason (`rateLimited`,
   * `server`, `network`, `timeout`); without it the panel says "Rate limited".
   */
  | { readonly type: 'chat/retrying'; readonly messageId: string; readonly seconds: number; readonly attempt: number; readonly reason?: string }
  /**
   * The answer ended: complete, stopped by the user, or failed with an error and its fixing action. In an
   * agent answer each step (one request to the model) is its own message with its own `chat/done`;
   * `agentStop` says why the agent stopped early (the step limit) or why Cadenza asked for this step's answer
   * without tools (a call repeated, the last step of the limit).
   */
  | { readonly type: 'chat/done'; readonly messageId: string; readonly stopped: boolean; readonly reasoningMs?: number; readonly usage?: UsageView; readonly error?: ErrorView; readonly jsonCheck?: JsonCheckView; readonly sources?: readonly SourceView[]; readonly agentStop?: string; readonly saveError?: string }
  /**
   * The answer to `chat/retrySave` for answer `messageId`: saved now (no `error`), or the save failed again
   * (the panel keeps offering Save again). A failed save at the end of an answer comes as `chat/done`'s `saveError`.
   */
  | { readonly type: 'chat/saveResult'; readonly messageId: string; readonly error?: string }
  /**
   * A tool call of the agent step `messageId` appeared or changed (forming, waiting for approval, running,
   * done...): the panel adds or replaces the card at `call.index`. A call `awaitingApproval` waits for a
   * `tool/approve` with its id.
   */
  | { readonly type: 'tool/call'; readonly messageId: string; readonly call: ToolCallView }
  /**
   * "Allow edits for this conversation" began (for `conversationId`) or ended (undefined): while it holds
   * the panel says so, with a way to end it. Files that can run code are asked for regardless.
   */
  | { readonly type: 'agent/allowance'; readonly conversationId: string | undefined }
  /** The agent turn closed by `messageId` changed files: its checkpoint (recorded, or now restored). */
  | { readonly type: 'checkpoint/update'; readonly messageId: string; readonly checkpoint: CheckpointView }
  /** How full the model's context is for the next request; `dropped` turns were left out. */
  | { readonly type: 'context/meter'; readonly usedTokens: number; readonly limitTokens: number; readonly droppedMessages: number }
  /** Text to put into the composer as a quoted context block (from "Add selection to chat"). */
  | { readonly type: 'composer/addContext'; readonly label: string; readonly text: string; readonly language: string }
  /** An image chosen through the host's file picker, already checked and encoded. */
  | { readonly type: 'composer/image'; readonly image: ImageAttachment }
  /**
   * An audio file chosen through the host's file picker (answering `audio/pick`), already checked against the
   * audio models' limits. The bytes stay in the host; the panel shows the chip and sends back the token.
   */
  | { readonly type: 'composer/audio'; readonly audio: AudioAttachment }
  /** Text to put into the composer at the caret: the transcript of `audio/transcribeIntoPrompt`. */
  | { readonly type: 'composer/insertText'; readonly text: string }
  /** A JSON schema picked from a workspace file for json_schema mode. */
  | { readonly type: 'composer/schema'; readonly name: string; readonly schema: string }
  /**
   * The project instruction files that apply to the open conversation (AGENTS.md, .cadenza/instructions.md…),
   * each with its token cost, and whether this conversation uses them (the chip's toggle).
   */
  | { readonly type: 'state/instructions'; readonly files: readonly InstructionView[]; readonly enabled: boolean; readonly untrusted: boolean }
  /** The offers of the `@` list for the query of `mention/query` with the same `requestId` (best first). */
  | { readonly type: 'mention/candidates'; readonly requestId: number; readonly query: string; readonly candidates: readonly MentionCandidate[] }
  /** A picked mention, resolved: the composer shows its chip (what it adds, its token cost) and sends its token with `chat/send`. */
  | { readonly type: 'composer/mention'; readonly mention: MentionChip }
  /**
   * The tools other extensions and MCP servers register in VS Code, for the tools menu (answering `tools/list`
   * and `tools/enable`): which the agent may use in this workspace. `restricted`: Restricted Mode, where only
   * tools marked read-only are offered.
   */
  | { readonly type: 'state/vscodeTools'; readonly tools: readonly VscodeToolView[]; readonly restricted: boolean; readonly agentEnabled: boolean }
  /** A message to show in the panel that is not part of the conversation (e.g. a rejected image). */
  /** A notice; one with a `key` replaces the panel's earlier notice of the same key (a progress line its outcome). */
  | { readonly type: 'notice'; readonly level: 'info' | 'warning' | 'error'; readonly text: string; readonly key?: string };

/** A project instruction file as the panel shows it. */
export interface InstructionView {
  /** Workspace-relative. */
  readonly path: string;
  readonly tokens: number;
  /** Cut (or left out) to fit the instructions' budget. */
  readonly cut: boolean;
}

/** An image attached to a message: a base64 data URL of jpeg, png, webp or gif. */
export interface ImageAttachment {
  readonly name: string;
  readonly dataUrl: string;
  readonly bytes: number;
}

/**
 * An audio file attached in the panel, as the panel knows it: its name and measures, and the token the host
 * keeps its bytes under (megabytes of base64 never travel through the webview).
 */
export interface AudioAttachment {
  /** Host-issued, random, good for one `chat/send`. */
  readonly token: string;
  readonly name: string;
  readonly bytes: number;
  /** The measured duration (the audio models' limit is in seconds). */
  readonly seconds: number;
}

/** The result of checking a JSON-mode answer: parsed, and conforming to the schema when one was given. */
export interface JsonCheckView {
  readonly valid: boolean;
  readonly pretty?: string;
  readonly problems: readonly string[];
}

/** Webview → host. */
export type FromWebview =
  /** The webview has loaded and can receive messages; sent once per load. */
  | { readonly type: 'ready' }
  /**
   * Send a new user message using the conversation's options, with an optional image, or an optional audio
   * file named by the token of its `composer/audio` (the host answers a conversation with audio by audio reasoning).
   */
  | { readonly type: 'chat/send'; readonly text: string; readonly image?: ImageAttachment; readonly audio?: string; readonly mentions?: readonly string[]; readonly options: ChatOptions }
  /** What was typed after `@`: answered by `mention/candidates` with the same `requestId`. */
  | { readonly type: 'mention/query'; readonly requestId: number; readonly query: string }
  /** The user picked an offer of the `@` list: the host resolves it and answers `composer/mention`. */
  | { readonly type: 'mention/attach'; readonly candidate: MentionCandidate }
  /** Stop the answer being streamed now; the partial answer stays, marked as stopped. */
  | { readonly type: 'chat/stop' }
  /** Answer the last user message again, replacing the last answer. */
  | { readonly type: 'chat/regenerate'; readonly options: ChatOptions }
  /** Replace a user message's text, drop everything after it, and send again. */
  | { readonly type: 'chat/editResend'; readonly messageId: string; readonly text: string; readonly options: ChatOptions }
  /** Save the open conversation again after its save failed (the answer `messageId` says "not saved"); answered by `chat/saveResult`. */
  | { readonly type: 'chat/retrySave'; readonly messageId: string }
  /** Retry the failed last request (after an error), optionally trimming the oldest turns first. */
  | { readonly type: 'chat/retry'; readonly trim: boolean; readonly options: ChatOptions }
  /** Conversation list actions. */
  | { readonly type: 'conversation/new' }
  | { readonly type: 'conversation/switch'; readonly id: string }
  | { readonly type: 'conversation/rename'; readonly id: string }
  | { readonly type: 'conversation/delete'; readonly id: string }
  | { readonly type: 'conversation/export'; readonly id: string }
  /** Choose the model of the open conversation. */
  | { readonly type: 'model/select'; readonly modelId: string }
  /** Reload the model list from the service. */
  | { readonly type: 'model/refresh' }
  /** Code block and answer actions. */
  | { readonly type: 'code/copy'; readonly code: string }
  | { readonly type: 'code/insert'; readonly code: string }
  | { readonly type: 'code/replaceSelection'; readonly code: string }
  | { readonly type: 'code/open'; readonly code: string; readonly language: string }
  /** Ask the host to pick an image file, or to check an image the user dropped or pasted. */
  | { readonly type: 'image/pick' }
  | { readonly type: 'image/check'; readonly image: ImageAttachment }
  /** Ask the host to pick an audio file to attach for an audio-reasoning model; answered by `composer/audio` or a `notice`. */
  | { readonly type: 'audio/pick' }
  /**
   * Ask the host to pick an audio file and transcribe it with the last transcription model and language (asked
   * the first time); answered by `composer/insertText`, or a `notice` naming the file.
   */
  | { readonly type: 'audio/transcribeIntoPrompt' }
  /** Ask the host to pick a JSON schema file from the workspace. */
  | { readonly type: 'schema/pick' }
  /** Open a workspace location the answer cited (a `sources` link). */
  | { readonly type: 'source/open'; readonly uri: string; readonly startLine: number }
  /** Open a project instruction file (a chip of `state/instructions`), by its workspace-relative path. */
  | { readonly type: 'instructions/open'; readonly path: string }
  /** Run one of the panel's actions (each maps to a command). */
  | { readonly type: 'action/run'; readonly action: PanelAction }
  /**
   * The user's answer to a change the agent proposes (the card of call `callId`): run it once, deny it,
   * run it and allow further edits in this conversation without asking (never offered for commands), or
   * (another extension's or an MCP server's tool) run it and allow that tool in this conversation.
   */
  | { readonly type: 'tool/approve'; readonly callId: string; readonly decision: ApprovalDecision }
  /** Open the proposed edit of call `callId` in the editor's diff view. */
  | { readonly type: 'tool/showDiff'; readonly callId: string }
  /** End "allow edits for this conversation": later edits are asked again. */
  | { readonly type: 'agent/endAllowance' }
  /** Open what the agent turn of checkpoint `id` changed, as one multi-file diff. */
  | { readonly type: 'checkpoint/showChanges'; readonly id: string }
  /** Put the files of checkpoint `id` back as they were before its turn (the host asks first, and refuses in Restricted Mode and for another window's turn). */
  | { readonly type: 'checkpoint/restore'; readonly id: string }
  /** The tools menu opened: the host answers `state/vscodeTools` with the tools registered in VS Code now. */
  | { readonly type: 'tools/list' }
  /** The user ticked or unticked a VS Code tool in the tools menu (remembered for the workspace); answered by `state/vscodeTools`. */
  | { readonly type: 'tools/enable'; readonly name: string; readonly enabled: boolean }
  /**
   * Condense the open conversation: a model summarises its older turns, and the summary is sent instead of
   * them; `maxTokens` (the panel's option now) lets the summary run longer than the default.
   */
  | { readonly type: 'chat/condense'; readonly maxTokens?: number }
  /** The user edited the open conversation's summary: it is sent from now on. */
  | { readonly type: 'condense/edit'; readonly summary: string };

/** The answers a change card offers. */
export type ApprovalDecision = 'approve' | 'deny' | 'allowConversation' | 'allowTool';

const approvalDecisions: readonly string[] = ['approve', 'deny', 'allowConversation', 'allowTool'] satisfies readonly ApprovalDecision[];

/** Actions the panel can ask the host to run; each maps to a contributed command or setting. */
export type PanelAction = 'setApiKey' | 'openSettings' | 'selectModel' | 'showLog';

const panelActions: readonly string[] = ['setApiKey', 'openSettings', 'selectModel', 'showLog'] satisfies readonly PanelAction[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isImage(value: unknown): value is ImageAttachment {
  return isRecord(value) && isString(value['name']) && isString(value['dataUrl']) && typeof value['bytes'] === 'number';
}

/** A token the host issued: short and plain, so a webview cannot smuggle the audio itself into `chat/send`. */
function isAudioToken(value: unknown): value is string {
  return isString(value) && /^[A-Za-z0-9-]{8,64}$/.test(value);
}

function isOptionalNumber(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && Number.isFinite(value));
}

/** Checks the shape of per-conversation options; ranges are enforced again by the host before sending. */
export function isChatOptions(value: unknown): value is ChatOptions {
  if (!isRecord(value)) return false;
  const json = value['jsonMode'];
  return (
    isOptionalNumber(value['temperature']) &&
    isOptionalNumber(value['topP']) &&
    isOptionalNumber(value['topK']) &&
    isOptionalNumber(value['maxTokens']) &&
    (value['stop'] === undefined || (Array.isArray(value['stop']) && value['stop'].every(isString))) &&
    (value['systemPrompt'] === undefined || isString(value['systemPrompt'])) &&
    (value['useWorkspace'] === undefined || typeof value['useWorkspace'] === 'boolean') &&
    (value['useInstructions'] === undefined || typeof value['useInstructions'] === 'boolean') &&
    (value['reasoningEffort'] === undefined || value['reasoningEffort'] === 'low' || value['reasoningEffort'] === 'medium' || value['reasoningEffort'] === 'high') &&
    (value['thinking'] === undefined || typeof value['thinking'] === 'boolean') &&
    (json === undefined || json === 'off' || json === 'object' || json === 'schema') &&
    (value['schema'] === undefined || isString(value['schema']))
  );
}

/** Type guard for everything that arrives from the webview: it is untrusted input. */
export function isFromWebview(value: unknown): value is FromWebview {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'ready':
    case 'chat/stop':
    case 'conversation/new':
    case 'model/refresh':
    case 'image/pick':
    case 'audio/pick':
    case 'audio/transcribeIntoPrompt':
    case 'schema/pick':
    case 'agent/endAllowance':
    case 'tools/list':
      return true;
    case 'chat/condense':
      return isOptionalNumber(value['maxTokens']);
    case 'tools/enable':
      return isString(value['name']) && value['name'].length <= 300 && typeof value['enabled'] === 'boolean';
    case 'condense/edit':
      return isString(value['summary']) && value['summary'].length <= 200_000;
    case 'chat/send':
      return isString(value['text']) && isChatOptions(value['options']) && (value['image'] === undefined || isImage(value['image'])) && (value['audio'] === undefined || isAudioToken(value['audio']))
        && (value['mentions'] === undefined || (Array.isArray(value['mentions']) && value['mentions'].length <= 40 && value['mentions'].every(isAudioToken)));
    case 'mention/query':
      return typeof value['requestId'] === 'number' && isString(value['query']) && value['query'].length <= 500;
    case 'mention/attach':
      return isMentionCandidate(value['candidate']);
    case 'chat/regenerate':
      return isChatOptions(value['options']);
    case 'chat/editResend':
      return isString(value['messageId']) && isString(value['text']) && isChatOptions(value['options']);
    case 'chat/retry':
      return typeof value['trim'] === 'boolean' && isChatOptions(value['options']);
    case 'conversation/switch':
    case 'conversation/rename':
    case 'conversation/delete':
    case 'conversation/export':
      return isString(value['id']);
    case 'model/select':
      return isString(value['modelId']);
    case 'code/copy':
    case 'code/insert':
    case 'code/replaceSelection':
      return isString(value['code']);
    case 'code/open':
      return isString(value['code']) && isString(value['language']);
    case 'image/check':
      return isImage(value['image']);
    case 'source/open':
      return isString(value['uri']) && typeof value['startLine'] === 'number';
    case 'instructions/open':
      return isString(value['path']);
    case 'action/run':
      return isString(value['action']) && panelActions.includes(value['action']);
    case 'tool/approve':
      return isString(value['callId']) && isString(value['decision']) && approvalDecisions.includes(value['decision']);
    case 'tool/showDiff':
      return isString(value['callId']);
    case 'chat/retrySave':
      return isString(value['messageId']);
    case 'checkpoint/showChanges':
    case 'checkpoint/restore':
      return isString(value['id']) && /^[A-Za-z0-9-]{1,64}$/.test(value['id']);
    default:
      return false;
  }
}
