// What a command needs of the chat panel, and no more: commands depend on this port, not on the view class.
import type { ToWebview } from '../../shared/protocol';

/** The chat panel as commands see it. */
export interface PanelPort {
  /** Shows the panel (creating its view if need be). */
  reveal(): Promise<void>;
  /** Sends the panel a message (queued until its webview is ready). */
  post(message: ToWebview): void;
}
