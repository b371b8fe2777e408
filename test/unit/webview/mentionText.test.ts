// The `@` list's fixed entries in the user's language (the host sends their English label and the id it
// resolves); files, symbols and the like as the host sent them.
import { strict as assert } from 'node:assert';
import type { MentionCandidate } from '../../../src/shared/mentionCandidates';
import { panelStrings } from '../../../src/shared/panelStrings';
import { useStrings } from '../../../src/webview/l10n';
import { mentionLabel } from '../../../src/webview/mentionText';

// As host/chat/context/mentionCatalog.ts sends them.
const fixed: MentionCandidate[] = [
  { kind: 'selection', id: 'selection', label: 'selection' },
  { kind: 'problems', id: 'file', label: 'problems' },
  { kind: 'problems', id: 'workspace', label: 'problems (workspace)' },
  { kind: 'terminal', id: 'last', label: 'terminal' },
  { kind: 'git', id: 'staged', label: 'git diff (staged)' },
];
const asSent: MentionCandidate[] = [
  { kind: 'git', id: 'unstaged', label: 'git diff' },
  { kind: 'codebase', id: 'codebase', label: 'codebase' },
  { kind: 'file', id: 'src/problems', label: 'src/problems' },
  { kind: 'git', id: 'branch:main', label: 'git diff main' },
];

describe('@ list labels', () => {
  it('in English, reads as the host sent them', () => {
    for (const candidate of [...fixed, ...asSent]) assert.equal(mentionLabel(candidate), candidate.label);
  });

  it("shows the fixed entries in the user's language; commands, keywords, paths and branches as they are", () => {
    const marked = Object.fromEntries(Object.entries(panelStrings).map(([id, text]) => [id, `«${text}»`]));
    useStrings(marked);
    try {
      assert.deepEqual(
        fixed.map(mentionLabel),
        fixed.map((candidate) => `«${candidate.label}»`),
      );
      assert.deepEqual(
        asSent.map(mentionLabel),
        asSent.map((candidate) => candidate.label),
      );
    } finally {
      useStrings(undefined);
    }
  });
});
