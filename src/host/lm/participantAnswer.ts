import * as vscode from 'vscode';
import { deferredStream } from '../../core/api/deferredStream';
import { ApiError } from '../../core/api/errors';
import type { ChatMessage, ModelInfo, ToolDefinition } from '../../core/api/types';
import { fitToContext } from '../../core/chat/contextBudget';
import { modelLimits, toToolDefinition } from '../../core/chat/lmMessages';
import { runTurn } from '../../core/chat/runTurn';
import type { ServiceConnection } from '../service/connection';
import { effectiveModel } from '../chat/modelResolution';
import type { HostContext } from '../context';
import { commandIds } from '../ids';
import { readChatDefaults } from '../settings';
import { lmVendor } from './chatProvider';
import { isCancel } from './lmErrors';
import { toolResultText } from './messageParts';
import { isAudioPath } from './transcription';

/** What the participant needs from the rest of the extension. */
export interface ParticipantDeps {
  readonly host: HostContext;
  readonly connection: ServiceConnection;
  /** The model the user selected for Cadenza (the chat panel's), if any. */
  readonly preferredModel: () => Promise<string | undefined>;
}

/** Rounds of tool calls before the model must answer (a participant should not loop forever). */
const maxToolRounds = 3;

const defaultSystemPrompt = "You are Cadenza, an assistant inside VS Code's chat. Answer in Markdown and put code in fenced blocks with its language.";

/**
 * The model that answers, by the one resolution every entry point uses (core/chat/modelChoice.ts): the chat
 * request's model when it is a Cadenza one the service lists, else what the panel would answer with now (the
 * open conversation's model, the setting, the last model used, the default). Undefined when none can be chosen.
 * It changes nothing: the panel's last model used stays the panel's.
 */
export async function chooseModel(deps: ParticipantDeps, requestModel: vscode.LanguageModelChat | undefined): Promise<ModelInfo | undefined> {
  await deps.connection.ensureModels();
  const requested = requestModel?.vendor === lmVendor ? requestModel.id : undefined;
  const choice = effectiveModel(deps.host, deps.connection, await deps.preferredModel(), requested);
  if (!choice) return undefined;
  const listed = deps.connection.model(choice.id);
  if (listed) return listed;
  // An explicit choice the service does not list (the setting, the conversation's) is asked for as the panel would ask.
  const capabilities = (await deps.connection.client()).capabilitiesOf(choice.id);
  return { id: choice.id, ownedBy: undefined, contextLength: undefined, maxCompletionTokens: undefined, pricing: undefined, capabilities, family: undefined };
}

/** Tells the user how to get a model: a key, or a service address that lists chat models. */
export async function explainMissingSetup(deps: ParticipantDeps, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  if (!(await deps.host.apiKey.get())) {
    stream.markdown(vscode.l10n.t('Cadenza needs your API key before it can answer.'));
    stream.button({ command: commandIds.setApiKey, title: vscode.l10n.t('Set API Key') });
    return { errorDetails: { message: vscode.l10n.t('No Cadenza API key is set.') } };
  }
  return {
    errorDetails: {
      message: vscode.l10n.t('The service lists no chat model. Check the service address (cadenza.baseUrl) and run "Cadenza: Refresh Models".'),
    },
  };
}

/** Earlier turns with this participant, as messages (the response's Markdown and link titles). */
function historyMessages(context: vscode.ChatContext): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      messages.push({ role: 'user', content: `${turn.command ? `/${turn.command} ` : ''}${turn.prompt}` });
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((part) => {
          if (part instanceof vscode.ChatResponseMarkdownPart) return part.value.value;
          if (part instanceof vscode.ChatResponseAnchorPart)
            return part.title ?? (part.value instanceof vscode.Uri ? part.value.fsPath : part.value.uri.fsPath);
          return '';
        })
        .join('');
      if (text.trim() !== '') messages.push({ role: 'assistant', content: text });
    }
  }
  return messages;
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(longest + 1);
}

/** A code block headed with its file and lines, safe for code that itself holds fences. */
export function codeBlock(fileName: string, language: string, text: string, lines?: { start: number; end: number }): string {
  const marker = fence(text);
  return `${fileName}${lines ? ` (lines ${lines.start}-${lines.end})` : ''}:\n${marker}${language}\n${text}\n${marker}`;
}

