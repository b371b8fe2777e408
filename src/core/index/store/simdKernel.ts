/**
 * The int8 dot-product kernel behind vector search.
 *
 * A scan of 100,000 rows of 4,096 int8 values is 410 M multiply-adds; a plain JavaScript loop manages
 * roughly 1 G/s, far from a 30 ms query. WebAssembly SIMD (`i32x4.dot_i16x8_s`, in every Node and
 * Electron we support) does 16 per step, ~15x faster. There is no WebAssembly toolchain among our
 * dependencies, so the module is assembled below from its opcodes: one function,
 * `scan(rows, query, stride, count, out)`, writing `count` int32 dot products of consecutive rows
 * of `stride` bytes (a multiple of 16) with the query into `out`; and
 * `blocks(rows, signs, stride, count, out)`, writing for every 16-byte block of those rows the dot
 * product with the matching block of `signs` (the count-sketch projection of vectorSearch.ts).
 * When WebAssembly or SIMD is missing, `jsScan`/`jsBlocks` compute the same integers in plain
 * JavaScript over a plain ArrayBuffer.
 */

/** Signature shared by the WebAssembly and JavaScript kernels; all offsets are byte offsets into the memory. */
export type ScanFunction = (rowsOffset: number, queryOffset: number, stride: number, count: number, outOffset: number) => void;

/** A linear memory with the kernel bound to it. */
export interface KernelMemory {
  readonly simd: boolean;
  /** The current buffer; replaced whenever `grow` runs, so never hold on to views across a grow. */
  buffer(): ArrayBuffer;
  /** Grows the memory to at least `bytes` bytes (contents kept). */
  ensure(bytes: number): void;
  readonly scan: ScanFunction;
  readonly blocks: ScanFunction;
}

const PAGE = 65536;

// The project compiles without the DOM library, which is where TypeScript declares `WebAssembly`;
// these are the few members used, looked up on globalThis so a runtime without it just falls back.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: abstract new (...args: never[]) => WasmMemory;
}
const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

function leb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

const simd = (op: number): number[] => [0xfd, ...leb(op)];
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
// The opcodes grouped by kind, and below the instructions one per row as the module runs them: the
// formatter leaves these tables alone (it would put each byte on its own line).
// prettier-ignore
const OP = {
  block: [0x02, 0x40], loop: [0x03, 0x40], end: [0x0b], br: 0x0c, brIf: 0x0d,
  i32Const: 0x41, i32GeU: 0x4f, i32Add: 0x6a, i32Sub: 0x6b, i32Mul: 0x6c, i32Shl: 0x74, i32ShrU: 0x76, i32Store: [0x36, 0x02, 0x00],
  v128Load: [...simd(0x00), 0x00, 0x00], v128Const0: [...simd(0x0c), ...new Array<number>(16).fill(0)],
  extendLowS: simd(0x87), extendHighS: simd(0x88), dot: simd(0xba), i32x4Add: simd(0xae),
  lane: (i: number): number[] => [...simd(0x1b), i],
} as const;

// Parameters 0..4: rows, query, stride, count, out. Locals: 5 v, 6 row, 7 j (i32); 8 acc, 9 a, 10 b (v128).
const [ROWS, QUERY, STRIDE, COUNT, OUT, V, ROW, J, ACC, A, B] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

