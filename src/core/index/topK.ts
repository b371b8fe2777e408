/**
 * Keeps the `capacity` largest (score, id) pairs seen, in a typed-array min-heap: O(n log k) with
 * no allocation per item, which matters when offering 100,000 scores per query.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Int32Array;
  private count = 0;

  constructor(readonly capacity: number) {
    this.scores = new Float64Array(Math.max(1, capacity));
    this.ids = new Int32Array(Math.max(1, capacity));
  }

  /** The smallest kept score once full (anything not above it is rejected), else -Infinity. */
  get threshold(): number {
    return this.count < this.capacity ? -Infinity : (this.scores[0] ?? -Infinity);
  }

  offer(score: number, id: number): void {
    if (this.capacity <= 0) return;
    if (this.count < this.capacity) {
      let i = this.count++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((this.scores[parent] ?? 0) <= score) break;
        this.scores[i] = this.scores[parent] ?? 0;
        this.ids[i] = this.ids[parent] ?? 0;
        i = parent;
      }
      this.scores[i] = score;
      this.ids[i] = id;
      return;
    }
    if (score <= (this.scores[0] ?? -Infinity)) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.count) break;
      const right = left + 1;
      const child = right < this.count && (this.scores[right] ?? 0) < (this.scores[left] ?? 0) ? right : left;
      if ((this.scores[child] ?? 0) >= score) break;
      this.scores[i] = this.scores[child] ?? 0;
      this.ids[i] = this.ids[child] ?? 0;
      i = child;
    }
    this.scores[i] = score;
    this.ids[i] = id;
  }

  /** The kept pairs, best first (ties by smaller id, for determinism). */
  sorted(): { id: number; score: number }[] {
    const out: { id: number; score: number }[] = [];
    for (let i = 0; i < this.count; i++) out.push({ id: this.ids[i] ?? 0, score: this.scores[i] ?? 0 });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }
}
