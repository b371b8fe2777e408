/** What the status bar and Index Status say about a team-index snapshot. */
export interface TeamSnapshotInfo {
  readonly repository: string;
  readonly commit: string;
  readonly model: string;
  readonly updatedAt: Date;
}

/** A short age: "just now", "12 min", "3 h", "5 days". */
export function formatAge(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/** The commit as people read it (first 7 characters of a hash; a branch or tag name whole). */
export function shortCommit(commit: string): string {
  return /^[0-9a-f]{40,64}$/i.test(commit) ? commit.slice(0, 7) : commit;
}

/** Status bar text of a team index that answers: which snapshot, how old. */
export function teamStatusText(info: TeamSnapshotInfo, now: number): string {
  return `Team index ${shortCommit(info.commit)}, ${formatAge(now - info.updatedAt.getTime())} old`;
}