function scanBody(): number[] {
  // prettier-ignore
  return [
    0x02, 0x03, 0x7f, 0x03, 0x7b, // locals: 3 x i32, 3 x v128
    ...OP.block, ...OP.loop,
    ...get(V), ...get(COUNT), OP.i32GeU, OP.brIf, 1,
    ...get(ROWS), ...get(V), ...get(STRIDE), OP.i32Mul, OP.i32Add, ...set(ROW),
    ...OP.v128Const0, ...set(ACC),
    OP.i32Const, 0, ...set(J),
    ...OP.block, ...OP.loop,
    ...get(J), ...get(STRIDE), OP.i32GeU, OP.brIf, 1,
    ...get(ROW), ...get(J), OP.i32Add, ...OP.v128Load, ...set(A),
    ...get(QUERY), ...get(J), OP.i32Add, ...OP.v128Load, ...set(B),
    ...get(ACC),
    ...get(A), ...OP.extendLowS, ...get(B), ...OP.extendLowS, ...OP.dot, ...OP.i32x4Add,
    ...get(A), ...OP.extendHighS, ...get(B), ...OP.extendHighS, ...OP.dot, ...OP.i32x4Add,
    ...set(ACC),
    ...get(J), OP.i32Const, 16, OP.i32Add, ...set(J),
    OP.br, 0,
    ...OP.end, ...OP.end,
    ...get(OUT), ...get(V), OP.i32Const, 2, OP.i32Shl, OP.i32Add,
    ...get(ACC), ...OP.lane(0),
    ...get(ACC), ...OP.lane(1), OP.i32Add,
    ...get(ACC), ...OP.lane(2), OP.i32Add,
    ...get(ACC), ...OP.lane(3), OP.i32Add,
    ...OP.i32Store,
    ...get(V), OP.i32Const, 1, OP.i32Add, ...set(V),
    OP.br, 0,
    ...OP.end, ...OP.end,
    ...OP.end,
  ];
}

// Same parameters and locals; `QUERY` holds the signs. Per 16-byte block: one dot product, stored at
// out + (byte offset of the block from `rows`) / 4, i.e. one int32 per block.
function blocksBody(): number[] {
  // prettier-ignore
  const sumLanes = [...get(ACC), ...OP.lane(0), ...get(ACC), ...OP.lane(1), OP.i32Add, ...get(ACC), ...OP.lane(2), OP.i32Add, ...get(ACC), ...OP.lane(3), OP.i32Add];
  // prettier-ignore
  return [
    0x02, 0x03, 0x7f, 0x03, 0x7b,
    ...OP.block, ...OP.loop,
    ...get(V), ...get(COUNT), OP.i32GeU, OP.brIf, 1,
    ...get(ROWS), ...get(V), ...get(STRIDE), OP.i32Mul, OP.i32Add, ...set(ROW),
    OP.i32Const, 0, ...set(J),
    ...OP.block, ...OP.loop,
    ...get(J), ...get(STRIDE), OP.i32GeU, OP.brIf, 1,
    ...get(ROW), ...get(J), OP.i32Add, ...OP.v128Load, ...set(A),
    ...get(QUERY), ...get(J), OP.i32Add, ...OP.v128Load, ...set(B),
    ...get(A), ...OP.extendLowS, ...get(B), ...OP.extendLowS, ...OP.dot,
    ...get(A), ...OP.extendHighS, ...get(B), ...OP.extendHighS, ...OP.dot, ...OP.i32x4Add,
    ...set(ACC),
    ...get(OUT), ...get(ROW), ...get(ROWS), OP.i32Sub, ...get(J), OP.i32Add, OP.i32Const, 2, OP.i32ShrU, OP.i32Add,
    ...sumLanes,
    ...OP.i32Store,
    ...get(J), OP.i32Const, 16, OP.i32Add, ...set(J),
    OP.br, 0,
    ...OP.end, ...OP.end,
    ...get(V), OP.i32Const, 1, OP.i32Add, ...set(V),
    OP.br, 0,
    ...OP.end, ...OP.end,
    ...OP.end,
  ];
}

function section(id: number, bytes: number[]): number[] {
  return [id, ...leb(bytes.length), ...bytes];
}

function name(s: string): number[] {
  const bytes = [...Buffer.from(s, 'utf8')];
  return [...leb(bytes.length), ...bytes];
}

