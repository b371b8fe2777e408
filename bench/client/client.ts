// Benchmark of the service client's streaming path: one 100,000-chunk chat answer from the emulator
// (in a separate process, so this process's CPU is the client's alone), read by our client, by the
// official `openai` client, by the service's own official `sambanova` client, and by a raw `fetch`
// that only counts bytes (the floor). Prints, for each: chunks/s, MB/s and CPU time; and the time to
// first token each adds over a raw socket. Then the ratios ours/openai and ours/sambanova. It runs
// twice: on a quiet machine, then loaded (another process spinning on one core the whole time), and
// the ratios must hold under load. Prints figures; asserts nothing.
//
// Added time to first token: two separate requests differ by tens of ms in how long the emulator
// takes to prepare a 100,000-chunk answer, which would drown a sub-millisecond difference. So it
// is measured per request: a TCP relay in this process (on one clock with the readers) stamps the
// moment the first content bytes arrive from the emulator and passes them on over loopback; the
// reader stamps the moment its caller sees the first token. A reader's delay is the difference;
// "added" is a client's delay minus a bare socket's.
//
//   npx tsc -p tsconfig.json && node out/bench/client/client.js [--runs N] [--chunks N] [--only quiet|loaded]
import { fork, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startEmulator } from '../../test/support/emulator/emulator';
import {
  median,
  official,
  officialFirstToken,
  ours,
  oursFirstToken,
  rawFetch,
  rawSocketFirstToken,
  sambanova,
  sambanovaFirstToken,
  type Endpoint,
  type Sample,
} from './readers';

const TTFT_SAMPLES_PER_ROUND = 4;

type Message = { type: 'ready'; baseUrl: string; key: string } | { type: 'scripted' };

/** A loopback TCP relay to the emulator that stamps when the first content delta arrives from it. */
function startRelay(target: Endpoint, onFirstContent: (at: number) => void): Promise<{ endpoint: Endpoint; close(): void }> {
  const port = Number(new URL(target.baseUrl).port);
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    let found = false;
    let seen = '';
    client.on('data', (data) => upstream.write(data));
    upstream.on('data', (data: Buffer) => {
      if (!found) {
        seen += data.toString('latin1');
        if (/"content":"[^"]/.test(seen)) {
          found = true;
          seen = '';
          onFirstContent(performance.now());
        }
      }
      client.write(data);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ endpoint: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: target.key }, close: () => server.close() }),
    ),
  );
}

// ---- the emulator process -------------------------------------------------------------------

async function runEmulatorChild(): Promise<void> {
  const emu = await startEmulator({});
  process.on('message', (message: unknown) => {
    const m = message as { type: string; chunkCount?: number };
    if (m.type === 'script') {
      emu.scriptChat({ chunkCount: m.chunkCount ?? 100_000 });
      process.send?.({ type: 'scripted' } satisfies Message);
    } else if (m.type === 'close') {
      void emu.close().then(() => process.exit(0));
    }
  });
  process.send?.({ type: 'ready', baseUrl: emu.baseUrl, key: emu.key } satisfies Message);
}

class EmulatorProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly endpoint: Endpoint,
  ) {}

  static start(): Promise<EmulatorProcess> {
    const child = fork(__filename, ['--emulator-child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('message', (message: Message) => {
        if (message.type === 'ready') resolve(new EmulatorProcess(child, { baseUrl: message.baseUrl, key: message.key }));
      });
    });
  }

  /** Scripts the next chat answer to arrive in `chunkCount` chunks. */
  script(chunkCount: number): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('message', () => resolve());
      this.child.send({ type: 'script', chunkCount });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ type: 'close' });
    });
  }
}

// ---- the run --------------------------------------------------------------------------------

/** Another process busy on one core for as long as it runs: the "loaded machine". */
function startLoad(): ChildProcess {
  return fork(__filename, ['--spin-child'], { stdio: 'ignore' });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '5' }, chunks: { type: 'string', default: '100000' }, only: { type: 'string' } },
  });
  const runs = Math.max(1, Number(values.runs));
  const chunkCount = Math.max(1, Number(values.chunks));
  const ratios: string[] = [];
  for (const condition of ['quiet', 'loaded'] as const) {
    if (values.only !== undefined && values.only !== condition) continue;
    const load = condition === 'loaded' ? startLoad() : undefined;
    try {
      process.stdout.write(`\n=== ${condition === 'quiet' ? 'quiet machine' : 'loaded machine: another process spinning on one core throughout'} ===\n`);
      ratios.push(`${condition}: ${await measureAll(runs, chunkCount)}`);
    } finally {
      load?.kill();
    }
  }
  process.stdout.write(`\nratios (cadenza / other client; goal >= 1.00 quiet and loaded):\n${ratios.map((line) => `  ${line}`).join('\n')}\n`);
}

