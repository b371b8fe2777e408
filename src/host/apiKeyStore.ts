import * as vscode from 'vscode';

const secretKey = 'cadenza.apiKey';

/**
 * The API key, kept only in SecretStorage. Read once and cached in memory; the cache is dropped when
 * SecretStorage signals a change (another window, or clearApiKey). The key is never logged.
 */
export class ApiKeyStore implements vscode.Disposable {
  private cached: Promise<string | undefined> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;

  /** Fires after the stored key was set, replaced or removed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key !== secretKey) return;
      this.cached = undefined;
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

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
