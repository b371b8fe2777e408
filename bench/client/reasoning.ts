// A reasoning model that thinks for a long time under a short time-out, through Cadenza's client, against
// the emulator: 60 s of thinking (a piece every ~250 ms) with the panel's watchdogs at 5 s
// (`cadenza.requestTimeoutSeconds` 5). Prints how long the answer took, how many requests the emulator
// received (1 means nothing was cut off and re-sent, so nothing was billed twice), how much thinking and
// answer arrived, and the longest gap between two events the client handed on. Prints figures; asserts nothing.
//
//   npx tsc -p tsconfig.json && node out/bench/client/reasoning.js [--think-seconds 60] [--timeout-seconds 5]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { InferenceClient } from '../../src/core/api/client';
import { startEmulator } from '../../test/support/emulator/emulator';

const { values } = parseArgs({ options: { 'think-seconds': { type: 'string', default: '60' }, 'timeout-seconds': { type: 'string', default: '5' } } });
const thinkMs = Number(values['think-seconds']) * 1000;
const timeoutMs = Number(values['timeout-seconds']) * 1000;

async function main(): Promise<void> {
  const emulator = await startEmulator({});
  const client = new InferenceClient({
    baseUrl: emulator.baseUrl,
    apiKey: emulator.key,
    timeoutMs,
    firstTokenTimeoutMs: timeoutMs,
    idleTimeoutMs: timeoutMs,
    maxRetries: 2,
    transport: { useEnvironment: false },
  });
  const thought = 'Consider the question carefully, one step after another, checking each step before the next. '.repeat(40);
  try {
    for (const model of ['DeepSeek-R1', 'gpt-oss-120b']) {
      emulator.reset();
      emulator.scriptChat({ content: 'The answer, after long thought, is 42.', reasoning: thought, thinkMs });
      const started = performance.now();
      let last = started;
      let longestGap = 0;
      let thinkingEvents = 0;
      let firstText: number | undefined;
      const stream = client.streamChat({ model, messages: [{ role: 'user', content: 'What is the answer?' }] });
      for await (const event of stream) {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
        if (event.type === 'reasoning') thinkingEvents += 1;
        if (event.type === 'text') firstText ??= now;
      }
      const result = await stream.result;
      const requests = emulator.requests.filter((request) => request.path === '/v1/chat/completions').length;
      console.log(
        `${model.padEnd(13)} thinking ${(thinkMs / 1000).toFixed(0)} s, time-outs ${(timeoutMs / 1000).toFixed(0)} s: ` +
          `answer complete in ${((performance.now() - started) / 1000).toFixed(1)} s, first answer text at ${(((firstText ?? started) - started) / 1000).toFixed(1)} s, ` +
          `${requests} request(s), ${thinkingEvents} thinking events (${result.reasoning.length} chars), answer ${JSON.stringify(result.text)}, ` +
          `longest gap between events ${(longestGap / 1000).toFixed(2)} s, reasoning tokens ${result.usage.service?.reasoningTokens ?? 'n/a'}`,
      );
    }
  } finally {
    await client.close();
    await emulator.close();
  }
}

void main();
