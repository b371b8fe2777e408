import type { ChatViewProvider } from '../views/chatViewProvider';
import { codeContext, lineRange } from './editorContext';

/** `cadenza.addSelectionToChat`: puts the selection into the panel's next message as a quoted block. */
export async function addSelectionToChat(view: ChatViewProvider): Promise<string | undefined> {
  const context = await codeContext();
  if (!context) return undefined;
  await view.reveal();
  const label = `${context.fileName}:${lineRange(context)}`;
  view.post({ type: 'composer/addContext', label, text: context.text, language: context.language });
  return context.text;
}
