// `npm run emulator -- [--port N] [--key K] [--host H] [--latency MS] [--chunk-delay MS] [--faults JSON]`
// Starts the service emulator (test/support/emulator, compiled to out/) until SIGTERM/SIGINT, then exits 0.
// --faults takes a JSON fault or array of faults applied to every matching request for the whole
// run; a fault may carry "path" to limit it, e.g. '[{"kind":"rateLimit","afterRequests":3,"reset":"2"}]'.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'out', 'test', 'support', 'emulator', 'emulator.js');

function fail(message) {
  process.stderr.write(`emulator: ${message}\n`);
  process.exit(2);
}

function numberFlag(value, name) {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) fail(`--${name} must be a non-negative integer, got ${value}`);
  return number;
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      key: { type: 'string' },
      host: { type: 'string' },
      latency: { type: 'string' },
      'chunk-delay': { type: 'string' },
      faults: { type: 'string' },
    },
    strict: true,
  }));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

let runFaults;
if (values.faults !== undefined) {
  try {
    const parsed = JSON.parse(values.faults);
    runFaults = Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    fail('--faults must be JSON: a fault object or an array of them');
  }
  for (const fault of runFaults) {
    if (typeof fault !== 'object' || fault === null || typeof fault.kind !== 'string') fail(`not a fault: ${JSON.stringify(fault)}`);
  }
}

if (!existsSync(entry)) {
  // First run in a fresh checkout: compile once. tsc may report errors in unrelated folders and still emit.
  process.stderr.write('emulator: compiling with tsc -p tsconfig.json ...\n');
  spawnSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(entry)) fail(`${entry} is missing after compiling`);
}

const { startEmulator } = createRequire(import.meta.url)(entry);
const options = {};
const port = numberFlag(values.port, 'port');
if (port !== undefined) options.port = port;
if (values.key !== undefined) options.key = values.key;
if (values.host !== undefined) options.host = values.host;
const latency = numberFlag(values.latency, 'latency');
if (latency !== undefined) options.latencyMs = latency;
const chunkDelay = numberFlag(values['chunk-delay'], 'chunk-delay');
if (chunkDelay !== undefined) options.chunkDelayMs = chunkDelay;
if (runFaults !== undefined) options.runFaults = runFaults;

let emulator;
try {
  emulator = await startEmulator(options);
} catch (error) {
  fail(`could not start: ${error instanceof Error ? error.message : String(error)}`);
}
process.stdout.write(`Cadenza emulator listening on ${emulator.baseUrl}\nAPI key: ${emulator.key}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await emulator.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
