/**
 * The typed message protocol between the host (extension) and the webview (chat panel).
 * `ToWebview` is sent by the host; `FromWebview` by the webview. Names are namespaced (`area/verb`).
 * The webview sends `ready` first; the host queues everything until then.
 */

/** What the panel shows about the connection; sent by the host on `ready` and whenever it changes. */
export interface ConnectionState {
  /** The service's base address, as configured. */
  readonly baseUrl: string;
  /** Whether an API key is stored in SecretStorage (never the key itself). */
  readonly hasKey: boolean;
}

/** Host → webview. */
export type ToWebview =
  /** The connection state changed (or the webview just said `ready`). */
  | { readonly type: 'state/connection'; readonly state: ConnectionState };

/** Webview → host. */
export type FromWebview =
  /** The webview has loaded and can receive messages; sent once per load. */
  | { readonly type: 'ready' }
  /** The user asked to run one of the panel's actions (e.g. set the key). */
  | { readonly type: 'action/run'; readonly action: PanelAction };

/** Actions the panel can ask the host to run; each maps to a contributed command. */
export type PanelAction = 'setApiKey' | 'openSettings';

const panelActions: readonly string[] = ['setApiKey', 'openSettings'] satisfies readonly PanelAction[];

/** Type guard for everything that arrives from the webview: it is untrusted input. */
export function isFromWebview(value: unknown): value is FromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; action?: unknown };
  switch (message.type) {
    case 'ready':
      return true;
    case 'action/run':
      return typeof message.action === 'string' && panelActions.includes(message.action);
    default:
      return false;
  }
}
