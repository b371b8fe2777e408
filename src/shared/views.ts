/**
 * Plain data shapes the host renders into the chat panel. They carry only what the panel shows:
 * never an API key, never an Authorization header.
 */

/**
 * Something a model can do; the listing does not say, so core/api/capabilities.ts derives it, and settings can
 * override it. `fim`: the model's server fills in the middle from raw text (llama-server's POST /infill with the
 * model's own FIM tokens); only an override states it, or a probe finds it (core/completions/completionRoute.ts).
 */
export type Capability = 'chat' | 'vision' | 'tools' | 'json' | 'audioReasoning' | 'transcription' | 'embeddings' | 'fim';

/** One model as the picker shows it. Prices are USD per million tokens. */
export interface ModelView {
  readonly id: string;
  readonly capabilities: readonly Capability[];
  readonly contextLength?: number;
  readonly maxCompletionTokens?: number;
  readonly pricePerMillionInput?: number;
  readonly pricePerMillionOutput?: number;
  /** Present for reasoning models: the controls they take (`effort`, `thinking`), possibly none. */
  readonly reasoning?: readonly ('effort' | 'thinking')[];
}

/** The per-conversation request options the panel can change, within the spec's limits. */
export interface ChatOptions {
  /** 0 to 1. */
  readonly temperature?: number;
  /** 0 to 1. */
  readonly topP?: number;
  /** 1 to 100, whole. */
  readonly topK?: number;
  /** At least 1, at most the model's maximum completion tokens. */
  readonly maxTokens?: number;
  /** At most 4 sequences. */
  readonly stop?: readonly string[];
  readonly systemPrompt?: string;
  /** Off, `json_object`, or `json_schema` with `schema` (the schema's JSON text). */
  readonly jsonMode?: 'off' | 'object' | 'schema';
  readonly schema?: string;
  /** Put the top chunks of the workspace index into the prompt. */
  readonly useWorkspace?: boolean;
  /** `reasoning_effort` (low/medium/high) for models that take it; unset: the model's default. */
  readonly reasoningEffort?: 'low' | 'medium' | 'high';
  /** `false`: a hybrid reasoning model answers without thinking. */
  readonly thinking?: boolean;
  /** `false`: this conversation leaves the project's instruction files out. */
  readonly useInstructions?: boolean;
}

/** The speed and cost of one answer; each figure says whether the service or the client measured it. */
export interface UsageView {
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  readonly timeToFirstTokenMs?: number;
  readonly tokensPerSecond?: number;
  readonly totalTimeMs?: number;
  readonly costUsd?: number;
  /** Of the output tokens, those spent thinking (reasoning models, where the service reports them). */
  readonly reasoningTokens?: number;
  /** `service` when the figures came from the service's usage fields, `client` when measured locally. */
  readonly source: 'service' | 'client' | 'mixed';
}

/** An error as the panel shows it: the service's message and the action that fixes it. */
export interface ErrorView {
  readonly message: string;
  readonly reason: string;
  readonly action?: 'setApiKey' | 'selectModel' | 'retry' | 'trimAndRetry' | 'openSettings';
  /** Seconds until a retry is allowed (429), when known. */
  readonly retryAfterSeconds?: number;
}

/** A workspace location the answer drew on (the chat's "workspace" toggle); shown as a link. */
export interface SourceView {
  /** e.g. `src/upload.ts:10-42`. */
  readonly label: string;
  readonly uri: string;
  readonly startLine: number;
  readonly endLine: number;
}

/** Where an agent's tool call is, as the tool loop records and the conversation saves it: waiting for the user, running, or how it ended. */
export type ToolCallStatus = 'queued' | 'running' | 'awaitingApproval' | 'done' | 'failed' | 'denied' | 'invalid' | 'cancelled' | 'skipped';

/**
 * Why a tool call failed, by kind (core/tools/toolTypes.ts's ToolError reasons; `failed` for any other error): its
 * card says it in the user's words, while the model is sent the function's own English text.
 */
export const toolFailures = ['outsideWorkspace', 'notFound', 'changed', 'exists', 'tooLarge', 'binary', 'invalid', 'restricted', 'timeout', 'failed'] as const;

/** One of `toolFailures`. */
export type ToolFailure = (typeof toolFailures)[number];

/** Where an agent's tool call is as its card shows it: also `forming` while the call still streams in. */
export type ToolCallStatusView = 'forming' | ToolCallStatus;

