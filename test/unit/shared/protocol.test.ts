import { strict as assert } from 'node:assert';
import { isFromWebview } from '../../../src/shared/protocol';

describe('protocol: agent messages', () => {
  it('accepts an approval with a known decision, and a diff request', () => {
    for (const decision of ['approve', 'deny', 'allowConversation']) assert.equal(isFromWebview({ type: 'tool/approve', callId: 'call_1', decision }), true);
    assert.equal(isFromWebview({ type: 'tool/showDiff', callId: 'call_1' }), true);
  });

  it('refuses malformed approvals (the webview is untrusted input)', () => {
    assert.equal(isFromWebview({ type: 'tool/approve', callId: 'call_1', decision: 'allowAlways' }), false);
    assert.equal(isFromWebview({ type: 'tool/approve', callId: 1, decision: 'approve' }), false);
    assert.equal(isFromWebview({ type: 'tool/approve', decision: 'approve' }), false);
    assert.equal(isFromWebview({ type: 'tool/showDiff' }), false);
  });
});
