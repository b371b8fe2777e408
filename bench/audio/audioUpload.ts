// The "upload" half of issue 5's figure: for 100 files, the client-side time to validate and upload.
// The emulator runs in a separate process, so this process's CPU time is the client's own work (read,
// sniff, measure, check, build the multipart body, send, read the reply) and excludes the service's.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InferenceClient } from '../../src/core/api/client';
import { inspectAudioFile } from '../../src/core/audio/audioFile';
import { runBatch } from '../../src/core/audio/batch';
import { checkAudioForFamily } from '../../src/core/audio/limits';

/** One file to upload: its path and size. */
export interface UploadFile {
  readonly path: string;
  readonly bytes: number;
}

async function startEmulatorProcess(root: string): Promise<{ child: ChildProcess; baseUrl: string; key: string }> {
  const child = spawn(process.execPath, [join(root, 'scripts', 'emulator.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      const url = /listening on (\S+)/.exec(output)?.[1];
      const key = /API key: (\S+)/.exec(output)?.[1];
      if (url && key) resolve({ child, baseUrl: url, key });
    });
  });
}

/** Validates and uploads `files` for transcription (speech-to-text family), printing the client's figures. */
export async function benchUploads(root: string, files: readonly UploadFile[]): Promise<void> {
  const { child, baseUrl, key } = await startEmulatorProcess(root);
  const client = new InferenceClient({ baseUrl, apiKey: key, maxRetries: 0 });
  try {
    // Warm the connection pool and the code paths once.
    const warm = files[0];
    if (warm) await client.transcribe({ model: 'Whisper-Large-v3', audio: await readFile(warm.path), language: 'en' });
    for (const concurrency of [1, 4]) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      let validateCpuMicros = 0;
      const results = await runBatch(
        files,
        async (file, signal) => {
          const before = process.cpuUsage();
          const facts = await inspectAudioFile(file.path);
          const problem = checkAudioForFamily(facts, 'speechToText');
          const spent = process.cpuUsage(before);
          validateCpuMicros += spent.user + spent.system;
          if (problem) throw new Error(problem.kind);
          return client.transcribe({ model: 'Whisper-Large-v3', audio: await readFile(file.path), language: 'en' }, { signal });
        },
        { concurrency },
      );
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const done = results.filter((result) => result.status === 'done').length;
      const megabytes = files.reduce((sum, file) => sum + file.bytes, 0) / 1e6;
      process.stdout.write(
        `validate+upload ${files.length} files (${megabytes.toFixed(1)} MB) to an emulator in another process, ${concurrency} at a time: ` +
          `${done} done; client CPU ${cpuMs.toFixed(0)} ms total = ${(cpuMs / files.length).toFixed(2)} ms/file ` +
          `(validation ${(validateCpuMicros / 1000 / files.length).toFixed(2)} ms/file); wall ${wallMs.toFixed(0)} ms (${((megabytes * 1000) / wallMs).toFixed(0)} MB/s, includes the emulator's time)\n`,
      );
    }
  } finally {
    await client.close();
    child.kill('SIGTERM');
  }
}
