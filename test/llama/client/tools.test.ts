// llama-server compatibility: tool calls (streamed in fragments and whole, and the tool-result round
// trip) and structured output (json_object, json_schema). With tool_choice "required" or a JSON
// response format, llama-server constrains sampling with a grammar built from the schema, so the
// scripted model's answer is valid by construction while its values come from noise: the tests check
// shapes, enums and bounds, never exact argument values.
import * as assert from 'node:assert/strict';
import Ajv from 'ajv';
import { type ChatMessage, type ChatStreamEvent, type ToolDefinition } from '../../../src/core/api/types';
import { llamaServers, useClient } from './llamaEnv';

const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'Get the weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', maxLength: 12 }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city', 'unit'],
  },
};

const statusSchema = {
  type: 'object',
  properties: { ok: { type: 'boolean' }, level: { type: 'string', enum: ['low', 'mid', 'high'] }, code: { type: 'string', maxLength: 6 } },
  required: ['ok', 'level', 'code'],
  additionalProperties: false,
} as const;

/** Parses a tool call's arguments and checks them against the tool's schema. */
function checkWeatherArguments(text: string): void {
  const parsed: unknown = JSON.parse(text);
  const validate = new Ajv().compile(weatherTool.parameters ?? {});
  assert.ok(validate(parsed), `arguments ${text}: ${JSON.stringify(validate.errors)}`);
}

describe('llama-server compatibility: tool calls and JSON output', function () {
  // Grammar-constrained sampling over a 151k-token vocabulary costs ~0.1 s per token on two busy cores.
  this.timeout(120_000);
  const servers = llamaServers();
  const client = useClient(() => servers.chat);

  const ask: ChatMessage = { role: 'user', content: 'What is the weather in Paris?' };

  it('streams a required tool call in fragments: id and name first, arguments in pieces, finish tool_calls', async () => {
    const stream = client().streamChat({
      model: servers.chatModel,
      messages: [ask],
      tools: [weatherTool],
      toolChoice: 'required',
      maxTokens: 96,
      temperature: 0,
    });
    const calls: Extract<ChatStreamEvent, { type: 'toolCall' }>[] = [];
    let finish: string | undefined;
    for await (const event of stream) {
      if (event.type === 'toolCall') calls.push(event);
      if (event.type === 'finish') finish = event.reason;
    }
    assert.ok(calls.length >= 3, `tool-call events: ${calls.length}`);
    assert.equal(calls[0]?.name, 'get_weather');
    assert.ok(calls[0]?.id !== undefined && calls[0].id !== '', 'the first fragment carries the call id');
    assert.ok(
      calls.slice(1).every((c) => c.index === 0 && c.name === undefined),
      'later fragments carry only arguments',
    );
    assert.ok(calls.filter((c) => c.argumentsDelta !== '').length >= 3, 'the arguments arrive in several fragments');
    assert.equal(finish, 'tool_calls');
    const result = await stream.result;
    assert.equal(result.finishReason, 'tool_calls');
    assert.equal(result.toolCalls.length, 1);
    const [call] = result.toolCalls;
    assert.ok(call);
    assert.equal(call.name, 'get_weather');
    assert.equal(call.arguments, calls.map((c) => c.argumentsDelta).join(''));
    checkWeatherArguments(call.arguments);
  });

  it('returns a required tool call whole, then answers the tool result (round trip)', async () => {
    const first = await client().chat({
      model: servers.chatModel,
      messages: [ask],
      tools: [weatherTool],
      toolChoice: 'required',
      maxTokens: 96,
      temperature: 0,
    });
    assert.equal(first.finishReason, 'tool_calls');
    assert.equal(first.toolCalls.length, 1);
    const [call] = first.toolCalls;
    assert.ok(call);
    assert.equal(call.name, 'get_weather');
    assert.ok(call.id !== '');
    checkWeatherArguments(call.arguments);
    // The scripted model writes "Hello!" before the call; llama-server returns it as content.
    assert.equal(first.text, 'Hello!');

    const second = await client().streamChat({
      model: servers.chatModel,
      tools: [weatherTool],
      maxTokens: 16,
      temperature: 0,
      messages: [
        ask,
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: call.id, content: '{"temperature":21,"unit":"c"}' },
      ],
    }).result;
    // The chat template rendered the assistant tool call and the tool message; the model answers.
    assert.equal(second.text, 'Hello!');
    assert.equal(second.finishReason, 'stop');
    assert.deepEqual(second.toolCalls, []);
  });

  it('with tool_choice auto the scripted model answers in text and makes no call', async () => {
    const result = await client().chat({ model: servers.chatModel, messages: [ask], tools: [weatherTool], toolChoice: 'auto', maxTokens: 24, temperature: 0 });
    assert.equal(result.text, 'Hello!');
    assert.deepEqual(result.toolCalls, []);
    assert.equal(result.finishReason, 'stop');
  });

  it('json_object: the answer parses as a JSON object', async () => {
    // As in the extension, the model is listed first: that is how the client knows it talks to llama.cpp,
    // whose builds after de3ff81 constrain json_object only when it carries a schema.
    await client().listModels();
    const result = await client().chat({
      model: servers.chatModel,
      messages: [{ role: 'user', content: 'Any JSON object.' }],
      responseFormat: { type: 'json_object' },
      maxTokens: 48,
      temperature: 0,
    });
    const parsed: unknown = JSON.parse(result.text);
    assert.equal(typeof parsed, 'object');
    assert.ok(parsed !== null && !Array.isArray(parsed));
  });

  it('json_schema (strict, enum, maxLength): the streamed answer is valid against the schema', async () => {
    const result = await client().streamChat({
      model: servers.chatModel,
      messages: [{ role: 'user', content: 'Status?' }],
      responseFormat: { type: 'json_schema', jsonSchema: { name: 'status', strict: true, schema: statusSchema } },
      maxTokens: 64,
      temperature: 0,
    }).result;
    const parsed: unknown = JSON.parse(result.text);
    const validate = new Ajv().compile(statusSchema);
    assert.ok(validate(parsed), `answer ${result.text}: ${JSON.stringify(validate.errors)}`);
    assert.equal(result.finishReason, 'stop');
  });
});