/** The kernel module's bytes (exports `memory`, `scan` and `blocks`). */
export function kernelModuleBytes(): Uint8Array {
  const scan = scanBody();
  const blocks = blocksBody();
  // prettier-ignore
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
    ...section(3, [2, 0, 0]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [3, ...name('memory'), 0x02, 0, ...name('scan'), 0x00, 0, ...name('blocks'), 0x00, 1]),
    ...section(10, [2, ...leb(scan.length), ...scan, ...leb(blocks.length), ...blocks]),
  ]);
}

let compiled: object | null | undefined;

function compiledModule(): object | undefined {
  if (compiled === undefined) {
    try {
      const bytes = kernelModuleBytes();
      compiled = wasmApi?.validate(bytes) ? new wasmApi.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled ?? undefined;
}

/** The JavaScript kernel: same integers as the SIMD one, for runtimes without WebAssembly SIMD. */
export function jsScan(buffer: ArrayBuffer): ScanFunction {
  return (rowsOffset, queryOffset, stride, count, outOffset) => {
    const bytes = new Int8Array(buffer);
    const out = new Int32Array(buffer, outOffset, count);
    for (let v = 0; v < count; v++) {
      const row = rowsOffset + v * stride;
      let s0 = 0;
      let s1 = 0;
      for (let j = 0; j < stride; j += 2) {
        s0 += (bytes[row + j] ?? 0) * (bytes[queryOffset + j] ?? 0);
        s1 += (bytes[row + j + 1] ?? 0) * (bytes[queryOffset + j + 1] ?? 0);
      }
      out[v] = s0 + s1;
    }
  };
}

/** The JavaScript block sums: same integers as the SIMD `blocks`. */
export function jsBlocks(buffer: ArrayBuffer): ScanFunction {
  return (rowsOffset, signsOffset, stride, count, outOffset) => {
    const bytes = new Int8Array(buffer);
    const out = new Int32Array(buffer, outOffset, (count * stride) / 16);
    for (let b = 0; b < out.length; b++) {
      const at = rowsOffset + b * 16;
      const sign = signsOffset + ((b * 16) % stride);
      let sum = 0;
      for (let j = 0; j < 16; j++) sum += (bytes[at + j] ?? 0) * (bytes[sign + j] ?? 0);
      out[b] = sum;
    }
  };
}

interface KernelExports {
  memory: WasmMemory;
  scan: ScanFunction;
  blocks: ScanFunction;
}

function isKernelExports(value: unknown): value is KernelExports {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return wasmApi !== undefined && v['memory'] instanceof wasmApi.Memory && typeof v['scan'] === 'function' && typeof v['blocks'] === 'function';
}

/** Creates a memory with a kernel; `preferSimd: false` forces the JavaScript kernel (tests, benchmarks). */
export function createKernelMemory(initialBytes: number, preferSimd = true): KernelMemory {
  const module = preferSimd ? compiledModule() : undefined;
  if (module && wasmApi) {
    const exports: unknown = new wasmApi.Instance(module, {}).exports;
    if (isKernelExports(exports)) {
      const memory = exports.memory;
      const wasm: KernelMemory = {
        simd: true,
        buffer: () => memory.buffer,
        ensure: (bytes) => {
          const have = memory.buffer.byteLength;
          if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
        },
        scan: exports.scan,
        blocks: exports.blocks,
      };
      wasm.ensure(initialBytes);
      return wasm;
    }
  }
  let buffer = new ArrayBuffer(Math.max(PAGE, Math.ceil(initialBytes / PAGE) * PAGE));
  let scan = jsScan(buffer);
  let blocks = jsBlocks(buffer);
  const js: KernelMemory = {
    simd: false,
    buffer: () => buffer,
    ensure: (bytes) => {
      if (bytes <= buffer.byteLength) return;
      const next = new ArrayBuffer(Math.max(bytes, buffer.byteLength * 2));
      new Uint8Array(next).set(new Uint8Array(buffer));
      buffer = next;
      scan = jsScan(buffer);
      blocks = jsBlocks(buffer);
    },
    scan: (...args) => scan(...args),
    blocks: (...args) => blocks(...args),
  };
  return js;
}
