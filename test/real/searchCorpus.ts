// A small code base for semantic search on real embeddings, and held-out questions that share no word
// with the file they should find (searchCorpus.test checks that claim word by word, so BM25 cannot help:
// only the meaning can).

/** Files written into the workspace under `realsearch/`, by name. */
export const corpus: Readonly<Record<string, string>> = {
  'temperature.ts': `/** Converts a reading in degrees Celsius to Fahrenheit. */
export function celsiusToFahrenheit(celsius: number): number {
  return (celsius * 9) / 5 + 32;
}
`,
  'password.ts': `import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Hashes a password with a random salt; the stored form is salt:digest. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16).toString('hex');
  return salt + ':' + createHash('sha256').update(salt + password).digest('hex');
}

/** Checks a login attempt against the stored hash in constant time. */
export function verifyPassword(password: string, stored: string): boolean {
  const [salt, digest] = stored.split(':');
  const attempt = createHash('sha256').update(salt + password).digest();
  return timingSafeEqual(attempt, Buffer.from(digest ?? '', 'hex'));
}
`,
  'csv.ts': `/** Parses comma-separated text into one object per row, keyed by the header line. */
export function parseCsv(text: string): Map<string, string>[] {
  const [header, ...rows] = text.trim().split('\\n');
  const keys = (header ?? '').split(',');
  return rows.map((row) => new Map(row.split(',').map((cell, i) => [keys[i] ?? '', cell])));
}
`,
  'email.ts': `import nodemailer from 'nodemailer';

/** Sends a notification email to a recipient through the SMTP relay. */
export async function sendNotificationEmail(to: string, subject: string, body: string): Promise<void> {
  const transport = nodemailer.createTransport({ host: 'smtp.example.com', port: 587 });
  await transport.sendMail({ from: 'noreply@example.com', to, subject, text: body });
}
`,
  'lruCache.ts': `/** A fixed-size cache that evicts the least recently used entry when full. */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
}
`,
  'thumbnail.ts': `import sharp from 'sharp';

/** Resizes an image to a 128-pixel thumbnail, keeping its aspect ratio. */
export async function makeThumbnail(input: Buffer): Promise<Buffer> {
  return sharp(input).resize(128, 128, { fit: 'inside' }).png().toBuffer();
}
`,
  'binarySearch.ts': `/** Finds the index of a value in a sorted array by halving the range; -1 when absent. */
export function binarySearch(sorted: readonly number[], target: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const value = sorted[mid] as number;
    if (value === target) return mid;
    if (value < target) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}
`,
  'debounce.ts': `/** Delays calling fn until wait milliseconds have passed since the last call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait);
  };
}
`,
};

/** Held-out questions and the file each should find. */
export const questions: readonly { readonly question: string; readonly file: string }[] = [
  { question: 'how warm is it in the units Americans use for weather', file: 'temperature.ts' },
  { question: 'confirm a user\'s secret phrase when signing on', file: 'password.ts' },
  { question: 'turn a spreadsheet dump into structured data', file: 'csv.ts' },
  { question: 'deliver a message to somebody\'s inbox', file: 'email.ts' },
  { question: 'keep only the newest items in memory and forget old ones', file: 'lruCache.ts' },
  { question: 'shrink a picture down to a small preview', file: 'thumbnail.ts' },
  { question: 'locate the position of an item within an ordered list quickly', file: 'binarySearch.ts' },
  { question: 'postpone a handler as keystrokes keep arriving', file: 'debounce.ts' },
];

const stopWords = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'into', 'is', 'it', 'for', 'on', 'and', 'or', 'how', 'where', 'what', 'when', 'with', 'by', 'at', 'from', 'that', 'this', 'do', 'does', 's', 'as']);

/** Content words as BM25 would see them: camelCase split, lower case, stop words out. */
export function contentWords(text: string): Set<string> {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2');
  return new Set(spaced.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 1 && !stopWords.has(word)));
}
