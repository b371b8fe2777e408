import * as vscode from 'vscode';
import { estimateTokens } from '../../core/chat/contextBudget';
import { CompletionRouter } from '../../core/completions/completionRoute';
import { fetchCompletion, type CompletionAnswer } from '../../core/completions/fetchCompletion';
import { fetchInfill } from '../../core/completions/fetchInfill';
import { buildInfillPrompt } from '../../core/completions/infillPrompt';
import { addUsage, localDay, overDailyCap, usageOn, type CompletionUsageDay } from '../../core/completions/ledger';
import { resolveCompletionModel } from '../../core/completions/model';
import { buildCompletionPrompt } from '../../core/completions/prompt';
import { CompletionScheduler, type CompletionRequest, type SchedulerStats, type SuggestionSource } from '../../core/completions/scheduler';
import type { ServiceConnection } from '../service/connection';
import type { HostContext } from '../context';
import type { IndexService } from '../index/indexService';
import { readCompletionSettings, type CompletionSettings } from '../settings';
import { CompletionGate } from './completionGate';
import { ContextSnippets } from './contextSnippets';
import { usageText } from './usageText';

/** What the provider did for one call (the status bar, the log and the integration tests watch this). */
export interface CompletionDecision {
  readonly uri: string;
  readonly outcome: 'suggested' | 'none' | 'skipped';
  /** For `skipped`: why nothing was asked. */
  readonly reason?: string;
  readonly source?: SuggestionSource;
  readonly text?: string;
}

/** Whether completions run, and if not, why (the status bar shows it). */
export type CompletionState =
  | { readonly kind: 'on'; readonly model: string | undefined }
  | { readonly kind: 'off' | 'restricted' | 'inlineSuggestOff' | 'capped' }
  | { readonly kind: 'snoozed'; readonly until: number };

interface HostRequest extends CompletionRequest {
  readonly document: vscode.TextDocument;
  readonly model: string;
}

const usageKey = 'cadenza.completions.usage';
const PREFIX_CHARS = 8_000;
const SUFFIX_CHARS = 2_000;

/**
 * Inline completions: registers the provider while completions are on (and the workspace is trusted, or
 * the user allowed Restricted Mode), gates each call (snooze, language, `editor.inlineSuggest.enabled`,
 * the file gate, the daily cap, a key, a model), and asks through the core scheduler, which debounces,
 * aborts what the user typed past, and reuses what it can. Usage is counted per day apart from chat.
 */
export class CompletionService implements vscode.Disposable {
  private settings: CompletionSettings = readCompletionSettings();
  private scheduler: CompletionScheduler<HostRequest>;
  private registration: vscode.Disposable | undefined;
  private snoozeUntil = 0;
  private snoozeTimer: ReturnType<typeof setTimeout> | undefined;
  private lastModel: string | undefined;
  private readonly warned = new Set<string>();
  private readonly gate: CompletionGate;
  private readonly snippets: ContextSnippets;
  /** Which path (fill-in-the-middle or chat) each server and model takes, probed once a session. */
  private readonly router = new CompletionRouter();
  private readonly changed = new vscode.EventEmitter<CompletionState>();
  private readonly decided = new vscode.EventEmitter<CompletionDecision>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Counters of the scheduler made before the current one (a debounce change makes a new one). */
  private readonly carried: SchedulerStats = { calls: 0, requests: 0, cancelled: 0, debounced: 0, cacheHits: 0, typedThrough: 0, inflightReuse: 0 };

  /** Fires when the state or today's usage changes. */
  readonly onDidChangeState = this.changed.event;
  /** Fires once per provider call with what it did. */
  readonly onDidDecide = this.decided.event;