/** Cuts a referenced text to what the prompt can hold, saying so. */
function capped(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n… (cut: the rest does not fit the model's context)`;
}

/** The text of the request's references (#file, selections, plain values), as context blocks of at most `maxChars` in all. */
export async function referenceBlocks(references: readonly vscode.ChatPromptReference[], maxChars: number): Promise<string[]> {
  const blocks: string[] = [];
  let left = maxChars;
  // References come sorted from the end of the prompt; the prompt's order reads better.
  for (const reference of [...references].reverse()) {
    const value = reference.value;
    try {
      if (value instanceof vscode.Location || value instanceof vscode.Uri) {
        const uri = value instanceof vscode.Uri ? value : value.uri;
        if (isAudioPath(uri.path)) {
          blocks.push(`(Referenced audio file ${vscode.workspace.asRelativePath(uri)}: ask \`@cadenza /transcribe\` to transcribe it.)`);
          continue;
        }
        const document = await vscode.workspace.openTextDocument(uri);
        const range = value instanceof vscode.Location && !value.range.isEmpty ? value.range : undefined;
        const lines = range ? { start: range.start.line + 1, end: range.end.line + 1 } : undefined;
        const text = capped(document.getText(range), Math.max(0, left));
        left -= text.length;
        blocks.push(codeBlock(vscode.workspace.asRelativePath(uri), document.languageId, text, lines));
      } else if (typeof value === 'string' && value.trim() !== '') {
        const text = capped(value, Math.max(0, left));
        left -= text.length;
        blocks.push(`${reference.modelDescription ?? reference.id}:\n${text}`);
      }
    } catch {
      // A binary file or one that cannot be opened: its name is all the model gets.
      if (value instanceof vscode.Uri) blocks.push(`(Referenced file ${vscode.workspace.asRelativePath(value)} could not be read as text.)`);
    }
  }
  return blocks;
}

function parseInput(text: string): object {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}

/** The tools the user attached to the request (`#tool`), as the service takes them. */
function referencedTools(request: vscode.ChatRequest): ToolDefinition[] {
  const names = new Set(request.toolReferences.map((reference) => reference.name));
  return vscode.lm.tools.filter((tool) => names.has(tool.name)).map(toToolDefinition);
}

/** The tools VS Code has among `names`, leaving out those already `offered`. */
function namedTools(names: readonly string[], offered: readonly ToolDefinition[]): ToolDefinition[] {
  const wanted = new Set(names);
  return vscode.lm.tools.filter((tool) => wanted.has(tool.name) && !offered.some((definition) => definition.name === tool.name)).map(toToolDefinition);
}

/** What to ask and what the model is given besides the history. */
export interface Question {
  /** The user's message as the model reads it (prompt, code, references). */
  readonly text: string;
  readonly command?: string;
  /**
   * The tools offered besides those the user attached: `none` offers no tool at all, not even attached ones
   * (a prompt file from an untrusted workspace); a list adds the named tools VS Code has (a prompt file's `tools`).
   */
  readonly tools?: 'none' | readonly string[];
}

/**
 * Answers with the service, streaming Markdown: system prompt, this participant's history and the
 * question, fitted into the model's context (core/chat/runTurn.ts runs the turn). Tools the user attached
 * (`#tool`) are offered; the first round must call one (the API asks for Required mode then), the calls run
 * through `vscode.lm.invokeTool` with the request's `toolInvocationToken` (so VS Code shows them and their
 * confirmations in this chat), and the results go back to the model, for at most three rounds.
 */
export async function answer(
  deps: ParticipantDeps,
  model: ModelInfo,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  question: Question,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  signal: AbortSignal,
): Promise<vscode.ChatResult> {
  const limits = modelLimits(model);
  const attached = referencedTools(request);
  let tools = question.tools === 'none' ? [] : [...attached, ...namedTools(question.tools ?? [], attached)];
  if (tools.length > 0 && !model.capabilities.includes('tools')) {
    const names = new Intl.ListFormat(vscode.env.language, { type: 'conjunction' }).format(tools.map((tool) => `#${tool.name}`));
    stream.markdown(`${vscode.l10n.t('*{0} cannot call tools; answering without {1}.*', model.id, names)}\n\n`);
    tools = [];
  }
  const system = readChatDefaults().options.systemPrompt?.trim() || defaultSystemPrompt;
  const entries = [
    { role: 'system' as const, message: { role: 'system', content: system } satisfies ChatMessage },
    ...historyMessages(context).map((message) => ({ role: message.role, message })),
    { role: 'user' as const, message: { role: 'user', content: question.text } satisfies ChatMessage },
  ];
  const budget = fitToContext(
    entries.map((entry) => ({ ...entry, text: typeof entry.message.content === 'string' ? entry.message.content : '' })),
    model.contextLength ?? limits.maxInputTokens + limits.defaultMaxTokens,
    limits.defaultMaxTokens,
  );
  const turn = runTurn(
    {
      model: () => Promise.resolve({ id: model.id, info: model }),
      context: () =>
        Promise.resolve({
          request: { model: model.id, messages: budget.kept.map((entry) => entry.message), maxTokens: limits.defaultMaxTokens, includeUsage: true },
          // A tool the user attached is meant to be used: the first round must call one. Tools a prompt file names are offered.
          ...(tools.length > 0
            ? {
                tools: {
                  kind: 'invoke' as const,
                  definitions: tools,
                  rounds: maxToolRounds,
                  firstChoice: attached.length > 0 ? ('required' as const) : ('auto' as const),
                },
              }
            : {}),
        }),
      stream: (next, options) => deferredStream(async () => (await deps.connection.client()).streamChat(next, options)),
      invoke: async (call) => {
        try {
          const output = await vscode.lm.invokeTool(call.name, { input: parseInput(call.arguments), toolInvocationToken: request.toolInvocationToken }, token);
          return toolResultText(output.content);
        } catch (error) {
          if (isCancel(error, signal) || error instanceof vscode.CancellationError) throw error;
          return `The tool failed: ${error instanceof Error ? error.message : String(error)}`;
        }
      },
    },
    signal,
  );
  let toolCalls = 0;
  let thinking = false;
  for await (const event of turn) {
    if (event.type === 'step') thinking = false;
    else if (event.type === 'text') stream.markdown(event.text);
    else if (event.type === 'thinking' && !thinking) {
      // A reasoning model's thinking is shown as progress, not as part of the answer.
      thinking = true;
      stream.progress(vscode.l10n.t('{0} is thinking…', model.id));
    } else if (event.type === 'toolCall' && event.call.status === 'running') toolCalls += 1;
    else if (event.type === 'error') throw event.error;
    else if (event.type === 'done' && event.outcome === 'stopped') throw new ApiError('canceled', 'Stopped by the user');
  }
  return { metadata: { command: question.command ?? '', model: model.id, droppedMessages: budget.droppedCount, toolCalls } };
}
