import * as vscode from 'vscode';
import { cleartextWarning, redactUrl } from '../../core/net/urlSafety';
import type { InferenceClient } from '../../core/api/client';
import type { CapabilityOverrides, ModelInfo } from '../../core/api/types';
import type { Capability } from '../../shared/views';
import type { HostContext } from '../context';
import { affectsEndpoints, readEndpoints } from '../endpoints';
import { affectsConnection, readTransportOptions } from '../network';
import { readSettings } from '../settings';

const capabilityNames: readonly string[] = [
  'chat',
  'vision',
  'tools',
  'json',
  'audioReasoning',
  'transcription',
  'embeddings',
  'fim',
] satisfies readonly Capability[];

function toOverrides(raw: ReturnType<typeof readSettings>['modelOverrides']): CapabilityOverrides {
  const overrides: Record<string, CapabilityOverrides[string]> = {};
  for (const [id, entry] of Object.entries(raw)) {
    overrides[id] = {
      ...(entry.capabilities ? { capabilities: entry.capabilities.filter((name): name is Capability => capabilityNames.includes(name)) } : {}),
      ...(entry.contextLength !== undefined ? { contextLength: entry.contextLength } : {}),
      ...(entry.maxCompletionTokens !== undefined ? { maxCompletionTokens: entry.maxCompletionTokens } : {}),
      ...(entry.family !== undefined ? { family: entry.family } : {}),
    };
  }
  return overrides;
}

/** The model list as last read from the service, and how that went. */
export interface ModelCatalogState {
  readonly models: readonly ModelInfo[];
  readonly loading: boolean;
  readonly error?: unknown;
}

/**
 * The service connection: one InferenceClient built from the settings (address, time-outs, retries,
 * overrides, proxy and certificates), rebuilt when they change, and the live model list from
 * GET /v1/models, cached and refreshed on demand and when the address changes.
 */
export class ServiceConnection implements vscode.Disposable {
  /** Addresses already warned about (http:// to another machine), so the warning comes once. */
  private readonly warnedCleartext = new Set<string>();
  private current: InferenceClient | undefined;
  private catalog: ModelCatalogState = { models: [], loading: false };
  private loadingList: Promise<readonly ModelInfo[]> | undefined;
  /** Bumped when the connection settings change, so a listing begun for the old address is dropped. */
  private generation = 0;
  private readonly changedModels = new vscode.EventEmitter<ModelCatalogState>();
  private readonly disposables: vscode.Disposable[] = [];

  /** Fires when the model list (or its loading state) changes. */
  readonly onDidChangeModels = this.changedModels.event;

  constructor(private readonly host: HostContext) {
    this.disposables.push(
      this.changedModels,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!affectsConnection(event)) return;
        void this.current?.close();
        this.current = undefined;
        this.generation += 1;
        this.loadingList = undefined;
        if (event.affectsConfiguration('cadenza.baseUrl') || affectsEndpoints(event)) void this.refreshModels();
      }),
      host.apiKey.onDidChange(() => {
        this.generation += 1;
        this.loadingList = undefined;
        void this.refreshModels();
      }),
    );
  }

  /**
   * The client for the current settings. The client module (undici, the SSE parser) is loaded on first
   * use, not at activation: activation stays cheap for windows that never talk to the service.
   */
  async client(): Promise<InferenceClient> {
    if (this.current) return this.current;
    const { InferenceClient: Client } = await import('../../core/api/client');
    if (this.current) return this.current;
    const settings = readSettings();
    const timeoutMs = settings.requestTimeoutSeconds * 1000;
    const client = new Client({
      baseUrl: settings.baseUrl,
      endpoints: readEndpoints(this.host.apiKey),
      apiKey: () => this.host.apiKey.get(),
      timeoutMs,
      firstTokenTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs,
      maxRetries: settings.maxRetries,
      logger: this.host.log,
      transport: readTransportOptions(),
      capabilities: toOverrides(settings.modelOverrides),
      userAgent: `cadenza-vscode/${String(this.host.extension.extension.packageJSON['version'] ?? '0')} vscode/${vscode.version}`,
    });
    this.current = client;
    this.warnIfCleartext([settings.baseUrl, settings.chatBaseUrl]);
    return client;
  }

  /** Warns once per address when requests (and the key) would cross a network unencrypted. */
  private warnIfCleartext(urls: readonly (string | undefined)[]): void {
    for (const url of urls) {
      const warning = url ? cleartextWarning(url) : undefined;
      if (!url || warning === undefined || this.warnedCleartext.has(url)) continue;
      this.warnedCleartext.add(url);
      this.host.log.warn(warning);
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Cadenza sends requests to {0} without encryption (http://), so your API key and messages can be read on the network. Use https:// unless this network is yours.',
          redactUrl(url),
        ),
      );
    }
  }

  /** The model list as last loaded (possibly empty while loading or after an error). */
  get models(): ModelCatalogState {
    return this.catalog;
  }

  /** The listing entry of a model id, if the service listed it. */
  model(id: string | undefined): ModelInfo | undefined {
    return id === undefined ? undefined : this.catalog.models.find((model) => model.id === id);
  }

  /** Loads the model list once (cached); concurrent callers share one request. */
  async ensureModels(): Promise<readonly ModelInfo[]> {
    if (this.catalog.models.length > 0) return this.catalog.models;
    return this.refreshModels();
  }

  /** Reads GET /v1/models again. Never throws: the error is kept in the state for the UI. */
  refreshModels(): Promise<readonly ModelInfo[]> {
    if (this.loadingList) return this.loadingList;
    const generation = this.generation;
    const loading = (async (): Promise<readonly ModelInfo[]> => {
      this.catalog = { models: this.catalog.models, loading: true };
      this.changedModels.fire(this.catalog);
      let next: ModelCatalogState;
      try {
        const models = await (await this.client()).listModels();
        next = { models, loading: false };
        this.host.log.info(`Listed ${models.length} models from the service.`);
      } catch (error) {
        next = { models: [], loading: false, error };
        this.host.log.warn(`Could not list models: ${error instanceof Error ? error.message : String(error)}`);
      }
      // The address or key changed while this listing ran: its answer is about the old service.
      if (generation !== this.generation) return this.refreshModels();
      this.loadingList = undefined;
      this.catalog = next;
      this.changedModels.fire(this.catalog);
      return this.catalog.models;
    })();
    this.loadingList = loading;
    return loading;
  }

  dispose(): void {
    void this.current?.close();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
