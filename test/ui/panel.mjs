// The chat panel's parts as the UI tests find them: by their accessible names, as a screen reader would,
// declared once for every *.ui.mjs file.
import { runCommand, waitUntil } from './actions.mjs';

/** The panel's "No API key is set" banner (a region labelled "API key"); hidden while a key is stored. */
export const keyBanner = (webview) => webview.getByRole('region', { name: 'API key' });
export const composer = (webview) => webview.getByRole('textbox', { name: 'Message to Cadenza' });
export const stopButton = (webview) => webview.getByRole('button', { name: 'Stop the answer (Escape)' });
export const modelSelect = (webview) => webview.getByRole('combobox', { name: 'Model', exact: true });
export const answers = (webview) => webview.locator('article.message.assistant');
export const userMessages = (webview) => webview.getByRole('article', { name: 'Your message' });
export const conversationRegion = (webview) => webview.getByRole('region', { name: 'Conversation' });

/** Chat requests the emulator received, oldest first. */
export const chatRequests = (emulator) => emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/chat/completions');

/** Starts a new conversation with Cadenza: New Chat and picks `model` in the panel once the service's list is in. */
export async function newChatWithModel(page, webview, model) {
  await runCommand(page, 'Cadenza: New Chat');
  await composer(webview).waitFor({ timeout: 30_000 });
  await waitUntil(async () => (await modelSelect(webview).locator('option').count()) > 1, 'the model list in the panel');
  await modelSelect(webview).selectOption(model);
  await waitUntil(async () => (await modelSelect(webview).inputValue()) === model, `the panel's model picker to show ${model}`);
}
