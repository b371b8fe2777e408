import * as vscode from 'vscode';
import type { InferenceClient } from '../../core/api/client';
import { deferredStream } from '../../core/api/deferredStream';
import type { ChatRequest, ModelInfo, ToolDefinition } from '../../core/api/types';
import { fallbackContextLength } from '../../core/chat/requestBuilder';
import { contextOverflowMessage, fitRequest, type FitLimits } from '../../core/chat/lmFit';
import { modelLimits, readSampling, toChatMessages, toToolDefinition, type LmSampling } from '../../core/chat/lmMessages';
import { chatMessageText, lmMessageText, LmTokenCounter, TokenCalibration, toolsText } from '../../core/chat/lmTokenCount';
import { runTurn, type TurnRequest } from '../../core/chat/runTurn';
import type { ServiceConnection } from '../service/connection';
import type { HostContext } from '../context';
import { commandIds } from '../ids';
import { abortSignalOf } from './cancellation';
import { chatErrorMessage, isCancel, ShownError } from './lmErrors';
import { toLmMessage } from './messageParts';

/** The vendor of Cadenza's models in VS Code (`languageModelChatProviders` contributes it). */
export const lmVendor = 'cadenza';

/** A Cadenza model as VS Code lists it; VS Code hands the same object back with each request. */
export interface CadenzaModelInformation extends vscode.LanguageModelChatInformation {
  /** The listing entry the information was made from. */
  readonly listed: ModelInfo;
}

function formatTokens(count: number): string {
  return count >= 1024 && count % 1024 === 0 ? `${count / 1024}K` : count.toLocaleString('en-US');
}

/** What VS Code's model picker shows for a listed chat model: limits and capabilities from the capability table. */
export function toInformation(model: ModelInfo): CadenzaModelInformation {
  const limits = modelLimits(model);
  const vision = model.capabilities.includes('vision');
  const tools = model.capabilities.includes('tools');
  const features = [vision ? 'images' : '', tools ? 'tools' : ''].filter((entry) => entry !== '');
  const price = model.pricing
    ? ` · $${(model.pricing.promptPerToken * 1e6).toFixed(2)} / $${(model.pricing.completionPerToken * 1e6).toFixed(2)} per 1M tokens in / out`
    : '';
  const context = model.contextLength === undefined ? 'context not listed' : `${formatTokens(model.contextLength)} context`;
  return {
    id: model.id,
    name: model.id,
    family: model.id,
    version: '1',
    detail: 'Cadenza',
    tooltip: `${model.id} on Cadenza: ${context}, up to ${formatTokens(limits.maxOutputTokens)} output tokens${features.length > 0 ? `, ${features.join(' and ')}` : ''}${price}`,
    maxInputTokens: limits.maxInputTokens,
    maxOutputTokens: limits.maxOutputTokens,
    capabilities: { imageInput: vision, toolCalling: tools },
    listed: model,
  };
}

/** The models VS Code may offer: those that chat (the capability table decides). */
export function chatModels(models: readonly ModelInfo[]): ModelInfo[] {
  return models.filter((model) => model.capabilities.includes('chat'));
}

