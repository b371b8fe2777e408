import type { ChunkLocation, RankedLists, SemanticHit } from './fusion';
import type { KeywordHit } from './bm25';

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
  const keyword: KeywordHit[] = interleave(fromTeam(team.keyword, (h) => h.path), fromLocal(local.keyword, (h) => h.path), depth);
  const exact: ChunkLocation[] = interleave(fromTeam(team.exact, (h) => h.path), fromLocal(local.exact, (h) => h.path), depth);
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
