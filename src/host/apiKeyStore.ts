import * as vscode from 'vscode';

const secretKey = 'cadenza.apiKey';

/** An operation that may have its own server and key (`cadenza.endpoints.*`). */
export type EndpointKeyRole = 'chat' | 'embeddings' | 'audio';
/** Where an operation's own key is kept: `cadenza.apiKey.<role>`. */
const roleKey = (role: EndpointKeyRole): string => `${secretKey}.${role}`;

/**
 * The API key, kept only in SecretStorage. Read once and cached in memory; the cache is dropped when
 * SecretStorage signals a change (another window, or clearApiKey). The key is never logged.
 */
export class ApiKeyStore implements vscode.Disposable {
  private cached: Promise<string | undefined> | undefined;
  private readonly cachedRoles = new Map<EndpointKeyRole, Promise<string | undefined>>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;

  /** Fires after the stored key was set, replaced or removed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === secretKey) this.cached = undefined;
      else if (event.key.startsWith(`${secretKey}.`)) this.cachedRoles.clear();
      else return;
      this.changed.fire();
    });
  }

  /** The key, or undefined when none is stored. */
  get(): Promise<string | undefined> {
    this.cached ??= Promise.resolve(this.secrets.get(secretKey));
    return this.cached;
  }

  async set(key: string): Promise<void> {
    this.cached = Promise.resolve(key);
    await this.secrets.store(secretKey, key);
  }

  async clear(): Promise<void> {
    this.cached = Promise.resolve(undefined);
    await this.secrets.delete(secretKey);
  }

  /** An operation's own key (for its own endpoint), or undefined when it has none. */
  getFor(role: EndpointKeyRole): Promise<string | undefined> {
    let cached = this.cachedRoles.get(role);
    if (cached === undefined) {
      cached = Promise.resolve(this.secrets.get(roleKey(role)));
      this.cachedRoles.set(role, cached);
    }
    return cached;
  }

  async setFor(role: EndpointKeyRole, key: string): Promise<void> {
    this.cachedRoles.set(role, Promise.resolve(key));
    await this.secrets.store(roleKey(role), key);
  }

  async clearFor(role: EndpointKeyRole): Promise<void> {
    this.cachedRoles.set(role, Promise.resolve(undefined));
    await this.secrets.delete(roleKey(role));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
