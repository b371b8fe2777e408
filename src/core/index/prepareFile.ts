import { decodeFile } from './binaryDetect';
import { withContext } from './chunkContext';
import { chunkText, type ChunkOptions, type TextChunk } from './chunker';
import type { FileSource } from './fileSource';
import { contentHash } from './hashing';

/** A file read, hashed and chunked, ready to compare with the index. */
export interface PreparedFile {
  readonly size: number;
  readonly mtimeMs: number;
  /** Hash of the raw bytes. */
  readonly hash: string;
  readonly chunks: readonly TextChunk[];
  readonly encoding: string;
  readonly lossy: boolean;
}

/** Why a file the walk found is not indexed after all. */
export type PrepareSkip = 'vanished' | 'binary' | 'minified' | 'tooLarge' | 'unreadable';

/** The outcome of preparing one file. */
export type Prepared =
  { readonly kind: 'file'; readonly file: PreparedFile } | { readonly kind: 'skip'; readonly reason: PrepareSkip; readonly detail: string };

/**
 * Reads, classifies, hashes and chunks one file. Never throws: a file deleted while it is read is
 * `vanished`, a permission error `unreadable`, binary or minified content is reported as such.
 * A chunk's text starts with the names of the declarations it sits in (chunkContext.ts) unless
 * `context` is false (the benchmark's "before").
 */
export async function prepareFile(
  absPath: string,
  mtimeMs: number,
  source: FileSource,
  maxFileBytes: number,
  chunking: ChunkOptions | undefined,
  context = true,
): Promise<Prepared> {
  let read: Awaited<ReturnType<FileSource['read']>>;
  try {
    read = await source.read(absPath, maxFileBytes);
  } catch (error) {
    return { kind: 'skip', reason: 'unreadable', detail: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  if (read === undefined) return { kind: 'skip', reason: 'vanished', detail: 'deleted while indexing' };
  if (read === 'tooLarge') return { kind: 'skip', reason: 'tooLarge', detail: `over ${maxFileBytes} bytes` };
  const decoded = decodeFile(read);
  if (decoded.kind === 'binary') return { kind: 'skip', reason: 'binary', detail: decoded.why };
  if (decoded.kind === 'minified') return { kind: 'skip', reason: 'minified', detail: `average line ${decoded.averageLineLength} characters` };
  return {
    kind: 'file',
    file: {
      size: read.length,
      // The walk's timestamp: if the file changes between that stat and this read, the next run
      // sees a newer time and reads it again, which is the safe direction.
      mtimeMs,
      hash: contentHash(read),
      chunks: context ? withContext(decoded.text, chunkText(decoded.text, chunking)) : chunkText(decoded.text, chunking),
      encoding: decoded.encoding,
      lossy: decoded.lossy,
    },
  };
}