function signatureOf(models: readonly ModelInfo[]): string {
  return JSON.stringify(chatModels(models).map((model) => [model.id, model.contextLength, model.maxCompletionTokens, model.capabilities]));
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** Sampling within the spec's limits: callers such as agents send values the service would refuse. */
function withinLimits(sampling: LmSampling, maxOutput: number, fallbackMax: number): Partial<ChatRequest> {
  return {
    maxTokens: clamp(sampling.maxTokens ?? fallbackMax, 1, maxOutput),
    ...(sampling.temperature !== undefined ? { temperature: clamp(sampling.temperature, 0, 1) } : {}),
    ...(sampling.topP !== undefined ? { topP: clamp(sampling.topP, 0, 1) } : {}),
    ...(sampling.topK !== undefined ? { topK: clamp(sampling.topK, 1, 100) } : {}),
    ...(sampling.stop !== undefined ? { stop: sampling.stop.slice(0, 4) } : {}),
  };
}

/**
 * Cadenza's chat models in VS Code's own chat (`vscode.lm.registerLanguageModelChatProvider`): lists
 * the service's chat models with their limits and capabilities, streams text and tool calls, and
 * estimates token counts. Never throws from the listing: no key or a failed listing is an empty list.
 */
export class CadenzaChatProvider implements vscode.LanguageModelChatProvider<CadenzaModelInformation>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** What VS Code was last told (or would be told now); the event fires only when it changes. */
  private signature = signatureOf([]);
  /** Tokens per character each model's requests came to (from the usage the service reports). */
  private readonly calibration = new TokenCalibration();
  /** One counter per client, i.e. per chat server: whether it has a tokenizer is asked once. */
  private readonly counters = new WeakMap<InferenceClient, LmTokenCounter>();

  /** Fires when the service's list changed (address, key, refresh): VS Code asks for the list again. */
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(
    private readonly host: HostContext,
    private readonly connection: ServiceConnection,
  ) {
    this.disposables.push(
      this.changed,
      // Only a changed list is announced: a failed listing stays empty, so asking again (which may list
      // again) cannot loop.
      connection.onDidChangeModels((state) => {
        if (state.loading) return;
        const next = signatureOf(state.models);
        if (next === this.signature) return;
        this.signature = next;
        this.changed.fire();
      }),
      // Without a key no model is offered, even where the service lists models without one.
      host.apiKey.onDidChange(() => this.changed.fire()),
    );
  }

  /** The service's chat models; an empty list (logged) without a key or when the listing fails. */
  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    _token: vscode.CancellationToken,
  ): Promise<CadenzaModelInformation[]> {
    try {
      if (!(await this.host.apiKey.get())) {
        this.host.log.info('VS Code asked for Cadenza models, but no API key is set: none offered.');
        if (!options.silent) {
          void vscode.window
            .showInformationMessage(vscode.l10n.t("Set your Cadenza API key to use the service's models in VS Code's chat."), vscode.l10n.t('Set API Key'))
            .then((choice) => {
              if (choice) void vscode.commands.executeCommand(commandIds.setApiKey);
            });
        }
        return [];
      }
      const models = await this.connection.ensureModels();
      const error = this.connection.models.error;
      if (models.length === 0 && error !== undefined) this.host.log.warn(`No Cadenza models offered to VS Code: ${chatErrorMessage(error)}`);
      this.signature = signatureOf(models);
      return chatModels(models).map(toInformation);
    } catch (error) {
      this.host.log.warn(`No Cadenza models offered to VS Code: ${chatErrorMessage(error)}`);
      return [];
    }
  }

  /** Streams the answer (core/chat/runTurn.ts): text as it comes, each tool call once it is complete. A cancel ends quietly. */
  async provideLanguageModelChatResponse(
    model: CadenzaModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const abort = abortSignalOf(token);
    const listed = this.connection.model(model.id) ?? model.listed;
    /** What went out, for the calibration; and why nothing did, when the request could not fit. */
    let sent: ChatRequest | undefined;
    let refused: string | undefined;
    const turn = runTurn(
      {
        // VS Code names the model: this provider answers with it, no other.
        model: () => Promise.resolve({ id: model.id, info: listed }),
        context: async (_chosen, signal) => {
          const built = await this.request(model, listed, messages, options, signal);
          if ('refused' in built) refused = built.refused;
          else sent = { ...built.request.request, ...(built.tools.length > 0 ? { tools: built.tools } : {}) };
          return 'refused' in built ? built.turn : built.request;
        },
        stream: (request, callOptions) => deferredStream(async () => (await this.connection.client()).streamChat(request, callOptions)),
      },
      abort.signal,
    );
    // Thinking goes out as thinking parts where this VS Code has them; elsewhere it is left out (never as answer text).
    const thinkingPart = thinkingPartConstructor();
    try {
      for await (const event of turn) {
        if (event.type === 'text') progress.report(new vscode.LanguageModelTextPart(event.text));
        else if (event.type === 'thinking') {
          if (thinkingPart) progress.report(new thinkingPart(event.text) as unknown as vscode.LanguageModelResponsePart);
        } else if (event.type === 'toolRequest') {
          const call = event.call;
          if (call.malformed !== undefined) this.host.log.warn(`${model.id} sent arguments for ${call.name} that are not a JSON object; passed on as {}.`);
          if (call.name === '') this.host.log.warn(`${model.id} sent a tool call without a name; dropped.`);
          else progress.report(new vscode.LanguageModelToolCallPart(call.id, call.name, call.input));
        } else if (event.type === 'usage') {
          // Only a count the service reported teaches anything (without one the report is the estimate itself).
          const usage = event.result.usage;
          if (sent && usage.source.tokens === 'service' && usage.promptTokens !== undefined) this.calibrate(model.id, sent, usage.promptTokens);
        } else if (event.type === 'done' && event.outcome === 'stopped') {
          this.host.log.debug(`A VS Code chat request to ${model.id} was cancelled.`);
        } else if (event.type === 'error') {
          if (refused !== undefined) throw new ShownError(refused);
          this.host.log.warn(`A VS Code chat request to ${model.id} failed: ${chatErrorMessage(event.error)}`);
          // The message alone: VS Code's chat shows an error's stack (and the cause's) beside its message.
          throw new ShownError(chatErrorMessage(event.error));
        }
      }
    } finally {
      abort.dispose();
    }
  }

  /**
   * The request for VS Code's messages: mapped for the service (one image, tools only to a model that can
   * call them), counted by the same rules as provideTokenCount and fitted (the oldest turns go rather than
   * the request failing), or refused, saying why, when it cannot fit.
   */
  private async request(
    model: CadenzaModelInformation,
    listed: ModelInfo,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    signal: AbortSignal,
  ): Promise<{ readonly request: TurnRequest; readonly tools: readonly ToolDefinition[] } | { readonly refused: string; readonly turn: TurnRequest }> {
    const limits = modelLimits(listed);
    const mapped = toChatMessages(messages.map(toLmMessage), { imageInput: model.capabilities.imageInput === true });
    if (mapped.droppedImages > 0)
      this.host.log.info(
        `${mapped.droppedImages} image(s) of a VS Code chat request replaced by a note: the service takes one image per request (the newest is kept).`,
      );
    // The service refuses tools for a model that cannot call them (400 model_not_compatible).
    const offered = model.capabilities.toolCalling ? (options.tools ?? []) : [];
    if (offered.length < (options.tools?.length ?? 0))
      this.host.log.info(`${model.id} cannot call tools; the request's ${options.tools?.length ?? 0} tools were not sent.`);
    const tools = offered.map(toToolDefinition);
    const client = await this.connection.client();
    const fitLimits: FitLimits = { model: model.id, contextTokens: listed.contextLength ?? fallbackContextLength, inputTokens: limits.maxInputTokens };
    const fitted = await fitRequest(this.counterFor(client), mapped.messages, tools, fitLimits, signal);
    const base: ChatRequest = { model: model.id, messages: [], includeUsage: true };
    if (!fitted.fits) {
      const refused = contextOverflowMessage(fitLimits, fitted);
      this.host.log.warn(`A VS Code chat request to ${model.id} was not sent: ${refused}`);
      return {
        refused,
        turn: { request: base, fit: { fits: false, usedTokens: fitted.tokens, limitTokens: fitLimits.inputTokens, droppedMessages: 0, overflow: refused } },
      };
    }
    if (fitted.droppedMessages > 0)
      this.host.log.info(
        `${fitted.droppedMessages} message(s) of the oldest turns of a VS Code chat request left out to fit ${model.id}'s context (about ${fitted.tokens} of ${fitLimits.inputTokens} tokens).`,
      );
    const request: ChatRequest = {
      model: model.id,
      messages: fitted.messages,
      ...withinLimits(readSampling(options.modelOptions as Readonly<Record<string, unknown>> | undefined), limits.maxOutputTokens, limits.defaultMaxTokens),
      includeUsage: true,
    };
    const toolChoice = options.toolMode === vscode.LanguageModelChatToolMode.Required ? ('required' as const) : ('auto' as const);
    const fit = { fits: true, usedTokens: fitted.tokens, limitTokens: fitLimits.inputTokens, droppedMessages: fitted.droppedMessages };
    return { request: { request, fit, tools: { kind: 'offer', definitions: tools, toolChoice } }, tools };
  }

  /**
   * The chat server's own count where it has a tokenizer (llama-server), else an estimate calibrated from
   * what the service reported for this model's earlier requests (about four characters a token at first).
   */
  async provideTokenCount(
    model: CadenzaModelInformation,
    text: string | vscode.LanguageModelChatRequestMessage,
    token: vscode.CancellationToken,
  ): Promise<number> {
    const abort = abortSignalOf(token);
    try {
      const counter = this.counterFor(await this.connection.client());
      return typeof text === 'string'
        ? await counter.countText(model.id, text, abort.signal)
        : await counter.countMessage(model.id, lmMessageText(toLmMessage(text)), abort.signal);
    } catch (error) {
      if (isCancel(error, abort.signal)) return 0;
      throw new ShownError(chatErrorMessage(error));
    } finally {
      abort.dispose();
    }
  }

  private counterFor(client: InferenceClient): LmTokenCounter {
    let counter = this.counters.get(client);
    if (counter === undefined) {
      counter = new LmTokenCounter({
        tokenize: (text, signal) => client.countTokens(text, signal ? { signal } : {}),
        calibration: this.calibration,
        logger: this.host.log,
      });
      this.counters.set(client, counter);
    }
    return counter;
  }

  /** Learns the model's tokens per character from a request the service reported on. */
  private calibrate(model: string, request: ChatRequest, promptTokens: number): void {
    const counted = request.messages.map(chatMessageText);
    const chars = counted.reduce((sum, entry) => sum + entry.text.length, 0) + toolsText(request.tools ?? []).length;
    this.calibration.record(model, { chars, images: counted.reduce((sum, entry) => sum + entry.images, 0) }, promptTokens);
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/**
 * `vscode.LanguageModelThinkingPart`, where the running VS Code exposes it (newer releases; a proposed API
 * in older ones, absent there without the proposal). Looked up at run time so one VSIX serves both.
 */
export function thinkingPartConstructor(): (new (value: string) => unknown) | undefined {
  const candidate: unknown = (vscode as unknown as Record<string, unknown>)['LanguageModelThinkingPart'];
  return typeof candidate === 'function' ? (candidate as new (value: string) => unknown) : undefined;
}
