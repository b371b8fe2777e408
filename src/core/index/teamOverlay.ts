import * as path from 'node:path';
import { maxChunkLines } from './chunker';
import { fuseRanked, fusionDepth, type ChunkLocation, type HybridQuery, type RankedLists, type SemanticHit } from './fusion';
import type { KeywordHit } from './bm25';
import type { IndexRoot } from './types';
import type { IndexSearchResult } from './workspaceIndex';

/**
 * A team-index path (`<repository>/<relative path>`, as `cadenza-index` writes it) in the local index's
 * form (`<workspace folder name>/<relative path>`); undefined for a path of another repository.
 */
export function teamPathToLocal(teamPath: string, repository: string, folderName: string): string | undefined {
  const prefix = `${repository}/`;
  return teamPath.startsWith(prefix) ? `${folderName}/${teamPath.slice(prefix.length)}` : undefined;
}

function interleave<T>(a: readonly T[], b: readonly T[], depth: number): T[] {
  const merged: T[] = [];
  for (let i = 0; merged.length < depth && (i < a.length || i < b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x !== undefined) merged.push(x);
    if (y !== undefined && merged.length < depth) merged.push(y);
  }
  return merged;
}

/**
 * The team's ranked lists with the developer's uncommitted files taken from the local index instead:
 * every team hit in an `overridden` file is dropped (the team's copy is stale for it), and the local
 * hits of those files are merged in. Vector hits merge by cosine (the same model embedded both);
 * keyword scores of PostgreSQL and BM25 are not comparable, so those lists interleave rank by rank.
 * The result is fused by `fuseRanked` like any index's lists. Paths are in the local form.
 */
export function overlayLists(team: RankedLists, local: RankedLists, overridden: (path: string) => boolean, depth: number): RankedLists {
  const fromLocal = <T>(hits: readonly T[], pathOf: (hit: T) => string): T[] => hits.filter((hit) => overridden(pathOf(hit)));
  const fromTeam = <T>(hits: readonly T[], pathOf: (hit: T) => string): T[] => hits.filter((hit) => !overridden(pathOf(hit)));
  const semantic: SemanticHit[] = [...fromTeam(team.semantic, (h) => h.location.path), ...fromLocal(local.semantic, (h) => h.location.path)]
    .sort((a, b) => b.score - a.score)
    .slice(0, depth);
  const keyword: KeywordHit[] = interleave(
    fromTeam(team.keyword, (h) => h.path),
    fromLocal(local.keyword, (h) => h.path),
    depth,
  );
  const exact: ChunkLocation[] = interleave(
    fromTeam(team.exact, (h) => h.path),
    fromLocal(local.exact, (h) => h.path),
    depth,
  );
  return { semantic, keyword, exact };
}

/** Maps every location of a list set (team paths to local paths); hits of other repositories are dropped. */
export function mapLists(lists: RankedLists, map: (path: string) => string | undefined): RankedLists {
  const semantic: SemanticHit[] = [];
  for (const hit of lists.semantic) {
    const path = map(hit.location.path);
    if (path !== undefined) semantic.push({ ...hit, location: { ...hit.location, path } });
  }
  const keyword: KeywordHit[] = [];
  for (const hit of lists.keyword) {
    const path = map(hit.path);
    if (path !== undefined) keyword.push({ ...hit, path });
  }
  const exact: ChunkLocation[] = [];
  for (const hit of lists.exact) {
    const path = map(hit.path);
    if (path !== undefined) exact.push({ ...hit, path });
  }
  return { semantic, keyword, exact };
}

/** What a team index answers: its ranked lists for a query (PgTeamIndex in the extension, a fake in tests). */
export interface TeamLists {
  lists(query: HybridQuery, depth: number): Promise<RankedLists>;
}

/**
 * The local index's part in a team search: its own lists, for the files it overrides, and its rules,
 * which decide which of the team's files may be read here (WorkspaceIndex).
 */
export interface LocalLists {
  lists(query: HybridQuery, depth: number): RankedLists;
  /** Why the local index would not hold a file (`relPath` in the folder named `rootName`), or undefined. */
  skipReason(rootName: string, relPath: string): Promise<string | undefined>;
}

