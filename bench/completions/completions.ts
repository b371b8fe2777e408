// Inline completions' speed on a replayed typing session: real code (Cadenza's own source) typed at about
// 8 characters a second into the core scheduler and fetch, against the emulator with the service's latency,
// through Cadenza's client. Each keystroke is one provider call (VS Code cancels the previous call's token
// on the next keystroke, as here) and one edit note. The emulator answers each request with the true rest
// of the line being typed, as a good model would, so typed-through and in-flight reuse happen as they would.
// Prints requests per 100 keystrokes, the share cancelled, cache / typed-through / in-flight hits, and the
// extension-added latency: keystroke to suggestion, minus the debounce and the request's own time for
// those that waited on a request, and the synchronous time of each call. Prints figures; asserts nothing.
//
//   npx tsc -p tsconfig.json && node out/bench/completions/completions.js [--keystrokes 400] [--cps 8] [--latency-ms 150]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { InferenceClient } from '../../src/core/api/client';
import { fetchCompletion } from '../../src/core/completions/fetchCompletion';
import { buildCompletionPrompt } from '../../src/core/completions/prompt';
import { CompletionScheduler, type CompletionRequest } from '../../src/core/completions/scheduler';
import { startEmulator } from '../../test/support/emulator/emulator';
import { repoRoot } from '../../test/support/fixtures/repoRoot';

const { values } = parseArgs({
  options: { keystrokes: { type: 'string', default: '400' }, cps: { type: 'string', default: '8' }, 'latency-ms': { type: 'string', default: '150' } },
});
const keystrokes = Number(values.keystrokes);
const cps = Number(values.cps);
const latencyMs = Number(values['latency-ms']);
const debounceMs = 75;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN);

async function main(): Promise<void> {
  const source = readFileSync(join(repoRoot(), 'src', 'core', 'completions', 'scheduler.ts'), 'utf8');
  // Start typing inside the file, after its header comment: the text before is already there.
  const start = source.indexOf('export interface Clock');
  const emulator = await startEmulator({ latencyMs, chunkDelayMs: 8 });
  const client = new InferenceClient({ baseUrl: emulator.baseUrl, apiKey: emulator.key, maxRetries: 0, transport: { useEnvironment: false } });
  let lastFetchEnd = 0;
  const scheduler = new CompletionScheduler({
    debounceMs,
    fetch: async (request, signal, onPartial) => {
      const lineEnd = source.indexOf('\n', request.offset);
      emulator.scriptChat({ content: source.slice(request.offset, lineEnd < 0 ? undefined : lineEnd) || ' ', chunkCount: 6 });
      const prompt = buildCompletionPrompt({
        path: 'src/core/completions/scheduler.ts',
        languageId: 'typescript',
        prefix: request.prefix,
        suffix: request.suffix,
      });
      try {
        return (await fetchCompletion({ port: client, model: 'Meta-Llama-3.1-8B-Instruct', prompt, signal, onPartial })).text;
      } finally {
        lastFetchEnd = performance.now();
      }
    },
  });
  const added: number[] = [];
  const addedNetwork: number[] = [];
  const sync: number[] = [];
  const totals: number[] = [];
  let previous: AbortController | undefined;
  const pending: Promise<void>[] = [];
  try {
    for (let i = 1; i <= keystrokes; i++) {
      const offset = start + i;
      // The document as the user sees it: typed up to the cursor, the rest of the file not yet written.
      const request: CompletionRequest = { documentKey: 'file:///scheduler.ts', offset, prefix: source.slice(Math.max(0, offset - 8000), offset), suffix: '' };
      scheduler.noteEdit('file:///scheduler.ts', offset - 1, 0, source.charAt(offset - 1));
      previous?.abort();
      const controller = new AbortController();
      previous = controller;
      const keystroke = performance.now();
      const call = scheduler.complete(request, controller.signal);
      const syncMs = performance.now() - keystroke;
      sync.push(syncMs);
      pending.push(
        call.then((suggestion) => {
          if (!suggestion) return;
          const total = performance.now() - keystroke;
          totals.push(total);
          // Served from a request: the call's own synchronous part plus the time from the answer's last
          // byte to the suggestion (cleaning, settling); the debounce and the network are the service's side.
          if (suggestion.source === 'network' || suggestion.source === 'inflight') {
            const ms = syncMs + (performance.now() - lastFetchEnd);
            added.push(ms);
            addedNetwork.push(ms);
          } else added.push(total);
        }),
      );
      await sleep((1000 / cps) * (0.75 + Math.random() * 0.5));
    }
    previous?.abort();
    await Promise.all(pending);
  } finally {
    await client.close();
    await emulator.close();
  }
  const stats = scheduler.stats;
  const per100 = (count: number): string => ((count / keystrokes) * 100).toFixed(1);
  added.sort((a, b) => a - b);
  addedNetwork.sort((a, b) => a - b);
  sync.sort((a, b) => a - b);
  totals.sort((a, b) => a - b);
  console.log(
    `typing session: ${keystrokes} keystrokes at ~${cps}/s of src/core/completions/scheduler.ts; emulator latency ${latencyMs} ms, debounce ${debounceMs} ms`,
  );
  console.log(`requests per 100 keystrokes: ${per100(stats.requests)} (${stats.requests} requests)`);
  console.log(`cancelled: ${stats.cancelled} (${(stats.requests === 0 ? 0 : (stats.cancelled / stats.requests) * 100).toFixed(1)} % of requests)`);
  console.log(
    `per 100 keystrokes: typed-through ${per100(stats.typedThrough)}, in-flight reuse ${per100(stats.inflightReuse)}, cache ${per100(stats.cacheHits)}, debounced ${per100(stats.debounced)}`,
  );
  console.log(
    `suggestions shown: ${totals.length}; keystroke to suggestion p50 ${percentile(totals, 0.5).toFixed(1)} ms, p95 ${percentile(totals, 0.95).toFixed(1)} ms`,
  );
  console.log(
    `extension-added latency (all suggestions; those from a request minus the debounce and the request's own time): p50 ${percentile(added, 0.5).toFixed(2)} ms, p95 ${percentile(added, 0.95).toFixed(2)} ms`,
  );
  console.log(
    `  of suggestions that needed a request (${addedNetwork.length}): p50 ${percentile(addedNetwork, 0.5).toFixed(2)} ms, p95 ${percentile(addedNetwork, 0.95).toFixed(2)} ms`,
  );
  console.log(`synchronous time per keystroke call: p50 ${percentile(sync, 0.5).toFixed(3)} ms, p95 ${percentile(sync, 0.95).toFixed(3)} ms`);
}

void main();
