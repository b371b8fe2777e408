// The native libraries bench/localIndex/indexPeers.ts measures Cadenza's vector search against: hnswlib-node, simsimd
// and usearch. They compile with node-gyp (a C++ toolchain and Node's headers) wherever they ship no prebuilt
// binary, and nothing else uses them, so the project's own `npm ci` leaves them out (on a machine without
// a compiler it would fail, and `npm start` and `npm test` with it): they live in bench/localIndex/peers/, a package of
// their own with its own lockfile, which `npm run bench:peers` installs before it runs the bench.
// Only the calls the bench makes are typed here, so the project type-checks without the libraries.
import { createRequire } from 'node:module';
import * as path from 'node:path';

/** hnswlib-node's index, as the bench uses it. */
export interface HnswIndex {
  initIndex(maxElements: number, m?: number, efConstruction?: number, randomSeed?: number): void;
  addPoint(point: number[], label: number): void;
  setEf(ef: number): void;
  searchKnn(query: number[], k: number): { distances: number[]; neighbors: number[] };
}

/** usearch's search results: one query's keys and distances. */
interface UsearchMatches {
  readonly keys: BigUint64Array;
  readonly distances: Float32Array;
}

/** usearch's index configuration (`metric` and `quantization` take the module's own enum values). */
export interface UsearchConfig {
  dimensions: number;
  metric: string;
  quantization: string;
  connectivity: number;
  expansion_add: number;
  expansion_search: number;
  multi: boolean;
}

/** usearch's HNSW index, as the bench uses it. */
export interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): UsearchMatches;
  save(path: string): void;
  view(path: string): void;
}

/** The three libraries, loaded. */
export interface PeerModules {
  readonly hnswlib: { readonly HierarchicalNSW: new (space: 'l2' | 'ip' | 'cosine', dimensions: number) => HnswIndex };
  readonly simsimd: { dot(a: Float32Array, b: Float32Array): number };
  readonly usearch: {
    readonly Index: new (config: UsearchConfig) => UsearchIndex;
    readonly MetricKind: { readonly IP: string; readonly Cos: string };
    readonly ScalarKind: { readonly F32: string; readonly I8: string };
    exactSearch(dataset: Float32Array, query: Float32Array, dimensions: number, count: number, metric: string, threads?: number): UsearchMatches;
  };
}

/** Where the bench's own package is (bench/localIndex/peers, beside this file's source, also when run from out/bench). */
export const peersPackageDir = path.join(__dirname, '..', '..', '..', 'bench', 'localIndex', 'peers');

/** The libraries could not all be loaded; the message names each one missing and how to install them. */
export class PeerModulesMissing extends Error {
  constructor(
    readonly missing: readonly string[],
    details: readonly string[],
  ) {
    super(
      [
        `bench/localIndex/indexPeers needs native libraries that are not installed: ${missing.join(', ')}.`,
        "They are kept out of the project's own npm ci (they compile with node-gyp, which needs a C++ toolchain and Node's headers",
        'where no prebuilt binary fits). Install them into bench/localIndex/peers and run the bench with:',
        '  npm run bench:peers -- [--sizes=100000x4096,1000000x1024] [--queries=50] [--budget-min=25]',
        '(or once: npm install --prefix bench/localIndex/peers; then npm run bench:index -- peers).',
        ...details.map((line) => `  ${line}`),
      ].join('\n'),
    );
    this.name = 'PeerModulesMissing';
  }
}

/** Loads the three libraries from `dir`'s node_modules; throws {@link PeerModulesMissing} naming each that is absent. */
export function loadPeerModules(dir: string = peersPackageDir): PeerModules {
  const load = createRequire(path.join(dir, 'package.json'));
  const missing: string[] = [];
  const details: string[] = [];
  const tryLoad = (name: string): unknown => {
    try {
      return load(name);
    } catch (error) {
      missing.push(name);
      details.push(`${name}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''}`);
      return undefined;
    }
  };
  const hnswlib = tryLoad('hnswlib-node');
  const simsimd = tryLoad('simsimd');
  const usearch = tryLoad('usearch');
  if (missing.length > 0) throw new PeerModulesMissing(missing, details);
  return { hnswlib, simsimd, usearch } as PeerModules;
}