/**
 * Why a file is always asked (core/tools/sensitivePaths.ts has the English text of each), by id: the card shows
 * the catalogue's text of it (src/shared/panelStringsAgent.ts) in the user's language.
 */
export const cautionIds = [
  'git',
  'gitSettings',
  'gitHooks',
  'vscode',
  'codeWorkspace',
  'devContainer',
  'instructions',
  'ci',
  'container',
  'buildWrapper',
  'pythonStartup',
  'compiledPython',
  'installedPackages',
  'packageManifest',
  'buildFile',
  'toolsOnTheirOwn',
  'toolConfig',
  'toolFile',
  'dotName',
  'virtualEnv',
  'ignored',
] as const;

/** One of `cautionIds`. */
export type CautionId = (typeof cautionIds)[number];

/** A caution by id, with the values its text uses (`name`: the dot-named segment of `dotName`). */
export interface CautionRule {
  readonly id: CautionId;
  readonly values?: Readonly<Record<string, string>>;
}

/**
 * Why reading a file is asked first (core/tools/sensitivePaths.ts has the English text), by id: `secretFile`
 * with `name` (the file's name), and `path` and `target` when the path asked for is a link leading to it. The
 * card shows the catalogue's text of it in the user's language.
 */
export const readReasonIds = ['secretFile'] as const;

/** A read's reason by id, with the values its text uses. */
export interface ReadReasonRule {
  readonly id: (typeof readReasonIds)[number];
  readonly values: Readonly<Record<string, string>>;
}

/**
 * A change an agent's call proposes, as its card shows it before and after the user decides, and as the
 * conversation saves it (the editor's diff view has the whole file; this is the card's). `caution` says why
 * the file can run code or change the editor, in English: the card shows it (or the translation of
 * `cautionRule`, beside it) and offers no allowance.
 */
export type ChangeView =
  /** edit_file: a compact diff of the replaced region (the editor's diff view shows the whole file); `replacements` when replace_all changes more than one place. */
  | {
      readonly kind: 'edit';
      readonly path: string;
      readonly diff: string;
      readonly caution?: string;
      readonly cautionRule?: CautionRule;
      readonly replacements?: number;
    }
  /** create_file: the head of the new file (`omitted`: the lines and characters not shown; "Show diff" opens it all). */
  | {
      readonly kind: 'create';
      readonly path: string;
      readonly content: string;
      readonly caution?: string;
      readonly cautionRule?: CautionRule;
      readonly omitted?: { readonly lines: number; readonly characters: number };
    }
  /** read_file of a git-ignored secret: asked first, with why (in English; `reasonRule` for the card's translation). */
  | { readonly kind: 'read'; readonly path: string; readonly reason: string; readonly reasonRule?: ReadReasonRule }
  /** run_in_terminal: the command in full, where it runs, and its time limit. */
  | { readonly kind: 'terminal'; readonly command: string; readonly cwd?: string; readonly timeoutSeconds: number }
  /**
   * A tool of another extension or an MCP server not marked read-only: its name in VS Code and where it comes
   * from; the card shows the call's arguments in full, and that a checkpoint does not hold what it changes.
   */
  | { readonly kind: 'external'; readonly tool: string; readonly origin: string };

/** One tool call of an agent step: the card's function, arguments, status, result and proposed change. */
export interface ToolCallView {
  /** Position in the step's calls: the card's key while the call forms (its id may come later). */
  readonly index: number;
  /** The model's call id; `tool/approve` names it. Empty while forming without one. */
  readonly id: string;
  readonly name: string;
  /** The arguments as the model wrote them (JSON text, possibly still incomplete while forming). */
  readonly arguments: string;
  readonly status: ToolCallStatusView;
  /** What the model was sent back. */
  readonly result?: string;
  /** Why a `failed` call failed; the card says it in the user's language above `result`. */
  readonly failure?: ToolFailure;
  readonly change?: ChangeView;
  /** Where a VS Code tool comes from (an extension id, "MCP server x", "VS Code"); absent for Cadenza's own functions. */
  readonly origin?: string;
  /** Images the tool returned (data URLs), shown in the card. */
  readonly images?: readonly { readonly mimeType: string; readonly dataUrl: string; readonly bytes: number }[];
}

/**
 * The checkpoint of an agent turn that changed files: the files and how, shown under the turn's last step
 * with "Show changes" (a multi-file diff) and "Restore to before this turn". `restoredAt` once restored.
 */
