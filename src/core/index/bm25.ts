import { compoundIdentifiers, tokenize } from './tokenize';
import { TopK } from './topK';

/** A keyword hit: the chunk (by file path and line range) and its BM25 score. */
export interface KeywordHit {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly score: number;
}

/** A chunk as the keyword index takes it. */
export interface KeywordDocument {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

const K1 = 1.2;
const B = 0.75;
/** tf is packed with the document id into one small integer; BM25 saturates long before 63. */
const TF_BITS = 6;
const TF_MAX = (1 << TF_BITS) - 1;
const DOC_LIMIT = 2 ** (31 - TF_BITS);

/**
 * BM25 (k1 1.2, b 0.75, Lucene's non-negative idf) over chunks, kept in memory.
 *
 * Chunk texts are not in the index file, so this is fed as files are chunked (every file is read
 * once per session by the first sync). Postings are plain arrays of `docId << 6 | tf` small integers
 * (8 bytes a posting, no object per posting). Removing a file only marks its documents dead; the
 * postings are rebuilt without them once dead documents pass a quarter of all, so removal is cheap
 * and memory stays bounded. Document frequencies count dead postings until then, a small bias.
 */
export class KeywordIndex {
  private readonly terms = new Map<string, number>();
  private postings: number[][] = [];
  private docPath: string[] = [];
  private docStart: number[] = [];
  private docEnd: number[] = [];
  private docLength: number[] = [];
  private docAlive: boolean[] = [];
  private readonly byPath = new Map<string, number[]>();
  private liveDocs = 0;
  private liveLength = 0;
  private deadDocs = 0;
  /** Per-term counts while one document is added (all zero in between): cheaper than a Map per chunk. */
  private counts = new Uint16Array(1024);

  /** Number of live chunks. */
  get size(): number {
    return this.liveDocs;
  }

  /** Whether the file's chunks are in the index. */
  has(path: string): boolean {
    return this.byPath.has(path);
  }

  /** Replaces the chunks of `path`. */
  setFile(path: string, docs: readonly KeywordDocument[]): void {
    this.removeFile(path);
    if (this.docPath.length + docs.length >= DOC_LIMIT) this.compact();
    const ids: number[] = [];
    for (const doc of docs) {
      const id = this.docPath.length;
      const tokens = tokenize(doc.text);
      const touched: number[] = [];
      for (const token of tokens) {
        let term = this.terms.get(token);
        if (term === undefined) {
          term = this.postings.length;
          this.terms.set(token, term);
          this.postings.push([]);
        }
        if (term >= this.counts.length) {
          const grown = new Uint16Array(Math.max(1024, this.counts.length * 2, term + 1));
          grown.set(this.counts);
          this.counts = grown;
        }
        const c = this.counts[term] ?? 0;
        if (c === 0) touched.push(term);
        if (c < TF_MAX) this.counts[term] = c + 1;
      }
      for (const term of touched) {
        this.postings[term]?.push(id * (TF_MAX + 1) + (this.counts[term] ?? 1));
        this.counts[term] = 0;
      }
      this.docPath.push(path);
      this.docStart.push(doc.startLine);
      this.docEnd.push(doc.endLine);
      this.docLength.push(tokens.length);
      this.docAlive.push(true);
      this.liveDocs++;
      this.liveLength += tokens.length;
      ids.push(id);
    }
    this.byPath.set(path, ids);
  }

  /** Drops the chunks of `path`. */
  removeFile(path: string): void {
    const ids = this.byPath.get(path);
    if (!ids) return;
    this.byPath.delete(path);
    for (const id of ids) {
      this.docAlive[id] = false;
      this.liveDocs--;
      this.liveLength -= this.docLength[id] ?? 0;
      this.deadDocs++;
    }
    if (this.deadDocs > 1024 && this.deadDocs > this.liveDocs / 3) this.compact();
  }

  /** Paths with chunks in the index. */
  paths(): IterableIterator<string> {
    return this.byPath.keys();
  }

