import * as fs from 'node:fs';

/**
 * How the indexer reads file contents: a port, so the host may serve unsaved editor text and tests
 * can make files vanish or fail mid-read. `undefined` means the file is gone (deleted after the walk
 * saw it), which is normal and not an error.
 */
export interface FileSource {
  read(absPath: string, maxBytes: number): Promise<Uint8Array | 'tooLarge' | undefined>;
  stat(absPath: string): Promise<{ readonly size: number; readonly mtimeMs: number; readonly isFile: boolean; readonly isDirectory: boolean } | undefined>;
}

function gone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/**
 * Reads from the local disk with the callback API: for thousands of small files the promise
 * `FileHandle` API spent more main-thread time in its machinery (open, stat, read, close as four
 * promise round trips) than the indexer spent on the contents. The walk checked the size; a file
 * that grew past the limit since is still refused after reading.
 */
export const nodeFileSource: FileSource = {
  read: (absPath, maxBytes) =>
    new Promise((resolve, reject) => {
      fs.readFile(absPath, (error, bytes) => {
        if (error) return gone(error) ? resolve(undefined) : reject(error);
        resolve(bytes.length > maxBytes ? 'tooLarge' : bytes);
      });
    }),
  stat: (absPath) =>
    new Promise((resolve, reject) => {
      fs.stat(absPath, (error, s) => {
        if (error) return gone(error) ? resolve(undefined) : reject(error);
        resolve({ size: s.size, mtimeMs: s.mtimeMs, isFile: s.isFile(), isDirectory: s.isDirectory() });
      });
    }),
};

/** Lines `startLine..endLine` (1-based, inclusive) of a text, for result previews. */
export function sliceLines(text: string, startLine: number, endLine: number): string {
  return text
    .split(/\r?\n/)
    .slice(Math.max(0, startLine - 1), endLine)
    .join('\n');
}
