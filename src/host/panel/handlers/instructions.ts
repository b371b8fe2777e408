// The project instructions' chips: open the file a chip names.
import type { Handlers, PanelParts } from '../router';

export function instructionsHandlers({ chat }: Pick<PanelParts, 'chat'>): Handlers<'instructions/open'> {
  return {
    'instructions/open': (message) => chat.panel.instructions.open(message.path),
  };
}