  /** The best `limit` chunks for the query, best first; empty when no query token occurs. */
  search(query: string, limit: number): KeywordHit[] {
    const queryTerms = new Map<number, number>();
    for (const token of tokenize(query)) {
      const term = this.terms.get(token);
      if (term !== undefined) queryTerms.set(term, (queryTerms.get(term) ?? 0) + 1);
    }
    if (queryTerms.size === 0 || this.liveDocs === 0) return [];
    const scores = new Float64Array(this.docPath.length);
    const touched: number[] = [];
    const avgLength = this.liveLength / this.liveDocs || 1;
    for (const [term, weight] of queryTerms) {
      const list = this.postings[term] ?? [];
      // Dead postings linger until compaction; never let them count past the live documents.
      const df = Math.min(list.length, this.liveDocs);
      const idf = Math.log(1 + (this.liveDocs - df + 0.5) / (df + 0.5));
      if (!(idf > 0)) continue;
      for (const packed of list) {
        const id = Math.floor(packed / (TF_MAX + 1));
        if (this.docAlive[id] !== true) continue;
        const tf = packed % (TF_MAX + 1);
        const norm = K1 * (1 - B + (B * (this.docLength[id] ?? 0)) / avgLength);
        if (scores[id] === 0) touched.push(id);
        scores[id] = (scores[id] ?? 0) + weight * idf * ((tf * (K1 + 1)) / (tf + norm));
      }
    }
    const top = new TopK(limit);
    for (const id of touched) top.offer(scores[id] ?? 0, id);
    return top.sorted().map(({ id, score }) => ({ path: this.docPath[id] ?? '', startLine: this.docStart[id] ?? 0, endLine: this.docEnd[id] ?? 0, score }));
  }

  /**
   * Chunks containing the query's compound identifiers verbatim, most identifiers first (then by
   * term frequency): the "exact" list of hybrid search.
   */
  exact(query: string, limit: number): KeywordHit[] {
    const counts = new Map<number, number>();
    for (const identifier of compoundIdentifiers(query)) {
      const term = this.terms.get(identifier);
      if (term === undefined) continue;
      for (const packed of this.postings[term] ?? []) {
        const id = Math.floor(packed / (TF_MAX + 1));
        if (this.docAlive[id] !== true) continue;
        counts.set(id, (counts.get(id) ?? 0) + 1000 + (packed % (TF_MAX + 1)));
      }
    }
    const top = new TopK(limit);
    for (const [id, score] of counts) top.offer(score, id);
    return top.sorted().map(({ id, score }) => ({
      path: this.docPath[id] ?? '',
      startLine: this.docStart[id] ?? 0,
      endLine: this.docEnd[id] ?? 0,
      score: Math.floor(score / 1000),
    }));
  }

  /** Renumbers live documents and rebuilds postings without the dead ones. */
  private compact(): void {
    const remap = new Int32Array(this.docPath.length).fill(-1);
    const docPath: string[] = [];
    const docStart: number[] = [];
    const docEnd: number[] = [];
    const docLength: number[] = [];
    for (let id = 0; id < this.docPath.length; id++) {
      if (this.docAlive[id] !== true) continue;
      remap[id] = docPath.length;
      docPath.push(this.docPath[id] ?? '');
      docStart.push(this.docStart[id] ?? 0);
      docEnd.push(this.docEnd[id] ?? 0);
      docLength.push(this.docLength[id] ?? 0);
    }
    const postings: number[][] = [];
    const terms = [...this.terms];
    this.terms.clear();
    for (const [token, term] of terms) {
      const kept: number[] = [];
      for (const packed of this.postings[term] ?? []) {
        const to = remap[Math.floor(packed / (TF_MAX + 1))] ?? -1;
        if (to >= 0) kept.push(to * (TF_MAX + 1) + (packed % (TF_MAX + 1)));
      }
      if (kept.length > 0) {
        this.terms.set(token, postings.length);
        postings.push(kept);
      }
    }
    for (const [path, ids] of this.byPath)
      this.byPath.set(
        path,
        ids.map((id) => remap[id] ?? -1),
      );
    this.postings = postings;
    this.docPath = docPath;
    this.docStart = docStart;
    this.docEnd = docEnd;
    this.docLength = docLength;
    this.docAlive = docPath.map(() => true);
    this.deadDocs = 0;
  }
}
