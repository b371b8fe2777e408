import { strict as assert } from 'node:assert';
import { isFromWebview } from '../../../src/shared/protocol';

describe('protocol: checkpoints', () => {
  it('accepts Show changes and Restore with a checkpoint id', () => {
    assert.equal(isFromWebview({ type: 'checkpoint/showChanges', id: '7d0c9a9e-2b7e-4f53-9a51-0b8f1d3c2e11' }), true);
    assert.equal(isFromWebview({ type: 'checkpoint/restore', id: '7d0c9a9e-2b7e-4f53-9a51-0b8f1d3c2e11' }), true);
  });

  it('refuses an id that could name a path (the webview is untrusted input)', () => {
    assert.equal(isFromWebview({ type: 'checkpoint/restore', id: '../../secrets' }), false);
    assert.equal(isFromWebview({ type: 'checkpoint/restore' }), false);
    assert.equal(isFromWebview({ type: 'checkpoint/showChanges', id: 5 }), false);
  });
});