  constructor(
    private readonly host: HostContext,
    private readonly connection: ServiceConnection,
    index?: IndexService,
  ) {
    this.gate = new CompletionGate(host.log);
    this.snippets = new ContextSnippets(this.gate, index);
    this.scheduler = this.makeScheduler();
    this.disposables.push(
      this.gate,
      this.snippets,
      this.changed,
      this.decided,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('cadenza.completions') && !event.affectsConfiguration('editor.inlineSuggest')) return;
        const debounce = this.settings.debounceMs;
        this.settings = readCompletionSettings();
        if (debounce !== this.settings.debounceMs) this.replaceScheduler();
        this.update();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()),
      // Edits reach the scheduler at once, so a request the user types past is aborted before VS Code asks again.
      vscode.workspace.onDidChangeTextDocument((event) => {
        const key = event.document.uri.toString();
        for (const change of event.contentChanges) this.scheduler.noteEdit(key, change.rangeOffset, change.rangeLength, change.text);
      }),
    );
    this.update();
  }

  /** The current state. */
  state(): CompletionState {
    if (!this.settings.enabled) return { kind: 'off' };
    if (!vscode.workspace.isTrusted && !this.settings.enableInRestrictedMode) return { kind: 'restricted' };
    if (!vscode.workspace.getConfiguration('editor').get<boolean>('inlineSuggest.enabled', true)) return { kind: 'inlineSuggestOff' };
    if (this.snoozeUntil > Date.now()) return { kind: 'snoozed', until: this.snoozeUntil };
    if (overDailyCap(this.storedUsage(), localDay(new Date()), this.settings.dailyTokenLimit)) return { kind: 'capped' };
    return { kind: 'on', model: this.lastModel };
  }

  /** Today's completion usage (apart from chat). */
  usageToday(): CompletionUsageDay {
    return usageOn(this.storedUsage(), localDay(new Date()));
  }

  /** Today's usage in words for the status bars; undefined before the day's first request. */
  usageSummary(): string | undefined {
    const day = this.usageToday();
    return day.requests === 0 ? undefined : usageText(day, this.settings.dailyTokenLimit);
  }

  /** The scheduler's counters since activation. */
  stats(): SchedulerStats {
    const now = this.scheduler.stats;
    const sum = { ...this.carried };
    for (const key of Object.keys(sum) as (keyof SchedulerStats)[]) sum[key] += now[key];
    return sum;
  }

  /** The daily limit in tokens (0: none). */
  dailyLimit(): number {
    return this.settings.dailyTokenLimit;
  }

  /** Pauses completions for `minutes` (0 resumes). */
  snooze(minutes: number): void {
    if (this.snoozeTimer) clearTimeout(this.snoozeTimer);
    this.snoozeTimer = undefined;
    this.snoozeUntil = minutes > 0 ? Date.now() + minutes * 60_000 : 0;
    this.scheduler.cancelAll();
    if (minutes > 0) this.snoozeTimer = setTimeout(() => this.update(), minutes * 60_000 + 50);
    this.update();
  }

  private storedUsage(): CompletionUsageDay | undefined {
    return this.host.extension.globalState.get<CompletionUsageDay>(usageKey);
  }

  private makeScheduler(): CompletionScheduler<HostRequest> {
    return new CompletionScheduler<HostRequest>({
      debounceMs: this.settings.debounceMs,
      fetch: (request, signal, onPartial) => this.fetch(request, signal, onPartial),
    });
  }

  private replaceScheduler(): void {
    this.scheduler.cancelAll();
    for (const key of Object.keys(this.carried) as (keyof SchedulerStats)[]) this.carried[key] += this.scheduler.stats[key];
    this.scheduler = this.makeScheduler();
  }

  /** Registers or unregisters the provider for the current settings and trust, and tells the status bar. */
  private update(): void {
    const active = this.settings.enabled && (vscode.workspace.isTrusted || this.settings.enableInRestrictedMode);
    if (active && !this.registration) {
      this.registration = vscode.languages.registerInlineCompletionItemProvider([{ scheme: 'file' }, { scheme: 'untitled' }], {
        provideInlineCompletionItems: (document, position, context, token) => this.provide(document, position, context, token),
      });
    } else if (!active && this.registration) {
      this.registration.dispose();
      this.registration = undefined;
      this.scheduler.cancelAll();
    }
    this.changed.fire(this.state());
  }

  private async provide(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    const uri = document.uri.toString();
    const skip = (reason: string): undefined => {
      this.decided.fire({ uri, outcome: 'skipped', reason });
      return undefined;
    };
    const state = this.state();
    if (state.kind !== 'on') return skip(state.kind);
    // The suggest widget is open: its item is what the user is choosing, not ghost text.
    if (context.selectedCompletionInfo !== undefined) return skip('suggestWidget');
    if (this.settings.disabledLanguages.includes(document.languageId)) return skip('language');
    if (!vscode.workspace.getConfiguration('editor', document).get<boolean>('inlineSuggest.enabled', true)) return skip('inlineSuggestOff');
    const verdict = await this.gate.verdict(document);
    if (verdict !== undefined) return skip(verdict);
    if ((await this.host.apiKey.get()) === undefined) return skip('noKey');
    const model = await this.model();
    if (model === undefined) return skip('noModel');
    if (token.isCancellationRequested) return skip('cancelled');

    const offset = document.offsetAt(position);
    const request: HostRequest = {
      document,
      model,
      documentKey: uri,
      offset,
      prefix: document.getText(new vscode.Range(document.positionAt(Math.max(0, offset - PREFIX_CHARS)), position)),
      suffix: document.getText(new vscode.Range(position, document.positionAt(offset + SUFFIX_CHARS))),
    };
    // VS Code's cancellation token becomes an AbortSignal at the edge (house style).
    const controller = new AbortController();
    const listener = token.onCancellationRequested(() => controller.abort());
    try {
      const suggestion = await this.scheduler.complete(request, controller.signal);
      if (!suggestion || token.isCancellationRequested) {
        this.decided.fire({ uri, outcome: 'none' });
        return undefined;
      }
      this.decided.fire({ uri, outcome: 'suggested', source: suggestion.source, text: suggestion.text });
      return [new vscode.InlineCompletionItem(suggestion.text, new vscode.Range(position, position))];
    } finally {
      listener.dispose();
    }
  }

  private async model(): Promise<string | undefined> {
    let models = this.connection.models.models;
    if (models.length === 0) models = await this.connection.ensureModels();
    const choice = resolveCompletionModel(this.settings.model, models);
    if (choice?.refused !== undefined && !this.warned.has(choice.refused)) {
      this.warned.add(choice.refused);
      this.host.log.warn(`Completions: ${choice.refused} cannot write completions (a reasoning, audio or embedding model); using ${choice.id}.`);
    }
    if (choice?.id !== this.lastModel) {
      this.lastModel = choice?.id;
      this.changed.fire(this.state());
    }
    return choice?.id;
  }

  private async fetch(request: HostRequest, signal: AbortSignal, onPartial: (text: string, ended: boolean) => void): Promise<string> {
    const { document } = request;
    const client = await this.connection.client();
    // The path is decided first (overrides, the hosted service, a probe remembered per server and model:
    // completionRoute.ts); everything after the request (cleaning, stopping, usage, the cap) is shared.
    const path = await this.router.pathFor(client, request.model, signal);
    const input = {
      path: document.isUntitled ? document.fileName : vscode.workspace.asRelativePath(document.uri, false),
      languageId: document.languageId,
      prefix: request.prefix,
      suffix: request.suffix,
      snippets: await this.snippets.collect(document, { prefix: request.prefix, suffix: request.suffix }),
    };
    let partial = '';
    const relay = (text: string, ended: boolean): void => {
      partial = text;
      onPartial(text, ended);
    };
    let promptTokens: number | undefined;
    try {
      let answer: CompletionAnswer;
      if (path === 'fim') {
        const prompt = buildInfillPrompt(input);
        promptTokens = prompt.promptTokens;
        answer = await fetchInfill({ port: client, model: request.model, prompt, signal, onPartial: relay }).catch((error: unknown) => {
          if (!signal.aborted) this.router.noteInfillFailure(client, request.model, error);
          throw error;
        });
      } else {
        const prompt = buildCompletionPrompt(input);
        promptTokens = prompt.promptTokens;
        answer = await fetchCompletion({ port: client, model: request.model, prompt, signal, onPartial: relay });
      }
      this.record(request.model, answer.usage.promptTokens, answer.usage.completionTokens);
      this.host.log.debug(
        `Completion from ${request.model} (${path === 'fim' ? 'fill-in-the-middle' : 'chat'}): ${answer.text.length} characters, ${answer.end}, first text after ${answer.firstTextMs?.toFixed(0) ?? '-'} ms.`,
      );
      return answer.text;
    } catch (error) {
      if (signal.aborted) {
        // A cancel is not an error (house style); a prompt already sent still counts.
        if (promptTokens !== undefined) this.record(request.model, promptTokens, estimateTokens(partial));
        this.host.log.debug('Completion request cancelled: the user typed past it.');
      } else {
        this.host.log.warn(`Completion failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      throw error;
    }
  }

  private record(modelId: string, promptTokens: number, completionTokens: number): void {
    const pricing = this.connection.model(modelId)?.pricing;
    const costUsd = pricing ? promptTokens * pricing.promptPerToken + completionTokens * pricing.completionPerToken : undefined;
    const next = addUsage(this.storedUsage(), localDay(new Date()), { promptTokens, completionTokens, costUsd });
    void this.host.extension.globalState.update(usageKey, next);
    this.changed.fire(this.state());
  }

  dispose(): void {
    if (this.snoozeTimer) clearTimeout(this.snoozeTimer);
    this.scheduler.cancelAll();
    this.registration?.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
