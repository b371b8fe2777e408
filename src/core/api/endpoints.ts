// An endpoint per operation. A self-hosted stack often runs chat, embeddings and speech on different
// servers (llama-server, an embedding server, a whisper server): each operation may have its own base
// address and its own key, and falls back to the service's address and key when it has none.
import { type ModelInfo } from './types';

/** Who a request is for: the default service, or one of the operations that may have its own server. */
export type EndpointRole = 'default' | 'chat' | 'embeddings' | 'audio';

/** A key, or a function asked before every request (so a key changed in the host applies at once). */
export type KeySource = string | (() => Promise<string | undefined> | string | undefined);

/** What the host configured for one operation; both parts optional. */
export interface OperationEndpoint {
  /** Base address; empty or missing means the default address. */
  readonly baseUrl?: string | undefined;
  /** The operation's own key; when it yields nothing, the default key is sent. */
  readonly apiKey?: KeySource | undefined;
}

/** One resolved endpoint: where to send, and the key to send there. */
export interface ResolvedEndpoint {
  readonly role: EndpointRole;
  readonly baseUrl: string;
  /** The key for this endpoint now (its own, else the default), trimmed; undefined when none. */
  key(): Promise<string | undefined>;
}

export type Endpoints = Readonly<Record<EndpointRole, ResolvedEndpoint>>;

/** Accepts a base with or without a trailing /v1: every path the client sends starts with /v1. */
function trimBase(url: string): string {
  return url.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
}

async function read(source: KeySource | undefined): Promise<string | undefined> {
  const value = typeof source === 'function' ? await source() : source;
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * Resolves every operation's endpoint: its own address or the default one, its own key or the default
 * one. Pure; the host calls it with the settings and SecretStorage readers.
 */
export function resolveEndpoints(
  defaults: { readonly baseUrl: string; readonly apiKey: KeySource },
  own: Partial<Record<Exclude<EndpointRole, 'default'>, OperationEndpoint>>,
): Endpoints {
  const base = trimBase(defaults.baseUrl);
  const endpoint = (role: EndpointRole, config: OperationEndpoint | undefined): ResolvedEndpoint => {
    const configured = config?.baseUrl === undefined || config.baseUrl.trim() === '' ? undefined : trimBase(config.baseUrl);
    return {
      role,
      baseUrl: configured ?? base,
      key: async () => (await read(config?.apiKey)) ?? read(defaults.apiKey),
    };
  };
  return {
    default: endpoint('default', undefined),
    chat: endpoint('chat', own.chat),
    embeddings: endpoint('embeddings', own.embeddings),
    audio: endpoint('audio', own.audio),
  };
}

/** The role a request path belongs to: /v1/embeddings, /v1/audio/*, /v1/chat/*; the rest is the default. */
export function roleOfPath(path: string): EndpointRole {
  if (path.startsWith('/v1/embeddings')) return 'embeddings';
  if (path.startsWith('/v1/audio/')) return 'audio';
  if (path.startsWith('/v1/chat/')) return 'chat';
  return 'default';
}

/** The distinct servers to ask for their model lists, the default first (its failure is the one reported). */
export function listingEndpoints(endpoints: Endpoints): ResolvedEndpoint[] {
  const seen = new Set<string>();
  const result: ResolvedEndpoint[] = [];
  for (const role of ['default', 'chat', 'embeddings', 'audio'] as const) {
    const endpoint = endpoints[role];
    if (seen.has(endpoint.baseUrl)) continue;
    seen.add(endpoint.baseUrl);
    result.push(endpoint);
  }
  return result;
}

/**
 * Merges the lists of several servers: the first listing of an id wins (servers in listing order),
 * then the models only `cadenza.models.overrides` knows (a whisper server lists none) are added.
 */
export function mergeModelLists(lists: readonly (readonly ModelInfo[])[], unlisted: readonly ModelInfo[]): ModelInfo[] {
  const byId = new Map<string, ModelInfo>();
  for (const list of lists) for (const model of list) if (!byId.has(model.id)) byId.set(model.id, model);
  for (const model of unlisted) if (!byId.has(model.id)) byId.set(model.id, model);
  return [...byId.values()];
}
