// Fault bookkeeping: the FIFO of injected faults, run-wide faults, the per-request header, and the
// parsing of the duration strings the rate-limit fault carries.
import { type Fault, type RunFault } from './emulator';

/** An injected fault waiting in the FIFO. */
interface QueuedFault {
  fault: Fault;
  path: string | undefined;
  remaining: number;
  /** For rateLimit: requests let through so far before it starts answering 429. */
  passed: number;
}

/** State of a run-wide rateLimit fault: a window of `afterRequests` allowed requests that reopens after `reset`. */
interface RunRateLimit {
  fault: Extract<Fault, { kind: 'rateLimit' }>;
  path: string | undefined;
  used: number;
  windowEnd: number;
}

/** Faults that shape a stream once the response has started. */
export type StreamFault = Extract<Fault, { kind: 'stall' | 'streamError' | 'drop' | 'endless' }>;

/** The faults that apply to one request, sorted by when they act. */
export interface RequestFaults {
  latencyMs: number;
  dropNow: boolean;
  status: Extract<Fault, { kind: 'status' }> | undefined;
  /** A rateLimit fault whose allowance is used up, so this request gets 429. */
  rateLimited: Extract<Fault, { kind: 'rateLimit' }> | undefined;
  /** What the x-ratelimit-* headers should report, when a rateLimit fault governs this path. */
  quota: { limit: number; remaining: number; reset: string } | undefined;
  stream: StreamFault[];
}

/** Parses "2", "1.5s", "4h17m", "250ms", "1m30s" into milliseconds; undefined when unparseable. */
export function parseDurationMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = re.exec(trimmed); match !== null; match = re.exec(trimmed)) {
    const value = Number(match[1]);
    const unit = match[2];
    total += value * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : unit === 's' ? 1000 : 1);
    consumed = re.lastIndex;
  }
  return consumed === trimmed.length && consumed > 0 ? total : undefined;
}

const KINDS = new Set(['latency', 'stall', 'streamError', 'drop', 'status', 'rateLimit', 'endless']);

/** Narrows parsed JSON (a header or the CLI flag) to a Fault, or explains why not. */
export function parseFault(value: unknown): Fault | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a fault must be a JSON object';
  const kind: unknown = (value as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !KINDS.has(kind)) return `unknown fault kind ${JSON.stringify(kind)}`;
  const record = value as Record<string, unknown>;
  const needNumber = (name: string): string | undefined => (typeof record[name] === 'number' ? undefined : `fault ${kind} needs a numeric ${name}`);
  const problem =
    kind === 'latency'
      ? needNumber('ms')
      : kind === 'stall' || kind === 'streamError' || kind === 'endless'
        ? needNumber('afterChunks')
        : kind === 'status'
          ? needNumber('status')
          : kind === 'rateLimit'
            ? needNumber('afterRequests')
            : undefined;
  // The shape is checked field by field above; the cast only names the union member.
  return problem ?? (value as Fault);
}

/** All faults of one emulator: run-wide ones and the injected FIFO. */
export class FaultBook {
  private queue: QueuedFault[] = [];
  private runLimits: RunRateLimit[] = [];
  private readonly runFaults: RunFault[];

  constructor(runFaults: readonly RunFault[]) {
    for (const fault of runFaults) {
      // Run faults may come from the CLI as JSON; refuse a malformed one at start rather than misbehave later.
      const problem = parseFault(fault);
      if (typeof problem === 'string') throw new Error(`Invalid run fault ${JSON.stringify(fault)}: ${problem}`);
    }
    this.runFaults = runFaults.filter((f) => f.kind !== 'rateLimit');
    this.runLimits = runFaults.flatMap((f) => (f.kind === 'rateLimit' ? [{ fault: f, path: f.path, used: 0, windowEnd: 0 }] : []));
  }

  /** Queues a fault for the next `times` matching requests. */
  inject(fault: Fault, path: string | undefined, times: number): void {
    this.queue.push({ fault, path, remaining: Math.max(1, times), passed: 0 });
  }

  /** Drops injected faults and restarts run-wide rate-limit windows. */
  reset(): void {
    this.queue = [];
    for (const limit of this.runLimits) {
      limit.used = 0;
      limit.windowEnd = 0;
    }
  }

  /** Collects (and consumes) the faults for one request. `headerFault` comes from x-emulator-fault. */
  take(path: string, headerFault: Fault | undefined): RequestFaults {
    const result: RequestFaults = { latencyMs: 0, dropNow: false, status: undefined, rateLimited: undefined, quota: undefined, stream: [] };
    const apply = (fault: Fault): void => {
      switch (fault.kind) {
        case 'latency':
          result.latencyMs += fault.ms;
          break;
        case 'drop':
          if (fault.afterChunks === undefined) result.dropNow = true;
          else result.stream.push(fault);
          break;
        case 'status':
          result.status ??= fault;
          break;
        case 'rateLimit':
          result.rateLimited ??= fault;
          break;
        default:
          result.stream.push(fault);
      }
    };
    for (const fault of this.runFaults) if (fault.path === undefined || fault.path === path) apply(fault);
    const now = Date.now();
    for (const limit of this.runLimits) {
      if (limit.path !== undefined && limit.path !== path) continue;
      const windowMs = parseDurationMs(limit.fault.reset ?? '60') ?? 60_000;
      if (now >= limit.windowEnd) {
        limit.used = 0;
        limit.windowEnd = now + windowMs;
      }
      if (limit.used >= limit.fault.afterRequests) result.rateLimited ??= limit.fault;
      else limit.used++;
      result.quota ??= {
        limit: limit.fault.afterRequests,
        remaining: Math.max(0, limit.fault.afterRequests - limit.used),
        reset: limit.fault.reset ?? String(Math.ceil((limit.windowEnd - now) / 1000)),
      };
    }
    const index = this.queue.findIndex((q) => q.path === undefined || q.path === path);
    const queued = index >= 0 ? this.queue[index] : undefined;
    if (queued !== undefined) {
      if (queued.fault.kind === 'rateLimit' && queued.passed < queued.fault.afterRequests) {
        // An injected rate limit lets `afterRequests` requests through before it starts biting.
        queued.passed++;
      } else {
        apply(queued.fault);
        queued.remaining--;
        if (queued.remaining === 0) this.queue.splice(index, 1);
      }
    }
    if (headerFault !== undefined) {
      // A header fault scripts exactly this request, so "after N requests" means "now".
      apply(headerFault);
    }
    return result;
  }
}
