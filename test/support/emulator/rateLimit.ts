// The emulator's own (generous) request counters behind the x-ratelimit-* headers the real service
// puts on every response. The limits are far above anything a test does; the rateLimit fault is
// how tests make them bite.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The values the headers report at one moment. */
export interface RateSnapshot {
  limit: number;
  remaining: number;
  /** Seconds until the per-minute window reopens (the header's unit is not documented; plain seconds is one observed form). */
  resetSeconds: number;
  dayLimit: number;
  dayRemaining: number;
  dayResetSeconds: number;
}

/** Fixed-window counters per minute and per day. */
export class RateCounter {
  private minuteStart = 0;
  private minuteCount = 0;
  private dayStart = 0;
  private dayCount = 0;

  constructor(
    private readonly perMinute = 1000,
    private readonly perDay = 100_000,
  ) {}

  /** Counts one accepted request. */
  count(): void {
    this.roll(Date.now());
    this.minuteCount++;
    this.dayCount++;
  }

  /** Forgets all counts. */
  reset(): void {
    this.minuteStart = 0;
    this.minuteCount = 0;
    this.dayStart = 0;
    this.dayCount = 0;
  }

  /** The header values now. */
  snapshot(): RateSnapshot {
    const now = Date.now();
    this.roll(now);
    return {
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - this.minuteCount),
      resetSeconds: Math.max(1, Math.ceil((this.minuteStart + MINUTE_MS - now) / 1000)),
      dayLimit: this.perDay,
      dayRemaining: Math.max(0, this.perDay - this.dayCount),
      dayResetSeconds: Math.max(1, Math.ceil((this.dayStart + DAY_MS - now) / 1000)),
    };
  }

  private roll(now: number): void {
    if (now >= this.minuteStart + MINUTE_MS) {
      this.minuteStart = now;
      this.minuteCount = 0;
    }
    if (now >= this.dayStart + DAY_MS) {
      this.dayStart = now;
      this.dayCount = 0;
    }
  }
}
