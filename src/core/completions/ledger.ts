// What completions cost today, kept apart from chat, and the daily cap. Pure: the host stores the state
// in its global state and passes the local date, and says the usage in the user's language
// (host/completions/usageText.ts).

/** One day's completion usage. */
export interface CompletionUsageDay {
  /** Local date, YYYY-MM-DD. */
  readonly day: string;
  readonly requests: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
}

/** The local date of a time, YYYY-MM-DD. */
export function localDay(date: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** An empty day. */
function emptyDay(day: string): CompletionUsageDay {
  return { day, requests: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 };
}

/** The usage of `today`: the stored day if it is today, else an empty one (a new day starts from zero). */
export function usageOn(stored: CompletionUsageDay | undefined, today: string): CompletionUsageDay {
  return stored?.day === today ? stored : emptyDay(today);
}

/** Adds one request's usage to today's. */
export function addUsage(
  stored: CompletionUsageDay | undefined,
  today: string,
  usage: { promptTokens: number; completionTokens: number; costUsd?: number | undefined },
): CompletionUsageDay {
  const day = usageOn(stored, today);
  return {
    day: today,
    requests: day.requests + 1,
    promptTokens: day.promptTokens + usage.promptTokens,
    completionTokens: day.completionTokens + usage.completionTokens,
    costUsd: day.costUsd + (usage.costUsd ?? 0),
  };
}

/** True when today's tokens reached the cap (0 or less: no cap). */
export function overDailyCap(stored: CompletionUsageDay | undefined, today: string, capTokens: number): boolean {
  if (!(capTokens > 0)) return false;
  const day = usageOn(stored, today);
  return day.promptTokens + day.completionTokens >= capTokens;
}
