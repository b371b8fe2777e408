import { strict as assert } from 'node:assert';
import { ApiError } from '../../../src/core/api/errors';
import type { ChatRequest, ModelInfo } from '../../../src/core/api/types';
import { runTurn, type TurnEvent, type TurnModel, type TurnPorts, type TurnRequest } from '../../../src/core/chat/runTurn';
import { ToolSession, type Tool } from '../../../src/core/tools/toolTypes';
import { scriptedStreams, type ScriptedAnswer } from './scriptedStreams';

const info: ModelInfo = {
  id: 'Meta-Llama-3.3-70B-Instruct',
  ownedBy: undefined,
  contextLength: 8192,
  maxCompletionTokens: 1024,
  pricing: undefined,
  capabilities: ['chat', 'tools'],
  family: undefined,
};
const model: TurnModel = { id: info.id, info };
const request: ChatRequest = {
  model: info.id,
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hello?' },
  ],
  maxTokens: 256,
  includeUsage: true,
};
const fits = { fits: true, usedTokens: 20, limitTokens: 7936, droppedMessages: 0 } as const;

/** Every event of a turn, in order. */
async function events(ports: TurnPorts, signal = new AbortController().signal): Promise<TurnEvent[]> {
  const seen: TurnEvent[] = [];
  for await (const event of runTurn(ports, signal)) seen.push(event);
  return seen;
}

/** Ports over scripted answers; `context` gives the request (the plain one by default). */
function ports(
  answers: readonly ScriptedAnswer[],
  overrides: Partial<TurnPorts> = {},
  context: Partial<TurnRequest> = {},
): TurnPorts & { readonly calls: ReturnType<typeof scriptedStreams>['calls'] } {
  const scripted = scriptedStreams(answers);
  return {
    model: () => Promise.resolve(model),
    context: () => Promise.resolve({ request, fit: fits, ...context }),
    stream: scripted.stream,
    ...overrides,
    calls: scripted.calls,
  };
}

const types = (seen: readonly TurnEvent[]): string[] => seen.map((event) => event.type);

