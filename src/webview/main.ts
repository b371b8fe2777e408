import type { FromWebview, ToWebview } from '../shared/protocol';
import './style.css';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app');

function render(message: ToWebview): void {
  if (!app) return;
  switch (message.type) {
    case 'state/connection': {
      app.replaceChildren();
      const heading = document.createElement('h2');
      heading.textContent = 'Cadenza';
      const service = document.createElement('p');
      service.className = 'service';
      service.textContent = `Service: ${message.state.baseUrl}`;
      app.append(heading, service);
      if (!message.state.hasKey) {
        const note = document.createElement('p');
        note.textContent = 'No API key is set.';
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Set API key';
        button.addEventListener('click', () => vscode.postMessage({ type: 'action/run', action: 'setApiKey' }));
        app.append(note, button);
      } else {
        const note = document.createElement('p');
        note.className = 'key-ok';
        note.textContent = 'API key set.';
        app.append(note);
      }
      return;
    }
  }
}

window.addEventListener('message', (event: MessageEvent<ToWebview>) => render(event.data));
vscode.postMessage({ type: 'ready' });
