/**
 * What the composer's `@` list shows for a candidate: the host's fixed entries (host/chat/context/mentionCatalog.ts,
 * by kind and id) in the user's words; files, symbols, branches, `git diff` and `codebase` as they are. Pure (no
 * DOM): unit-tested in plain Node.
 */
import type { MentionCandidate } from '../shared/mentionCandidates';
import { t } from './l10n';

/** The fixed entries' texts by `kind:id`: the id the host resolves stays as it is. */
const fixedLabels: Readonly<Record<string, () => string>> = {
  'selection:selection': () => t('mentionSelection'),
  'problems:file': () => t('mentionProblems'),
  'problems:workspace': () => t('mentionProblemsWorkspace'),
  'terminal:last': () => t('mentionTerminal'),
  'git:staged': () => t('mentionGitStaged'),
};

/** The label the `@` list shows for `candidate`: a fixed entry's in the user's language, any other as the host sent it. */
export function mentionLabel(candidate: MentionCandidate): string {
  const key = `${candidate.kind}:${candidate.id}`;
  return Object.hasOwn(fixedLabels, key) ? (fixedLabels[key]?.() ?? candidate.label) : candidate.label;
}
