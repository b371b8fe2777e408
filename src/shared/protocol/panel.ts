/**
 * The panel itself: its page says `ready` (the host queues everything until then), the connection state it
 * shows, its notices, and the actions that map to commands.
 */
import * as v from 'valibot';
import { message } from './schema';

/** What the panel shows about the connection; sent on `ready` and whenever it changes. */
export interface ConnectionState {
  /** The service's base address, as configured. */
  readonly baseUrl: string;
  /** Whether an API key is stored in SecretStorage (never the key itself). */
  readonly hasKey: boolean;
}

/** Actions the panel can ask the host to run; each maps to a contributed command or setting. */
export type PanelAction = 'setApiKey' | 'openSettings' | 'selectModel' | 'showLog';

const panelActions = ['setApiKey', 'openSettings', 'selectModel', 'showLog'] as const satisfies readonly PanelAction[];

/** Host → webview. */
export type PanelToWebview =
  /** The connection state changed (or the webview just said `ready`). */
  | { readonly type: 'state/connection'; readonly state: ConnectionState }
  /** A message to show in the panel that is not part of the conversation (e.g. a rejected image). */
  /** A notice; one with a `key` replaces the panel's earlier notice of the same key (a progress line its outcome). */
  | { readonly type: 'notice'; readonly level: 'info' | 'warning' | 'error'; readonly text: string; readonly key?: string };

/** Webview → host. */
export const panelFromWebview = [
  /** The webview has loaded and can receive messages; sent once per load. */
  message('ready', {}),
  /** Run one of the panel's actions (each maps to a command). */
  message('action/run', { action: v.picklist(panelActions) }),
] as const;
