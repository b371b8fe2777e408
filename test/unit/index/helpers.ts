import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../../../src/core/logger';
import { tokenize } from '../../../src/core/index/tokenize';

/** A temp folder with files from a path -> content map; removed by `dispose`. */
export class Fixture {
  readonly root: string;

  constructor(files: Record<string, string | Uint8Array> = {}) {
    this.root = mkdtempSync(path.join(tmpdir(), 'cadenza-index-'));
    this.write(files);
  }

  write(files: Record<string, string | Uint8Array>): void {
    for (const [rel, content] of Object.entries(files)) {
      const abs = this.path(rel);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    }
  }

  path(rel: string): string {
    return path.join(this.root, ...rel.split('/'));
  }

  remove(rel: string): void {
    rmSync(this.path(rel), { recursive: true, force: true });
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A logger that keeps every line, for asserting that problems were logged. */
export class CollectingLogger implements Logger {
  readonly lines: { level: string; message: string }[] = [];
  trace(message: string): void {
    this.lines.push({ level: 'trace', message });
  }
  debug(message: string): void {
    this.lines.push({ level: 'debug', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string | Error): void {
    this.lines.push({ level: 'error', message: String(message) });
  }
  has(level: string, pattern: RegExp): boolean {
    return this.lines.some((l) => l.level === level && pattern.test(l.message));
  }
}

/** Words a fake embedder treats as the same concept, so "semantic" matches without shared words work. */
const CONCEPTS: Record<string, string> = {
  login: 'concept_auth',
  signin: 'concept_auth',
  sign: 'concept_auth',
  authenticate: 'concept_auth',
  credentials: 'concept_auth',
  password: 'concept_auth',
  sum: 'concept_math',
  add: 'concept_math',
  total: 'concept_math',
  arithmetic: 'concept_math',
  plus: 'concept_math',
  render: 'concept_ui',
  draw: 'concept_ui',
  paint: 'concept_ui',
  display: 'concept_ui',
  button: 'concept_ui',
};

function bucket(token: string, dimension: number): number {
  let h = 2166136261;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
  return (h >>> 0) % dimension;
}

/** A deterministic bag-of-concepts embedding: texts sharing words or concepts get similar vectors. */
export function fakeEmbedding(text: string, dimension = 64): Float32Array {
  const v = new Float32Array(dimension);
  for (const token of tokenize(text)) {
    const concept = CONCEPTS[token];
    const b = bucket(concept ?? token, dimension);
    v[b] = (v[b] ?? 0) + (concept ? 3 : 1);
  }
  v[dimension - 1] = (v[dimension - 1] ?? 0) + 0.01; // never all zero
  return v;
}

/** A fake embed function that records every batch it was asked for. */
export function recordingEmbedder(dimension = 64): {
  embed: (texts: readonly string[], signal: AbortSignal) => Promise<Float32Array[]>;
  batches: string[][];
  texts: () => string[];
} {
  const batches: string[][] = [];
  return {
    batches,
    texts: () => batches.flat(),
    embed: async (texts, signal) => {
      if (signal.aborted) throw new Error('aborted');
      batches.push([...texts]);
      await Promise.resolve();
      return texts.map((t) => fakeEmbedding(t, dimension));
    },
  };
}

/** Lines of plausible code so files chunk into several pieces. */
export function codeFile(name: string, functions: number, bodyLines = 12): string {
  const out: string[] = [`// ${name}: generated fixture`, ''];
  for (let f = 0; f < functions; f++) {
    out.push(`export function ${name}Step${f}(input: number): number {`);
    for (let l = 0; l < bodyLines; l++) out.push(`  const v${l} = input * ${f + 1} + ${l}; // ${name} step ${f} line ${l}`);
    out.push(`  return v0 + v${bodyLines - 1};`, '}', '');
  }
  return out.join('\n');
}