/** A read tool that answers with its argument, and a change tool that must be approved. */
function tools(log: string[]): Tool[] {
  return [
    {
      definition: { name: 'echo', description: 'Echoes.', parameters: { type: 'object', properties: { say: { type: 'string' } }, required: ['say'] } },
      effect: 'read',
      run: (args) => {
        log.push(`echo ${String(args['say'])}`);
        return Promise.resolve(`said ${String(args['say'])}`);
      },
    },
    {
      definition: { name: 'write', description: 'Writes.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
      effect: 'change',
      prepare: (args) =>
        Promise.resolve({
          preview: { kind: 'create', path: String(args['path']), content: 'x' },
          apply: () => {
            log.push(`write ${String(args['path'])}`);
            return Promise.resolve('written');
          },
        }),
    },
  ];
}

describe('runTurn: one chat turn over ports', () => {
  it('streams a plain answer: the model, the fitted context, the text and thinking as they come, the usage, then done', async () => {
    const turn = ports([{ thinking: ['Hm, ', 'greet.'], text: ['Hel', 'lo!'] }]);
    const seen = await events(turn);
    assert.deepEqual(types(seen), ['model', 'context', 'step', 'thinking', 'thinking', 'text', 'text', 'usage', 'done']);
    assert.deepEqual(seen[0], { type: 'model', model });
    assert.deepEqual(seen[1], { type: 'context', fit: fits });
    assert.deepEqual(
      seen.filter((event) => event.type === 'text').map((event) => event.type === 'text' && event.text),
      ['Hel', 'lo!'],
    );
    const done = seen.at(-1);
    assert.deepEqual(done, { type: 'done', outcome: 'answered', text: 'Hello!', steps: 1 });
    const used = seen.find((event) => event.type === 'usage');
    assert.equal(used?.type === 'usage' ? used.result.usage.promptTokens : undefined, 10);
    assert.equal(turn.calls.length, 1);
    assert.deepEqual(turn.calls[0]?.request, request, "the context port's request is what is sent");
  });

  it('ends with done "noModel" and asks for no context when no model can be chosen', async () => {
    let asked = false;
    const seen = await events(
      ports([], {
        model: () => Promise.resolve(undefined),
        context: () => {
          asked = true;
          return Promise.resolve({ request });
        },
      }),
    );
    assert.deepEqual(seen, [{ type: 'done', outcome: 'noModel', text: '', steps: 0 }]);
    assert.equal(asked, false);
  });

  it('a stop while the model is chosen ends it there, stopped, with nothing asked or sent', async () => {
    const controller = new AbortController();
    let asked = false;
    const turn = ports([{ text: ['never'] }], {
      model: () => {
        controller.abort();
        return Promise.resolve(model);
      },
      context: () => {
        asked = true;
        return Promise.resolve({ request });
      },
    });
    const seen = await events(turn, controller.signal);
    assert.deepEqual(seen, [{ type: 'done', outcome: 'stopped', text: '', steps: 0 }]);
    assert.equal(asked, false);
    assert.equal(turn.calls.length, 0);
  });

  it("refuses a request that does not fit, with the context port's words, and sends nothing", async () => {
    const overflow = { fits: false, usedTokens: 9000, limitTokens: 7936, droppedMessages: 3, overflow: 'Too long: trim it.' } as const;
    const turn = ports([{ text: ['never'] }], {}, { fit: overflow });
    const seen = await events(turn);
    assert.deepEqual(types(seen), ['model', 'context', 'error']);
    const error = seen.at(-1);
    assert.ok(error?.type === 'error');
    assert.equal(error.reason, 'contextTooLong');
    assert.ok(ApiError.is(error.error, 'contextTooLong'));
    assert.equal((error.error as Error).message, 'Too long: trim it.');
    assert.equal(turn.calls.length, 0);
  });

  it('maps a failure mid-answer to one error event with its reason, after the text that came', async () => {
    const seen = await events(ports([{ text: ['Part'], error: new ApiError('server', 'The service failed (500).') }]));
    assert.deepEqual(types(seen), ['model', 'context', 'step', 'text', 'error']);
    const error = seen.at(-1);
    assert.ok(error?.type === 'error');
    assert.equal(error.reason, 'server');
    assert.equal((error.error as Error).message, 'The service failed (500).');
  });

  it('gives an error that is not the service\'s the reason "unknown", and a failing port an error event too', async () => {
    const seen = await events(ports([{ error: new Error('socket closed') }]));
    assert.deepEqual(seen.at(-1), { type: 'error', error: new Error('socket closed'), reason: 'unknown' });
    const failing = await events(ports([], { context: () => Promise.reject(new ApiError('network', 'offline')) }));
    assert.deepEqual(types(failing), ['model', 'error']);
    const last = failing.at(-1);
    assert.equal(last?.type === 'error' ? last.reason : undefined, 'network');
  });

  it('a stop mid-answer is not an error: done "stopped" with the text so far', async () => {
    const controller = new AbortController();
    const turn = ports([{ text: ['Partial ', 'answer'], hang: true }]);
    const seen: TurnEvent[] = [];
    for await (const event of runTurn(turn, controller.signal)) {
      seen.push(event);
      if (event.type === 'text' && event.text === 'answer') controller.abort();
    }
    assert.deepEqual(seen.at(-1), { type: 'done', outcome: 'stopped', text: 'Partial answer', steps: 1 });
    assert.ok(!seen.some((event) => event.type === 'error'));
  });

  it('passes the signal and the retry callback to the stream', async () => {
    const controller = new AbortController();
    const retries: number[] = [];
    const turn = ports([{ text: ['ok'] }], { onRetry: (retry) => retries.push(retry.attempt) });
    await events(turn, controller.signal);
    assert.equal(turn.calls[0]?.options.signal, controller.signal);
    turn.calls[0]?.options.onRetry?.({ attempt: 2, delayMs: 1000, error: new ApiError('rateLimited', 'slow down') });
    assert.deepEqual(retries, [2]);
  });

  it('sends a plain answer another way when the context says so (audio reasoning), not through the stream port', async () => {
    const other = scriptedStreams([{ text: ['From audio.'] }]);
    const turn = ports([], {}, { send: (options) => other.stream(request, options) });
    const seen = await events(turn);
    assert.deepEqual(seen.at(-1), { type: 'done', outcome: 'answered', text: 'From audio.', steps: 1 });
    assert.equal(turn.calls.length, 0);
    assert.equal(other.calls.length, 1);
  });

  describe("with the agent's tool loop", () => {
    it("runs the calls, asks before a change, and reports each call's status, one step per request", async () => {
      const log: string[] = [];
      const turn = ports(
        [
          {
            toolCalls: [
              { id: 'c1', name: 'echo', arguments: '{"say":"hi"}' },
              { id: 'c2', name: 'write', arguments: '{"path":"a.txt"}' },
            ],
          },
          { text: ['Done.'] },
        ],
        {},
        { tools: { kind: 'loop', tools: tools(log), session: new ToolSession(), maxSteps: 5, maxToolResultTokens: 1000 } },
      );
      const asked: string[] = [];
      const seen: TurnEvent[] = [];
      turn.approve = (question) => {
        // The approval is asked only after its event reached the consumer.
        assert.equal(seen.at(-1)?.type, 'approvalAsked');
        asked.push(question.call.id);
        return Promise.resolve('approved');
      };
      for await (const event of runTurn(turn, new AbortController().signal)) seen.push(event);
      assert.deepEqual(log, ['echo hi', 'write a.txt']);
      assert.deepEqual(asked, ['c2']);
      const statuses = seen.flatMap((event) => (event.type === 'toolCall' ? [`${event.call.id}:${event.call.status}`] : []));
      assert.deepEqual(statuses, ['c1:running', 'c1:done', 'c2:awaitingApproval', 'c2:running', 'c2:done']);
      assert.deepEqual(
        seen.filter((event) => event.type === 'step').map((event) => event.type === 'step' && event.step),
        [1, 2],
      );
      assert.ok(
        seen.some((event) => event.type === 'toolCallForming'),
        'calls are shown while they form',
      );
      assert.deepEqual(seen.at(-1), { type: 'done', outcome: 'answered', text: 'Done.', steps: 2 });
      const second = turn.calls[1]?.request.messages ?? [];
      assert.deepEqual(
        second.slice(-2).map((message) => [message.role, message.content]),
        [
          ['tool', 'said hi'],
          ['tool', 'written'],
        ],
      );
      assert.equal(turn.calls[0]?.request.toolChoice, 'auto');
    });

    it('says how the loop ended at the step limit', async () => {
      const turn = ports(
        [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"say":"a"}' }] }, { toolCalls: [{ id: 'c2', name: 'echo', arguments: '{"say":"b"}' }] }],
        { approve: () => Promise.resolve('approved') },
        { tools: { kind: 'loop', tools: tools([]), session: new ToolSession(), maxSteps: 2, maxToolResultTokens: 1000 } },
      );
      const seen = await events(turn);
      assert.deepEqual(seen.at(-1), { type: 'done', outcome: 'stepLimit', text: '', steps: 2 });
    });

    it('without an approval port a change is denied, never run', async () => {
      const log: string[] = [];
      const turn = ports(
        [{ toolCalls: [{ id: 'c1', name: 'write', arguments: '{"path":"a.txt"}' }] }, { text: ['Not written.'] }],
        {},
        { tools: { kind: 'loop', tools: tools(log), session: new ToolSession(), maxSteps: 5, maxToolResultTokens: 1000 } },
      );
      const seen = await events(turn);
      assert.deepEqual(log, []);
      assert.ok(seen.some((event) => event.type === 'toolCall' && event.call.status === 'denied'));
    });
  });

  describe('with tools the caller runs', () => {
    it('offers them for at most `rounds` requests (the first with its own tool choice), runs each call through the port and sends the results back', async () => {
      const definitions = tools([]).map((tool) => tool.definition);
      const invoked: string[] = [];
      const turn = ports(
        [
          { toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"say":"1"}' }] },
          { text: ['Let me look again.'], toolCalls: [{ id: 'c2', name: 'echo', arguments: '{"say":"2"}' }] },
          { text: ['Answer.'] },
        ],
        {
          invoke: (call) => {
            invoked.push(call.id);
            return Promise.resolve(`result ${call.id}`);
          },
        },
        { tools: { kind: 'invoke', definitions, rounds: 2, firstChoice: 'required' } },
      );
      const seen = await events(turn);
      assert.deepEqual(invoked, ['c1', 'c2']);
      assert.deepEqual(
        turn.calls.map((call) => call.request.toolChoice),
        ['required', 'auto', undefined],
      );
      assert.deepEqual(
        turn.calls.map((call) => call.request.tools?.length),
        [2, 2, undefined],
      );
      const last = turn.calls[2]?.request.messages ?? [];
      assert.deepEqual(
        last.slice(2).map((message) => [message.role, message.content]),
        [
          ['assistant', null],
          ['tool', 'result c1'],
          ['assistant', 'Let me look again.'],
          ['tool', 'result c2'],
        ],
      );
      assert.deepEqual(
        seen.filter((event) => event.type === 'toolCall').map((event) => event.type === 'toolCall' && `${event.call.id}:${event.call.status}`),
        ['c1:running', 'c1:done', 'c2:running', 'c2:done'],
      );
      assert.deepEqual(seen.at(-1), { type: 'done', outcome: 'answered', text: 'Answer.', steps: 3 });
    });

    it('a call that is not answered because the port fails ends the turn with that error', async () => {
      const turn = ports(
        [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: '{}' }] }],
        { invoke: () => Promise.reject(new Error('tool host gone')) },
        { tools: { kind: 'invoke', definitions: tools([]).map((tool) => tool.definition), rounds: 3 } },
      );
      const seen = await events(turn);
      assert.deepEqual(seen.at(-1), { type: 'error', error: new Error('tool host gone'), reason: 'unknown' });
    });
  });

  describe('with tools offered and handed back', () => {
    it('sends them with the tool choice, runs nothing, and hands each call back whole as soon as it is complete', async () => {
      const definitions = tools([]).map((tool) => tool.definition);
      const turn = ports(
        [
          {
            text: ['Calling.'],
            toolCalls: [
              { id: 'c1', name: 'echo', arguments: '{"say":"x"}' },
              { id: 'c2', name: 'write', arguments: 'not json' },
            ],
          },
        ],
        {},
        { tools: { kind: 'offer', definitions, toolChoice: 'required' } },
      );
      const seen = await events(turn);
      assert.equal(turn.calls.length, 1);
      assert.equal(turn.calls[0]?.request.toolChoice, 'required');
      assert.deepEqual(turn.calls[0]?.request.tools, definitions);
      const handed = seen.flatMap((event) => (event.type === 'toolRequest' ? [event.call] : []));
      assert.deepEqual(handed, [
        { index: 0, id: 'c1', name: 'echo', input: { say: 'x' } },
        { index: 1, id: 'c2', name: 'write', input: {}, malformed: 'not json' },
      ]);
      // The first call is complete once the second begins, before the stream ends.
      const order = types(seen);
      assert.ok(order.indexOf('toolRequest') < order.lastIndexOf('usage'));
      assert.equal(seen.at(-1)?.type, 'done');
    });
  });
});
