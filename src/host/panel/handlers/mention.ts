// @-mentions: the `@` list's offers for what was typed, and a picked offer resolved into its chip.
import type { Handlers, PanelParts } from '../router';

export function mentionHandlers({ mentions }: Pick<PanelParts, 'mentions'>): Handlers<'mention/query' | 'mention/attach'> {
  return {
    'mention/query': async ({ requestId, query }) => ({ type: 'mention/candidates', requestId, query, candidates: await mentions.query(query) }),
    'mention/attach': async (message) => ({ type: 'composer/mention', mention: await mentions.attach(message.candidate) }),
  };
}