export interface CheckpointView {
  readonly id: string;
  readonly files: readonly { readonly path: string; readonly change: 'edited' | 'created' | 'deleted' }[];
  readonly restoredAt?: number;
  /**
   * Set when the turn ran in other workspace folders than this window's (the paths of those folders): the
   * panel names them instead of offering Restore, which would write into this window's files.
   */
  readonly recordedIn?: readonly string[];
}

/** One message of a conversation as the panel shows it. */
/** What a conversation's agent may do: `plan` only reads (and ends with a plan), `act` also proposes changes (core/tools/agentMode.ts). */
export type AgentMode = 'plan' | 'act';

/** The modes, for checks of untrusted input (the panel, the settings). */
export const agentModes = ['plan', 'act'] as const satisfies readonly AgentMode[];

export interface MessageView {
  readonly id: string;
  readonly role: 'user' | 'assistant' | 'system' | 'note';
  readonly text: string;
  readonly imageDataUrl?: string;
  /** The name of an attached audio file (the audio itself stays in the host). */
  readonly audioName?: string;
  readonly model?: string;
  readonly streaming?: boolean;
  readonly stopped?: boolean;
  readonly usage?: UsageView;
  readonly error?: ErrorView;
  readonly sources?: readonly SourceView[];
  /** The tool calls of an agent step. */
  readonly toolCalls?: readonly ToolCallView[];
  /** Why an agent answer ended early (the step limit) or was asked for without tools (a repeated call, the last step). */
  readonly agentStop?: string;
  /** A reasoning model's thinking (shown as a collapsed "Thinking" section) and how long it took. */
  readonly reasoning?: { readonly text: string; readonly ms: number };
  /** The checkpoint of the agent turn this message closes, when the turn changed files. */
  readonly checkpoint?: CheckpointView;
  /** What the message's @-mentions attached, as chips: what each adds, its token cost, a note when cut. */
  readonly context?: readonly ContextChipView[];
  /** The prompt file this message ran (its chip: `/name`, where it is, untrusted in Restricted Mode); `text` is the prompt filled in. */
  readonly prompt?: { readonly name: string; readonly source: string; readonly untrusted: boolean };
  /** The mode the answer was made in (an assistant message since modes exist), shown as a label on it. */
  readonly mode?: AgentMode;
}

/** A piece of context attached to a user message, as its chip shows it. */
export interface ContextChipView {
  readonly kind: string;
  readonly label: string;
  readonly tokens: number;
  readonly note?: string;
}

/** The title core gives a conversation before its first message; the panel shows it in the user's language. */
export const untitledConversationTitle = 'New chat';

/** An entry of the conversation list. */
export interface ConversationSummary {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
}

/**
 * A summary sent instead of a conversation's older messages (which stay shown): the panel shows it after
 * `throughMessageId`, editable.
 */
export interface CondensedView {
  readonly summary: string;
  readonly throughMessageId: string;
  readonly messageCount: number;
  readonly model: string;
  readonly edited?: boolean;
}

/** The open conversation, whole. */
export interface ConversationView {
  readonly id: string;
  readonly title: string;
  readonly model?: string;
  readonly options: ChatOptions;
  readonly messages: readonly MessageView[];
  /** The summary of its older messages, when it was condensed. */
  readonly condensed?: CondensedView;
  /** The mode its next answer runs in (Plan in Restricted Mode, whatever it was saved with). */
  readonly mode: AgentMode;
  /** Why the mode cannot be switched now (Restricted Mode), or absent when it can. */
  readonly modeLocked?: string;
}

/** A language model tool registered in VS Code (by another extension, an MCP server, or VS Code), as the tools menu lists it. */
export interface VscodeToolView {
  /** The name VS Code knows it by. */
  readonly name: string;
  /** The name the model calls it by (differs when it collides with Cadenza's own functions). */
  readonly wireName: string;
  readonly description: string;
  /** The extension id, "MCP server x", or "VS Code". */
  readonly source: string;
  readonly kind: 'extension' | 'mcp' | 'vscode';
  /** Marked read-only by its extension (the only kind Restricted Mode offers). */
  readonly readOnly: boolean;
  /** Tokens its schema adds to every agent request while it is enabled. */
  readonly tokens: number;
  /** Enabled for this workspace. */
  readonly enabled: boolean;
  /** Held back: the workspace is in Restricted Mode and the tool is not marked read-only. */
  readonly blocked: boolean;
}
