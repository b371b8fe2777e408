import type { PanelPort } from '../panel/panelPort';
import { codeContext, lineRange } from './editorContext';

/** `cadenza.addSelectionToChat`: puts the selection into the panel's next message as a quoted block. */
export async function addSelectionToChat(panel: PanelPort): Promise<string | undefined> {
  const context = await codeContext();
  if (!context) return undefined;
  await panel.reveal();
  const label = `${context.fileName}:${lineRange(context)}`;
  panel.post({ type: 'composer/addContext', label, text: context.text, language: context.language });
  return context.text;
}