/** One full measurement (every reader, interleaved); prints its table and returns the ratio line. */
async function measureAll(runs: number, chunkCount: number): Promise<string> {
  const emulator = await EmulatorProcess.start();
  const { endpoint } = emulator;
  let stamp = Number.NaN;
  const relay = await startRelay(endpoint, (at) => (stamp = at));
  const readers: { name: string; stream: (e: Endpoint) => Promise<Sample>; firstToken: (e: Endpoint) => Promise<number> }[] = [
    { name: 'raw (floor)', stream: (e) => rawFetch(e, chunkCount), firstToken: rawSocketFirstToken },
    { name: 'cadenza client', stream: ours, firstToken: oursFirstToken },
    { name: 'openai v6 client', stream: official, firstToken: officialFirstToken },
    { name: 'sambanova v1 client', stream: sambanova, firstToken: sambanovaFirstToken },
  ];
  const samples = new Map<string, Sample[]>(readers.map((r) => [r.name, []]));
  const delays = new Map<string, number[]>(readers.map((r) => [r.name, []]));
  let streamBytes = 0;
  try {
    // One warm-up of each (JIT, connection set-up), then interleaved runs so drift hits all alike.
    for (let round = -1; round < runs; round++) {
      for (const reader of readers) {
        await emulator.script(chunkCount);
        const sample = await reader.stream(endpoint);
        if (sample.bytes > 0) streamBytes = sample.bytes;
        if (round >= 0) samples.get(reader.name)?.push(sample);
      }
      // The first token needs no 100,000-chunk answer behind it: 2,000 chunks still fill the
      // first 64 KiB read, and cost the emulator less, so more samples fit in the same time.
      for (let sample = 0; sample < TTFT_SAMPLES_PER_ROUND; sample++) {
        for (const reader of readers) {
          await emulator.script(Math.min(chunkCount, 2000));
          stamp = Number.NaN;
          const seenAt = await reader.firstToken(relay.endpoint);
          if (round >= 0) delays.get(reader.name)?.push(seenAt - stamp);
        }
      }
    }
  } finally {
    relay.close();
    await emulator.close();
  }

  const mb = streamBytes / 1_000_000;
  const rawDelay = median(delays.get('raw (floor)') ?? []);
  process.stdout.write(
    `Streaming ${chunkCount.toLocaleString('en')} chunks (${mb.toFixed(1)} MB of SSE) from the emulator in a child process; ` +
      `median of ${runs} runs (first token: of ${runs * TTFT_SAMPLES_PER_ROUND}) after a warm-up; node ${process.version}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n` +
      'raw = fetch() counting bytes for throughput, a bare socket for the first token\n\n',
  );
  const rows: string[][] = [['reader', 'chunks/s', 'MB/s', 'total ms', 'CPU ms', 'chunks/CPU-s', 'TTFT ms', 'first-token delay ms', 'added TTFT ms']];
  const summary = new Map<string, { chunksPerSec: number; chunksPerCpuSec: number; added: number }>();
  for (const reader of readers) {
    const list = samples.get(reader.name) ?? [];
    const total = median(list.map((s) => s.totalMs));
    const chunksPerSec = chunkCount / (total / 1000);
    const delay = median(delays.get(reader.name) ?? []);
    const added = delay - rawDelay;
    const cpu = median(list.map((s) => s.cpuMs));
    const chunksPerCpuSec = chunkCount / (cpu / 1000);
    summary.set(reader.name, { chunksPerSec, chunksPerCpuSec, added });
    rows.push([
      reader.name,
      Math.round(chunksPerSec).toLocaleString('en'),
      (mb / (total / 1000)).toFixed(1),
      total.toFixed(0),
      cpu.toFixed(0),
      Math.round(chunksPerCpuSec).toLocaleString('en'),
      median(list.map((s) => s.ttftMs)).toFixed(1),
      delay.toFixed(3),
      reader.name.startsWith('raw') ? '-' : added.toFixed(3),
    ]);
  }
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length))) ?? [];
  for (const row of rows)
    process.stdout.write(`${row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0))).join('  ')}\n`);
  const oursRow = summary.get('cadenza client');
  const theirs = summary.get('openai v6 client');
  const samba = summary.get('sambanova v1 client');
  const ratio = (other: typeof theirs): string =>
    `${((oursRow?.chunksPerSec ?? 0) / (other?.chunksPerSec ?? 1)).toFixed(2)}x wall clock, ${((oursRow?.chunksPerCpuSec ?? 0) / (other?.chunksPerCpuSec ?? 1)).toFixed(2)}x per CPU second`;
  process.stdout.write(
    '\nTTFT ms = request start to first token, whole request (dominated by the emulator preparing the answer).\n' +
      "first-token delay = the relay receives the first content bytes -> the caller sees the token; added = minus a bare socket's.\n" +
      "chunks/s is wall clock, shared with the emulator process on the same cores; chunks/CPU-s is the reader's own cost.\n" +
      `throughput ratio cadenza/openai: ${ratio(theirs)}; cadenza/sambanova: ${ratio(samba)} (goal >= 1.00)\n` +
      `cadenza added time to first token: ${(oursRow?.added ?? 0).toFixed(3)} ms (goal < 1 ms); openai: ${(theirs?.added ?? 0).toFixed(3)} ms; sambanova: ${(samba?.added ?? 0).toFixed(3)} ms\n`,
  );
  return `openai ${ratio(theirs)}; sambanova ${ratio(samba)}; added first-token ms cadenza ${(oursRow?.added ?? 0).toFixed(3)}, openai ${(theirs?.added ?? 0).toFixed(3)}, sambanova ${(samba?.added ?? 0).toFixed(3)}`;
}

if (process.argv.includes('--emulator-child')) {
  void runEmulatorChild();
} else if (process.argv.includes('--spin-child')) {
  // Busy on one core until killed.
  for (;;) Math.sqrt(Math.random());
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`bench/client/client: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
