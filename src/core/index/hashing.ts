import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';

/** Bytes in a content hash as stored on disk: 128 bits of SHA-256, ample against accidental collisions. */
export const HASH_BYTES = 16;

/** Hex content hash (first 128 bits of SHA-256) of raw bytes or of a string's UTF-8 encoding. */
export function contentHash(data: Uint8Array | string): string {
  return createHash('sha256')
    .update(data)
    .digest('hex')
    .slice(0, HASH_BYTES * 2);
}

/** Writes a hex hash from `contentHash` into `target` at `offset` as 16 raw bytes. */
export function writeHash(hex: string, target: Uint8Array, offset: number): void {
  target.set(Buffer.from(hex, 'hex').subarray(0, HASH_BYTES), offset);
}

/** Reads 16 raw bytes at `offset` back into the hex form `contentHash` returns. */
export function readHash(source: Uint8Array, offset: number): string {
  return Buffer.from(source.buffer, source.byteOffset + offset, HASH_BYTES).toString('hex');
}

// zlib.crc32 arrived in Node 20.15/22.2; VS Code's Electron has it, but a table fallback keeps older
// Node runtimes (and any embedder without it) working with the identical polynomial.
const nativeCrc32: ((data: Uint8Array, value?: number) => number) | undefined =
  typeof (zlib as { crc32?: unknown }).crc32 === 'function' ? (zlib as unknown as { crc32: (d: Uint8Array, v?: number) => number }).crc32 : undefined;

let crcTable: Uint32Array | undefined;
function tableCrc32(data: Uint8Array, value = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let crc = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) crc = (table[(crc ^ (data[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 (IEEE) of `data`, continuing from `value` so large bodies can be checked piece by piece. */
export function crc32(data: Uint8Array, value = 0): number {
  return nativeCrc32 ? nativeCrc32(data, value) >>> 0 : tableCrc32(data, value);
}

/** CRC-32 with the pure-JS table, exported so tests can prove both paths agree. */
export function crc32Fallback(data: Uint8Array, value = 0): number {
  return tableCrc32(data, value);
}
