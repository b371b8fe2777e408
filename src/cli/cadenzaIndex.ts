// `cadenza-index`: builds or updates a team index in PostgreSQL from a checkout, with the same walk,
// ignore rules, chunker and embeddings as the extension's local index. Meant for CI or a server:
//
//   CADENZA_DATABASE_URL=postgres://indexer@db/cadenza CADENZA_API_KEY=... \
//     npx cadenza-index --repository acme/shop [--commit <sha>] [--model E5-Mistral-7B-Instruct] [path]
//
// Credentials come from the environment only (never the command line, which `ps` shows).
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { Pool } from 'pg';
import { InferenceClient } from '../core/api/client';
import type { Logger } from '../core/logger';
import { buildTeamIndex } from '../core/index/pg/teamIndexer';
import type { IndexProgress } from '../core/index/indexRun';

interface CliArgs {
  root: string;
  repository: string | undefined;
  commit: string | undefined;
  model: string;
  batchSize: number | undefined;
  concurrency: number | undefined;
  maxFiles: number | undefined;
  verbose: boolean;
}

const USAGE = `Usage: cadenza-index --repository <name> [--commit <sha>] [--model <id>] [--batch-size N] [--concurrency N] [--max-files N] [--verbose] [path]
Environment: CADENZA_DATABASE_URL (PostgreSQL connection string, sslmode honoured), CADENZA_API_KEY,
CADENZA_BASE_URL (default https://api.sambanova.ai).`;

function parseArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = {
    root: process.cwd(),
    repository: undefined,
    commit: undefined,
    model: 'E5-Mistral-7B-Instruct',
    batchSize: undefined,
    concurrency: undefined,
    maxFiles: undefined,
    verbose: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value.`);
      return next;
    };
    const count = (): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`${arg} needs a positive whole number.`);
      return n;
    };
    if (arg === '--repository') args.repository = value();
    else if (arg === '--commit') args.commit = value();
    else if (arg === '--model') args.model = value();
    else if (arg === '--batch-size') args.batchSize = count();
    else if (arg === '--concurrency') args.concurrency = count();
    else if (arg === '--max-files') args.maxFiles = count();
    else if (arg === '--verbose') args.verbose = true;
    else if (arg === '--help' || arg === '-h') throw new UsageError('');
    else if (arg.startsWith('-')) throw new UsageError(`Unknown option ${arg}.`);
    else args.root = path.resolve(arg);
  }
  return args;
}

class UsageError extends Error {}

function gitHead(root: string): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function stderrLogger(verbose: boolean): Logger {
  const write =
    (level: string) =>
    (message: string | Error): void => {
      process.stderr.write(`[${level}] ${message instanceof Error ? message.message : message}\n`);
    };
  const quiet = (): void => undefined;
  return { trace: quiet, debug: verbose ? write('debug') : quiet, info: verbose ? write('info') : quiet, warn: write('warn'), error: write('error') };
}

async function main(): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message ? `${message}\n` : ''}${USAGE}\n`);
    return message ? 2 : 0;
  }
  const database = process.env['CADENZA_DATABASE_URL'];
  const apiKey = process.env['CADENZA_API_KEY'];
  const commit = args.commit ?? gitHead(args.root);
  const missing = [
    !args.repository && '--repository',
    !commit && '--commit (not a git checkout)',
    !database && 'CADENZA_DATABASE_URL',
    !apiKey && 'CADENZA_API_KEY',
  ].filter((m): m is string => typeof m === 'string');
  if (missing.length > 0 || !args.repository || !commit || !database || !apiKey) {
    process.stderr.write(`Missing: ${missing.join(', ')}.\n${USAGE}\n`);
    return 2;
  }
  const logger = stderrLogger(args.verbose);
  const client = new InferenceClient({ baseUrl: process.env['CADENZA_BASE_URL'] ?? 'https://api.sambanova.ai', apiKey, logger, userAgent: 'cadenza-index' });
  const pool = new Pool({ connectionString: database, max: 4 });
  const controller = new AbortController();
  const stop = (): void => {
    process.stderr.write('Stopping after the batches in flight; what is stored stays.\n');
    controller.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let promptTokens = 0;
  let lastLine = '';
  const progress = (p: IndexProgress): void => {
    const line = p.phase === 'scanning' ? `scanned ${p.filesProcessed} files` : `embedded ${p.chunksEmbedded}/${p.chunksToEmbed} chunks`;
    if (line !== lastLine) process.stdout.write(`progress: ${(lastLine = line)}\n`);
  };
  try {
    const model = await client.getModel(args.model, controller.signal).catch(() => undefined);
    const result = await buildTeamIndex({
      root: args.root,
      repository: args.repository,
      commit,
      model: args.model,
      pool,
      batchSize: args.batchSize,
      concurrency: args.concurrency,
      maxFiles: args.maxFiles,
      logger,
      signal: controller.signal,
      onProgress: progress,
      embed: async (texts, signal) => {
        const reply = await client.embed([...texts], args.model, { signal });
        promptTokens += reply.promptTokens ?? 0;
        return reply.embeddings;
      },
    });
    const cost = model?.pricing ? `$${(promptTokens * model.pricing.promptPerToken).toFixed(6)}` : 'unknown (no price listed)';
    process.stdout.write(
      `summary: ${result.status}; ${args.repository}@${commit} (${args.model}): ${result.files} files, ${result.chunks} chunks; ` +
        `this run: ${result.filesChanged} files changed, ${result.filesDeleted} removed, ${result.chunksEmbedded} chunks embedded, ${result.chunksReused} reused, ` +
        `${result.chunksPending} pending; rows written: ${result.written.entries} file entries, ${result.written.blobs} file contents, ${result.written.chunks} chunks, ${result.written.vectors} vectors; ${promptTokens} tokens embedded, cost ${cost}; ${(result.elapsedMs / 1000).toFixed(1)} s` +
        `${result.stopReason ? ` (${result.stopReason})` : ''}\n`,
    );
    return result.status === 'complete' ? 0 : 1;
  } catch (error) {
    process.stderr.write(`cadenza-index failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await pool.end().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