/** What a team search needs besides the query: the repository the team indexed and where it is checked out. */
export interface TeamSearchScope {
  readonly repository: string;
  /** The workspace folder the repository is checked out in. */
  readonly root: IndexRoot;
  /** The local index, which answers for the files in `overridden` and judges the team's (undefined when there is none: nothing of the team's is kept). */
  readonly local: LocalLists | undefined;
  /** Local paths (`<folder name>/<relative path>`) of the uncommitted files, which the local index answers for. */
  readonly overridden: ReadonlySet<string>;
}

/**
 * A location as a chunk can have it: whole line numbers from 1, the end not before the start, at most
 * `maxLines` lines (a longer span is cut to its first `maxLines`); undefined for one no chunk could have.
 */
export function chunkSpan<T extends ChunkLocation>(location: T, maxLines: number): T | undefined {
  const { startLine, endLine } = location;
  if (!Number.isSafeInteger(startLine) || !Number.isSafeInteger(endLine) || startLine < 1 || endLine < startLine) return undefined;
  return endLine - startLine < maxLines ? location : { ...location, endLine: startLine + maxLines - 1 };
}

/**
 * The team's lists kept to what the local index would hold: the team's database names paths and lines,
 * and the editor reads those lines from disk for previews and the chat's context, so a hit is kept only
 * when `skipReason` (the local index's own rules: ignore files, `.git`, secrets' names, binary names,
 * links, size) has nothing against its file, and its span is cut to what a chunk can span.
 */
async function keepIndexable(lists: RankedLists, skipReason: (path: string) => Promise<string | undefined>, maxLines: number): Promise<RankedLists> {
  const paths = new Set([...lists.semantic.map((hit) => hit.location.path), ...lists.keyword.map((hit) => hit.path), ...lists.exact.map((hit) => hit.path)]);
  const verdicts = await Promise.all([...paths].map(async (path) => [path, (await skipReason(path)) === undefined] as const));
  const kept = new Set(verdicts.filter(([, keep]) => keep).map(([path]) => path));
  const semantic: SemanticHit[] = [];
  for (const hit of lists.semantic) {
    const location = kept.has(hit.location.path) ? chunkSpan(hit.location, maxLines) : undefined;
    if (location) semantic.push({ ...hit, location });
  }
  const keyword = lists.keyword.flatMap((hit) => (kept.has(hit.path) ? (chunkSpan(hit, maxLines) ?? []) : []));
  const exact = lists.exact.flatMap((hit) => (kept.has(hit.path) ? (chunkSpan(hit, maxLines) ?? []) : []));
  return { semantic, keyword, exact };
}

/**
 * A team search's results in the workspace folder: the team's lists in local paths, kept to the files
 * the local index would hold (`keepIndexable`, spans at most the chunker's), the uncommitted files' hits
 * taken from the local index instead, fused as the local index fuses its own, each placed in `scope.root`.
 */
export async function teamResults(team: TeamLists, scope: TeamSearchScope, query: HybridQuery, k: number): Promise<IndexSearchResult[]> {
  const { root, repository, local } = scope;
  if (!local) return [];
  const depth = fusionDepth({ k });
  const mapped = mapLists(await team.lists(query, depth), (teamPath) => teamPathToLocal(teamPath, repository, root.name));
  // cadenza-index chunks with the chunker's defaults.
  const lists = await keepIndexable(mapped, (localPath) => local.skipReason(root.name, localPath.slice(root.name.length + 1)), maxChunkLines());
  const own = scope.overridden.size > 0 ? local.lists(query, depth) : EMPTY;
  return fuseRanked(
    overlayLists(lists, own, (key) => scope.overridden.has(key), depth),
    { k },
  ).map((result): IndexSearchResult => {
    const relPath = result.path.slice(root.name.length + 1);
    return { ...result, root: root.name, relPath, absPath: path.join(root.path, ...relPath.split('/')) };
  });
}

const EMPTY: RankedLists = { semantic: [], keyword: [], exact: [] };
