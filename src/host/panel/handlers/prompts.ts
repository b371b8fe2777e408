// Prompt files: the composer's `/` list, read as the files are now (a picked prompt runs with `chat/send`).
import type { Handlers, PanelParts } from '../router';

export function promptsHandlers({ prompts }: Pick<PanelParts, 'prompts'>): Handlers<'prompts/query'> {
  return {
    'prompts/query': async ({ requestId }) => ({ type: 'prompts/list', requestId, prompts: await prompts.candidates() }),
  };
}
