// The shape every duration reader returns; kept apart so readers and the dispatcher share it
// without importing each other.

/** What a duration reader learned about a file. */
export interface DurationInfo {
  /** Seconds of audio the file actually holds (for a file cut short: the part that is there). */
  readonly seconds: number;
  /** True when derived from an average bitrate rather than counted samples or a header. */
  readonly estimated: boolean;
  /** True when the file ends before its own headers say it should. */
  readonly truncated: boolean;
}
