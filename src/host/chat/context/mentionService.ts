// @-mentions in the host: answers the composer's `@` queries from the cached catalog, resolves a picked
// mention at once (so its chip shows its token cost) and keeps it under a token until `chat/send` names it,
// and is the context provider that puts a message's mentions, fitted to the budget, with that message.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { contextPart, contextShares, fitParts, shareOf, type ContextPart, type ContextProvider } from '../../../core/chat/context/contextProvider';
import type { Logger } from '../../../core/logger';
import type { MentionCandidate, MentionChip } from '../../../shared/mentionCandidates';
import type { WorkspaceContextProvider } from '../turnTypes';
import { MentionCatalog } from './mentionCatalog';
import { MentionResolvers } from './mentionResolvers';
import { TerminalOutputs } from './terminalOutputs';

/** Mentions picked but not sent yet; older ones are let go. */
const maxHeld = 40;

/** A picked mention waiting for its `chat/send`. */
interface Held {
  readonly mention: MentionCandidate;
  readonly part: ContextPart;
}

/** The composer's mentions: the `@` list, the chips, and their context when a message is sent. */
export class MentionService implements vscode.Disposable {
  readonly catalog: MentionCatalog;
  private readonly terminals = new TerminalOutputs();
  private readonly resolvers: MentionResolvers;
  private readonly held = new Map<string, Held>();

  /** `codebase`: the index's semantic search, which `@codebase` uses. */
  constructor(
    private readonly log: Logger,
    private readonly codebase: WorkspaceContextProvider,
  ) {
    this.catalog = new MentionCatalog(log);
    this.resolvers = new MentionResolvers(this.terminals, (folder) => this.catalog.filesBelow(folder));
  }

  /**
   * Walks the workspace for the `@` list ahead of the first `@` (the panel calls it when it opens): on a
   * 20,000-file workspace the walk takes seconds, which the first `@` would otherwise wait for.
   */
  warm(): void {
    this.catalog.fileList().then(undefined, (error: unknown) => this.log.warn(`The @ list could not list the workspace: ${String(error)}`));
  }

  /** The `@` list's offers for what was typed after `@`. */
  query(text: string): Promise<MentionCandidate[]> {
    return this.catalog.query(text.slice(0, 200));
  }

  /** Resolves a picked mention and keeps it until the message that carries it is sent. */
  async attach(mention: MentionCandidate): Promise<MentionChip> {
    const part = await this.resolvers.resolve(mention);
    const token = randomUUID();
    this.held.set(token, { mention, part });
    while (this.held.size > maxHeld) this.held.delete(this.held.keys().next().value ?? '');
    return { token, kind: mention.kind, label: part.label, tokens: part.tokens, ...(part.note !== undefined ? { note: part.note } : {}) };
  }

  /**
   * The provider for one message's mentions (named by their chips' tokens): `@codebase` is searched with the
   * question now, then the parts are fitted to the turn's budget (cut with a note, never silently).
   */
  provider(tokens: readonly string[]): ContextProvider {
    const picked = tokens.map((token) => this.held.get(token)).filter((entry): entry is Held => entry !== undefined);
    for (const token of tokens) this.held.delete(token);
    return {
      placement: 'message',
      provide: async (turn) => {
        const budget = shareOf(turn.roomTokens, contextShares.message);
        const parts: ContextPart[] = [];
        for (const entry of picked) parts.push(entry.mention.kind === 'codebase' ? await this.searchCodebase(turn.question, budget, turn.signal) : entry.part);
        return fitParts(parts, budget);
      },
    };
  }

  private async searchCodebase(question: string, budgetTokens: number, signal: AbortSignal): Promise<ContextPart> {
    const query = question.replace(/@codebase\b/g, '').trim();
    if (query === '') return contextPart('codebase', 'codebase', '', vscode.l10n.t('Nothing to search for: write the question after @codebase.'));
    const found = await this.codebase(query, budgetTokens, signal).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    if (typeof found === 'string') return contextPart('codebase', 'codebase', '', found);
    const part = contextPart(
      'codebase',
      `codebase: ${found.sources.length} excerpts`,
      found.text,
      found.sources.length === 0 ? vscode.l10n.t('The index found nothing for the question.') : undefined,
    );
    return { ...part, sources: found.sources };
  }

  dispose(): void {
    this.catalog.dispose();
    this.terminals.dispose();
  }
}
