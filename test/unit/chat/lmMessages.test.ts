import { strict as assert } from 'node:assert';
import {
  imageDataUrl,
  modelLimits,
  noVisionNote,
  olderImageNote,
  promptTsxText,
  readSampling,
  toChatMessages,
  toToolDefinition,
  type LmMessage,
} from '../../../src/core/chat/lmMessages';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 9]);

function user(...parts: LmMessage['parts']): LmMessage {
  return { role: 'user', parts };
}

describe('VS Code language-model messages → service messages', () => {
  it("maps text of each role, joining a message's text parts", () => {
    const { messages } = toChatMessages(
      [
        { role: 'system', parts: [{ kind: 'text', text: 'Be brief.' }] },
        user({ kind: 'text', text: 'Hello' }, { kind: 'text', text: 'there' }),
        { role: 'assistant', parts: [{ kind: 'text', text: 'Hi.' }] },
      ],
      { imageInput: false },
    );
    assert.deepEqual(messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello\n\nthere' },
      { role: 'assistant', content: 'Hi.' },
    ]);
  });

  it('sends an image as a data URL part, and only the newest image of the request', () => {
    const { messages, droppedImages } = toChatMessages(
      [
        user({ kind: 'text', text: 'first' }, { kind: 'data', mimeType: 'image/png', data: png }),
        { role: 'assistant', parts: [{ kind: 'text', text: 'a cat' }] },
        user({ kind: 'text', text: 'and this one?' }, { kind: 'data', mimeType: 'image/JPEG', data: jpeg }),
      ],
      { imageInput: true },
    );
    assert.equal(droppedImages, 1);
    assert.deepEqual(messages[0], { role: 'user', content: `first\n\n${olderImageNote}` });
    assert.deepEqual(messages[2], {
      role: 'user',
      content: [
        { type: 'text', text: 'and this one?' },
        { type: 'image', dataUrl: `data:image/jpeg;base64,${Buffer.from(jpeg).toString('base64')}` },
      ],
    });
  });

  it('replaces images by a note for a model without vision, and decodes text data parts', () => {
    const { messages, droppedImages } = toChatMessages(
      [
        user(
          { kind: 'data', mimeType: 'image/png', data: png },
          { kind: 'data', mimeType: 'application/json', data: new TextEncoder().encode('{"a":1}') },
          { kind: 'data', mimeType: 'application/octet-stream', data: png },
        ),
      ],
      { imageInput: false },
    );
    assert.equal(droppedImages, 1);
    assert.deepEqual(messages, [{ role: 'user', content: `${noVisionNote}\n\n{"a":1}` }]);
  });

  it("turns tool calls into the assistant's tool_calls and results into tool messages before the user's text", () => {
    const { messages } = toChatMessages(
      [
        user({ kind: 'text', text: 'Find the greeting' }),
        {
          role: 'assistant',
          parts: [
            { kind: 'toolCall', callId: 'c1', name: 'search', input: { query: 'greeting' } },
            { kind: 'toolCall', callId: 'c2', name: 'read', input: {} },
          ],
        },
        user(
          { kind: 'toolResult', callId: 'c1', text: 'src/greeting.ts:1-3' },
          { kind: 'toolResult', callId: 'c2', text: 'export …' },
          { kind: 'text', text: 'Now explain.' },
        ),
      ],
      { imageInput: false },
    );
    assert.deepEqual(messages, [
      { role: 'user', content: 'Find the greeting' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'c1', name: 'search', arguments: '{"query":"greeting"}' },
          { id: 'c2', name: 'read', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', content: 'src/greeting.ts:1-3' },
      { role: 'tool', toolCallId: 'c2', content: 'export …' },
      { role: 'user', content: 'Now explain.' },
    ]);
  });

  it('sends a result whose call is not in the history as user text (the service refuses an orphan tool message)', () => {
    const { messages } = toChatMessages([user({ kind: 'toolResult', callId: 'gone', text: '42' })], { imageInput: false });
    assert.deepEqual(messages, [{ role: 'user', content: 'Result of tool call gone:\n42' }]);
  });

  it('drops empty messages', () => {
    const { messages } = toChatMessages([user({ kind: 'text', text: '' }), { role: 'assistant', parts: [] }], { imageInput: false });
    assert.deepEqual(messages, []);
  });

  it('builds a data URL with a lower-case type', () => {
    assert.equal(imageDataUrl('image/PNG', png), `data:image/png;base64,${Buffer.from(png).toString('base64')}`);
  });
});

describe('VS Code language-model helpers', () => {
  it('gives a tool without a schema an empty object schema', () => {
    assert.deepEqual(toToolDefinition({ name: 't', description: 'd' }), { name: 't', description: 'd', parameters: { type: 'object', properties: {} } });
    const schema = { type: 'object', properties: { q: { type: 'string' } } };
    assert.deepEqual(toToolDefinition({ name: 't', description: 'd', inputSchema: schema }).parameters, schema);
  });

  it('reserves the default answer length inside the context and reports the listed output limit', () => {
    assert.deepEqual(modelLimits({ contextLength: 131072, maxCompletionTokens: 16384 }), {
      maxInputTokens: 126976,
      maxOutputTokens: 16384,
      defaultMaxTokens: 4096,
    });
    // A model whose output limit equals its context still leaves room for a prompt.
    assert.deepEqual(modelLimits({ contextLength: 16384, maxCompletionTokens: 16384 }), {
      maxInputTokens: 12288,
      maxOutputTokens: 16384,
      defaultMaxTokens: 4096,
    });
    assert.deepEqual(modelLimits({ contextLength: 8192, maxCompletionTokens: 1000 }), { maxInputTokens: 7192, maxOutputTokens: 1000, defaultMaxTokens: 1000 });
    assert.deepEqual(modelLimits({ contextLength: undefined, maxCompletionTokens: undefined }), {
      maxInputTokens: 4096,
      maxOutputTokens: 4096,
      defaultMaxTokens: 4096,
    });
  });

  it('reads sampling options in either spelling and ignores wrong types', () => {
    assert.deepEqual(readSampling({ temperature: 0.3, top_p: 0.9, topK: 40.4, max_tokens: 100, stop: ['END', 3, ''] }), {
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      maxTokens: 100,
      stop: ['END'],
    });
    assert.deepEqual(readSampling({ temperature: 'hot', stop: 'X' }), { stop: ['X'] });
    assert.deepEqual(readSampling(undefined), {});
  });

  it('reads the text of a prompt-tsx tool result', () => {
    const tree = {
      node: {
        type: 1,
        ctor: 2,
        ctorName: 'ToolResult',
        children: [
          { type: 2, text: 'line one', priority: 1 },
          { type: 1, children: [{ type: 2, text: 'line two', lineBreakBefore: true }] },
        ],
      },
    };
    assert.equal(promptTsxText(tree), 'line one\nline two');
    assert.equal(promptTsxText('not a tree'), '');
  });
});
