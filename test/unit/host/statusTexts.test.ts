// The chat status bar's text (src/host/chat/statusBarText.ts) and why the workspace index is incomplete
// (src/host/index/incompleteText.ts), with a translator that marks what it translates: each is one whole
// translated phrase per plural form, and the numbers and the cost are in the display language's format.
import * as assert from 'node:assert/strict';
import { chatStatusText } from '../../../src/host/chat/statusBarText';
import { incompleteReason } from '../../../src/host/index/incompleteText';
import type { L10n } from '../../../src/host/chat/statusBarText';

/** A "translation" that wraps the whole message in «» after putting its arguments in, as vscode.l10n.t does. */
const t = (message: string, ...args: Array<string | number | boolean>): string =>
  `«${message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]))}»`;
const marked = { l10n: { t: t as L10n['l10n']['t'] } };

describe('chat status bar text', () => {
  it('writes the answer count and the cost the German way, in one translated sentence', () => {
    const { text, tooltip } = chatStatusText(marked, 'de', { model: 'm1', answers: 1234, spendUsd: 1.5, completions: undefined });
    assert.equal(text, 'm1 · 1,50\u00a0$');
    assert.equal(tooltip, "«Cadenza: m1. This session's chat: 1.234 answers, 1,50\u00a0$.»\n«Click to pick a model.»");
  });

  it('has its own sentence for one answer, and says so when no model is picked', () => {
    const { text, tooltip } = chatStatusText(marked, 'en', { model: undefined, answers: 1, spendUsd: 0.0012, completions: '3 requests' });
    assert.equal(text, '«no model» · $0.0012');
    assert.equal(
      tooltip,
      "«Cadenza: «no model selected». This session's chat: 1 answer, $0.0012.»\n«Inline completions today (counted apart from chat): 3 requests.»\n«Click to pick a model.»",
    );
  });

  it('writes nothing spent as a plain zero', () => {
    assert.equal(chatStatusText(marked, 'fr', { model: 'm', answers: 0, spendUsd: 0, completions: undefined }).text, 'm · 0\u00a0$US');
  });
});

describe('why the workspace index is incomplete', () => {
  it('counts the chunks left in the display language, one sentence per plural form', () => {
    assert.equal(incompleteReason(marked, 'de', { chunksPending: 12345 }), '«12.345 chunks could not be embedded»');
    assert.equal(incompleteReason(marked, 'de', { chunksPending: 1 }), '«1 chunk could not be embedded»');
    assert.equal(incompleteReason(marked, 'en', { chunksPending: 0 }), '«some chunks could not be embedded»');
  });

  it("words each way a run stops, with the service's own message kept as it is", () => {
    assert.equal(
      incompleteReason(marked, 'en', { chunksPending: 3, stop: { kind: 'fatal', detail: 'invalid key' } }),
      '«the embedding service refused the request (invalid key)»',
    );
    assert.equal(incompleteReason(marked, 'en', { chunksPending: 3, stop: { kind: 'fatal' } }), '«the embedding service refused the request»');
    assert.equal(
      incompleteReason(marked, 'en', { chunksPending: 3, stop: { kind: 'tooManyFailures', detail: 'connect ECONNREFUSED' } }),
      '«embedding failed several times in a row (connect ECONNREFUSED)»',
    );
    assert.equal(
      incompleteReason(marked, 'de', { chunksPending: 0, stop: { kind: 'maxFiles', maxFiles: 5000 } }),
      '«indexing stopped after 5.000 files (the file limit)»',
    );
    assert.equal(
      incompleteReason(marked, 'de', { chunksPending: 0, stop: { kind: 'maxFiles', maxFiles: 1 } }),
      '«indexing stopped after 1 file (the file limit)»',
    );
  });
});
