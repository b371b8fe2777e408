import { strict as assert } from 'node:assert';
import { isFromWebview } from '../../../src/shared/protocol';

describe('protocol: agent messages', () => {
  it('accepts an approval with a known decision, and a diff request', () => {
    for (const decision of ['approve', 'deny', 'allowConversation', 'allowTool'])
      assert.equal(isFromWebview({ type: 'tool/approve', callId: 'call_1', decision }), true);
    assert.equal(isFromWebview({ type: 'tool/showDiff', callId: 'call_1' }), true);
  });

  it('refuses malformed approvals (the webview is untrusted input)', () => {
    assert.equal(isFromWebview({ type: 'tool/approve', callId: 'call_1', decision: 'allowAlways' }), false);
    assert.equal(isFromWebview({ type: 'tool/approve', callId: 1, decision: 'approve' }), false);
    assert.equal(isFromWebview({ type: 'tool/approve', decision: 'approve' }), false);
    assert.equal(isFromWebview({ type: 'tool/showDiff' }), false);
  });
});

describe('protocol: the tools menu', () => {
  it('accepts a list request and a tick of a named tool, and refuses malformed ticks', () => {
    assert.equal(isFromWebview({ type: 'tools/list' }), true);
    assert.equal(isFromWebview({ type: 'tools/enable', name: 'mcp_notes_add_note', enabled: true }), true);
    assert.equal(isFromWebview({ type: 'tools/enable', name: 'mcp_notes_add_note', enabled: 'yes' }), false);
    assert.equal(isFromWebview({ type: 'tools/enable', enabled: true }), false);
    assert.equal(isFromWebview({ type: 'tools/enable', name: 'x'.repeat(301), enabled: true }), false);
  });
});

describe('protocol: condensing', () => {
  it("takes the panel's max tokens with a condense request, when it is a number", () => {
    assert.equal(isFromWebview({ type: 'chat/condense' }), true);
    assert.equal(isFromWebview({ type: 'chat/condense', maxTokens: 4096 }), true);
    assert.equal(isFromWebview({ type: 'chat/condense', maxTokens: '4096' }), false);
  });
});

describe('protocol: audio in the chat panel', () => {
  const options = {};

  it("accepts the audio requests and a send that names its audio by the host's token", () => {
    assert.equal(isFromWebview({ type: 'audio/pick' }), true);
    assert.equal(isFromWebview({ type: 'audio/transcribeIntoPrompt' }), true);
    assert.equal(isFromWebview({ type: 'chat/send', text: 'What is said?', options, audio: '3b241101-e2bb-4255-8caf-4136c566a962' }), true);
    assert.equal(isFromWebview({ type: 'chat/send', text: '', options }), true);
  });

  it('refuses a send whose audio is not a token (the audio itself never travels through the webview)', () => {
    assert.equal(isFromWebview({ type: 'chat/send', text: 'x', options, audio: { name: 'a.wav', dataUrl: 'data:audio/wav;base64,UklGR' } }), false);
    assert.equal(isFromWebview({ type: 'chat/send', text: 'x', options, audio: 'data:audio/wav;base64,UklGRiQAAABXQVZF' }), false);
    assert.equal(isFromWebview({ type: 'chat/send', text: 'x', options, audio: 'a'.repeat(65) }), false);
    assert.equal(isFromWebview({ type: 'chat/send', text: 'x', options, audio: '' }), false);
    assert.equal(isFromWebview({ type: 'chat/send', text: 'x', options, audio: 42 }), false);
  });
});
