import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { HybridQuery } from '../../core/index/fusion';
import type { TeamSnapshot } from '../../core/index/pg/pgTeamIndex';
import type { TeamTls } from '../../core/index/pg/pgConnect';
import { teamResults } from '../../core/index/teamOverlay';
import type { IndexRoot } from '../../core/index/types';
import type { IndexSearchResult, WorkspaceIndex } from '../../core/index/workspaceIndex';
import type { Logger } from '../../core/logger';
import { uncommittedFiles } from './gitChanges';
import type { TeamConnection } from './teamConnection';

/** What a search of the team index needs from the index service. */
export interface TeamSearchDeps {
  readonly connection: TeamConnection;
  readonly model: string;
  /** Look the snapshot up again (after a failure) instead of using the one found within the last minute. */
  readonly fresh?: boolean | undefined;
  readonly roots: readonly IndexRoot[];
  /** The local index that holds the developer's uncommitted files (undefined when the index is off). */
  readonly local: WorkspaceIndex | undefined;
  /** Whether uncommitted files may be embedded now (a trusted workspace, or the user asked). */
  readonly mayIndexLocally: boolean;
  readonly logger: Logger;
}

/** A team answer: the fused results and what answered. */
export interface TeamAnswer {
  readonly results: IndexSearchResult[];
  readonly snapshot: TeamSnapshot;
  readonly target: string;
  readonly tls: TeamTls;
  /** Uncommitted files answered from the local index instead of the team's copies; undefined when git could not tell. */
  readonly overridden: number | undefined;
}

/** The workspace folder the team's repository is checked out in: the one of that name, else the first. */
export function teamRoot(roots: readonly IndexRoot[], repository: string): IndexRoot | undefined {
  return roots.find((root) => root.name === repository) ?? roots[0];
}

/**
 * Searches the team index with the developer's uncommitted files overriding the team's copies: those
 * files are brought up to date in the local index first (only they are embedded, and only when changed),
 * the team's hits in them are dropped and the local hits put in their place, and the lists are fused as
 * the local index fuses its own. Throws when the database cannot be reached (the caller falls back).
 */
export async function searchTeam(deps: TeamSearchDeps, query: HybridQuery, k: number): Promise<TeamAnswer> {
  const opened = await deps.connection.open(deps.model, deps.fresh === true);
  const repository = opened.index.snapshot.repository;
  const root = teamRoot(deps.roots, repository);
  if (!root) throw new Error('The team index needs an open folder.');
  const changed = await uncommittedFiles(root.path, deps.logger);
  if (!changed) deps.logger.debug('Could not tell which files are uncommitted (no git repository or git): the team index answers for every file.');
  const keys = new Set<string>();
  const present: string[] = [];
  const gone: string[] = [];
  for (const file of changed ?? []) {
    const rel = path.relative(root.path, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    keys.add(`${root.name}/${rel.split(path.sep).join('/')}`);
    (existsSync(file) ? present : gone).push(file);
  }
  if (deps.local && deps.mayIndexLocally && keys.size > 0) {
    const result = await deps.local.applyChanges({ changed: present, deleted: gone });
    if (result.chunksEmbedded > 0) deps.logger.info(`Indexed ${result.chunksEmbedded} chunks of uncommitted files locally (they override the team index).`);
  }
  const results = await teamResults(opened.index, { repository, root, local: deps.local, overridden: keys }, query, k);
  return { results, snapshot: opened.index.snapshot, target: opened.target, tls: opened.tls, overridden: changed ? keys.size : undefined };
}
