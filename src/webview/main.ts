/**
 * The chat panel's entry point: creates the panel, routes the host's messages to it, and says
 * `ready` once so the host sends the connection, the models and the open conversation.
 */
import type { ToWebview } from '../shared/protocol';
import { App } from './app';
import { installPanelKeys } from './keyboardNav';
import { Host } from './vscodeApi';
import './base.css';
import './messages.css';
import './composer.css';
import './highlight.css';
import './toolCard.css';

const root = document.getElementById('app');
if (root) {
  const host = new Host();
  const app = new App(host, root);
  installPanelKeys(root);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (isHostMessage(event.data)) app.receive(event.data);
  });
  host.post({ type: 'ready' });
}

/**
 * Messages come from our own host through VS Code, so a shape check is enough; anything without a
 * string `type` is not ours, and types the panel does not know are ignored by the router.
 */
function isHostMessage(value: unknown): value is ToWebview {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}
