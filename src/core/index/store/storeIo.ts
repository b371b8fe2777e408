import { promises as fsp } from 'node:fs';

/** The subset of a Node `FileHandle` the store uses; tests substitute failing or tearing versions. */
export interface StoreFile {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

/** File-system operations of the store, as a port so failures midway can be injected in tests. */
export interface StoreIo {
  open(path: string, flags: 'r' | 'r+' | 'w' | 'wx'): Promise<StoreFile>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Flushes a directory entry (after a rename) where the platform allows it. */
  syncDir(path: string): Promise<void>;
  mkdir(path: string): Promise<void>;
}

/** The real file system. */
export const nodeStoreIo: StoreIo = {
  open: (path, flags) => fsp.open(path, flags),
  rename: async (from, to) => {
    // Windows refuses to replace a file another process (an antivirus scan, a second window) holds
    // open for a moment; a few short retries ride that out.
    for (let attempt = 0; ; attempt++) {
      try {
        return await fsp.rename(from, to);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (attempt >= 4 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      }
    }
  },
  unlink: (path) => fsp.unlink(path),
  syncDir: async (path) => {
    try {
      const handle = await fsp.open(path, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // Directories cannot be opened or fsynced on Windows; the rename is durable enough there.
    }
  },
  mkdir: async (path) => {
    await fsp.mkdir(path, { recursive: true });
  },
};

/** Reads exactly `length` bytes at `position`; false when the file is shorter (truncated). */
export async function readExactly(file: StoreFile, buffer: Uint8Array, position: number, length = buffer.length): Promise<boolean> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) return false;
    done += bytesRead;
  }
  return true;
}

/** Writes all of `buffer` at `position`, looping over short writes. */
export async function writeFully(file: StoreFile, buffer: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < buffer.length) {
    const { bytesWritten } = await file.write(buffer, done, buffer.length - done, position + done);
    if (bytesWritten <= 0) throw new Error('short write');
    done += bytesWritten;
  }
}
