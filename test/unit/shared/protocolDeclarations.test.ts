// Each feature's declarations (src/shared/protocol/<feature>.ts) give the run-time check of what the webview
// sends: per feature, a good message is accepted and malformed ones are refused (a wrong type, an over-long
// string, a bad id or token, an unknown action, a number that is not finite).
import { strict as assert } from 'node:assert';
import { isChatOptions, isFromWebview } from '../../../src/shared/protocol';

const options = { temperature: 0.2, stop: ['END'], jsonMode: 'schema', schema: '{}', reasoningEffort: 'low' };
const token = '3b241101-e2bb-4255-8caf-4136c566a962';
const image = { name: 'a.png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', bytes: 8 };

/** Per feature: messages that must pass, and messages that must not. */
const cases: Record<string, { readonly good: readonly unknown[]; readonly bad: readonly unknown[] }> = {
  panel: {
    good: [{ type: 'ready' }, { type: 'action/run', action: 'showLog' }],
    bad: [{ type: 'action/run', action: 'runAnything' }, { type: 'action/run' }, { type: 'unknown/message' }, 'ready', null, [{ type: 'ready' }]],
  },
  chat: {
    good: [
      { type: 'chat/send', text: 'hi', options, image, audio: token, mentions: [token, token] },
      { type: 'chat/send', text: 'hi', options: {}, image: undefined },
      { type: 'chat/stop' },
      { type: 'chat/regenerate', options },
      { type: 'chat/editResend', messageId: 'm1', text: 'again', options },
      { type: 'chat/retrySave', messageId: 'm1' },
      { type: 'chat/retry', trim: true, options },
    ],
    bad: [
      { type: 'chat/send', text: 42, options },
      { type: 'chat/send', text: 'hi' },
      { type: 'chat/send', text: 'hi', options: [] },
      { type: 'chat/send', text: 'hi', options: { temperature: Infinity } },
      { type: 'chat/send', text: 'hi', options: { jsonMode: 'yaml' } },
      { type: 'chat/send', text: 'hi', options: { stop: [1] } },
      { type: 'chat/send', text: 'hi', options: { reasoningEffort: 'extreme' } },
      { type: 'chat/send', text: 'hi', options, image: { name: 'a.png', dataUrl: 'x' } },
      { type: 'chat/send', text: 'hi', options, image: [] },
      { type: 'chat/send', text: 'hi', options, mentions: Array.from({ length: 41 }, () => token) },
      { type: 'chat/send', text: 'hi', options, mentions: ['../x'] },
      { type: 'chat/retry', trim: 'yes', options },
      { type: 'chat/retrySave' },
      { type: 'chat/editResend', messageId: 'm1', options },
    ],
  },
  conversation: {
    good: [
      { type: 'conversation/new' },
      { type: 'conversation/switch', id: 'c1' },
      { type: 'conversation/rename', id: 'c1' },
      { type: 'conversation/delete', id: 'c1' },
      { type: 'conversation/export', id: 'c1' },
      { type: 'conversation/copyMarkdown', id: 'c1' },
    ],
    bad: [
      { type: 'conversation/switch' },
      { type: 'conversation/delete', id: 1 },
      { type: 'conversation/export', id: null },
      { type: 'conversation/copyMarkdown' },
    ],
  },
  model: {
    good: [{ type: 'model/select', modelId: 'Meta-Llama-3.3-70B-Instruct' }, { type: 'model/refresh' }],
    bad: [{ type: 'model/select' }, { type: 'model/select', modelId: ['a'] }],
  },
  code: {
    good: [
      { type: 'code/copy', code: 'x' },
      { type: 'code/insert', code: 'x' },
      { type: 'code/replaceSelection', code: 'x' },
      { type: 'code/open', code: 'x', language: 'ts' },
      { type: 'source/open', uri: 'file:///a.ts', startLine: 3 },
    ],
    bad: [{ type: 'code/copy' }, { type: 'code/open', code: 'x' }, { type: 'source/open', uri: 'file:///a.ts', startLine: '3' }],
  },
  attachments: {
    good: [{ type: 'image/pick' }, { type: 'image/check', image }, { type: 'audio/pick' }, { type: 'audio/transcribeIntoPrompt' }, { type: 'schema/pick' }],
    bad: [{ type: 'image/check' }, { type: 'image/check', image: { ...image, bytes: '8' } }, { type: 'image/check', image: 'data:image/png;base64,iVBO' }],
  },
  mention: {
    good: [
      { type: 'mention/query', requestId: 1, query: 'src/a' },
      { type: 'mention/attach', candidate: { kind: 'file', id: 'src/a.ts', label: 'src/a.ts', detail: 'src' } },
    ],
    bad: [
      { type: 'mention/query', requestId: 1, query: 'x'.repeat(501) },
      { type: 'mention/query', requestId: '1', query: 'a' },
      { type: 'mention/attach', candidate: { kind: 'shell', id: 'rm', label: 'rm' } },
      { type: 'mention/attach', candidate: { kind: 'file', id: 'x'.repeat(4097), label: 'a' } },
    ],
  },
  agent: {
    good: [
      { type: 'tool/approve', callId: 'call_1', decision: 'allowTool' },
      { type: 'tool/showDiff', callId: 'call_1' },
      { type: 'agent/endAllowance' },
      { type: 'tools/list' },
      { type: 'tools/enable', name: 'mcp_notes_add_note', enabled: false },
    ],
    bad: [
      { type: 'tool/approve', callId: 'call_1', decision: 'allowAlways' },
      { type: 'tool/showDiff' },
      { type: 'tools/enable', name: 'x'.repeat(301), enabled: true },
      { type: 'tools/enable', name: 'a', enabled: 1 },
    ],
  },
  checkpoint: {
    good: [
      { type: 'checkpoint/showChanges', id: token },
      { type: 'checkpoint/restore', id: 'a1' },
    ],
    bad: [
      { type: 'checkpoint/restore', id: '../../secrets' },
      { type: 'checkpoint/restore', id: '' },
      { type: 'checkpoint/showChanges', id: 'x'.repeat(65) },
    ],
  },
  condense: {
    good: [{ type: 'chat/condense' }, { type: 'chat/condense', maxTokens: 4096 }, { type: 'condense/edit', summary: 'Short.' }],
    bad: [
      { type: 'chat/condense', maxTokens: NaN },
      { type: 'chat/condense', maxTokens: '4096' },
      { type: 'condense/edit', summary: 'x'.repeat(200_001) },
      { type: 'condense/edit' },
    ],
  },
  instructions: {
    good: [{ type: 'instructions/open', path: 'AGENTS.md' }],
    bad: [{ type: 'instructions/open' }, { type: 'instructions/open', path: 7 }],
  },
};

describe('protocol declarations: what the webview sends is checked per feature', () => {
  for (const [feature, { good, bad }] of Object.entries(cases)) {
    it(`${feature}: accepts well-formed messages and refuses malformed ones`, () => {
      for (const message of good) assert.equal(isFromWebview(message), true, `accepted: ${JSON.stringify(message)}`);
      for (const message of bad) assert.equal(isFromWebview(message), false, `refused: ${JSON.stringify(message)?.slice(0, 120)}`);
    });
  }

  it('checks the options the webview restores from its saved state with the same declaration', () => {
    assert.equal(isChatOptions(options), true);
    assert.equal(isChatOptions({ topK: Number.NaN }), false);
    assert.equal(isChatOptions(null), false);
  });
});
