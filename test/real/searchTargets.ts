// The files the real-model tier's search questions should find (searchCorpus.ts pairs each with its
// question). Hand-written small source files in several languages; searchDistractors.ts holds files close in
// topic to each (other date, hashing, caching, messaging code), so a file is told apart by meaning.

/** Target files written into the workspace under `realsearch/`, by name. */
export const targets: Readonly<Record<string, string>> = {
  'relativeTime.ts': `const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000], ['month', 2_592_000], ['week', 604_800], ['day', 86_400], ['hour', 3_600], ['minute', 60],
];

/** Formats a timestamp relative to now ("3 minutes ago", "in 2 days") for activity feeds. */
export function formatRelative(timestamp: Date, now = new Date()): string {
  const seconds = Math.round((timestamp.getTime() - now.getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}
`,
  'business_days.py': `from datetime import date, timedelta


def add_business_days(start: date, count: int, holidays: set[date] = frozenset()) -> date:
    """Returns the date count working days after start, skipping Saturdays, Sundays and holidays."""
    current = start
    remaining = count
    while remaining > 0:
        current += timedelta(days=1)
        if current.weekday() < 5 and current not in holidays:
            remaining -= 1
    return current
`,
  'passwordHash.ts': `import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** Hashes a password with scrypt and a random salt; the stored form is salt:key in hex. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return salt.toString('hex') + ':' + scryptSync(password, salt, 64).toString('hex');
}

/** Checks a login attempt against the stored hash in constant time. */
export function verifyPassword(password: string, stored: string): boolean {
  const [salt, key] = stored.split(':');
  const attempt = scryptSync(password, Buffer.from(salt ?? '', 'hex'), 64);
  return timingSafeEqual(attempt, Buffer.from(key ?? '', 'hex'));
}
`,
  'checksum.go': `package integrity

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
)

// FileSHA256 streams a file through SHA-256 and returns the hex digest.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Matches reports whether the file's digest equals the published one.
func Matches(path, expected string) (bool, error) {
	sum, err := FileSHA256(path)
	return err == nil && sum == expected, err
}
`,
  'csv_reader.py': `import csv
from typing import Iterator


def read_rows(path: str) -> Iterator[dict[str, str]]:
    """Yields one dict per row of a comma-separated file, keyed by the header line."""
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            yield {key.strip(): value.strip() for key, value in row.items()}
`,
  'mailer.ts': `import nodemailer from 'nodemailer';

const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: 587, secure: false });

/** Sends a notification email through the SMTP relay. */
export async function sendNotificationEmail(to: string, subject: string, body: string): Promise<void> {
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
  'binary_search.rs': `/// Finds the index of a value in a sorted slice by halving the range; None when absent.
pub fn binary_search(sorted: &[i64], target: i64) -> Option<usize> {
    let (mut low, mut high) = (0usize, sorted.len());
    while low < high {
        let mid = low + (high - low) / 2;
        match sorted[mid].cmp(&target) {
            std::cmp::Ordering::Equal => return Some(mid),
            std::cmp::Ordering::Less => low = mid + 1,
            std::cmp::Ordering::Greater => high = mid,
        }
    }
    None
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
  'retry.go': `package netutil

import (
	"context"
	"math/rand"
	"time"
)

// Retry calls op up to attempts times, sleeping an exponentially growing, jittered delay between failures.
func Retry(ctx context.Context, attempts int, base time.Duration, op func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(); err == nil {
			return nil
		}
		delay := base * time.Duration(1<<i)
		delay += time.Duration(rand.Int63n(int64(delay) / 2))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
	return err
}
`,
  'levenshtein.py': `def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: the fewest insertions, deletions and substitutions turning a into b."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def closest(word: str, vocabulary: list[str]) -> str:
    return min(vocabulary, key=lambda candidate: edit_distance(word, candidate))
`,
  'rateLimiter.ts': `/** Token bucket: allows bursts up to capacity, refilled at ratePerSecond. */
export class TokenBucket {
  private tokens: number;
  private last = Date.now();

  constructor(private readonly capacity: number, private readonly ratePerSecond: number) {
    this.tokens = capacity;
  }

  /** Takes a token when one is available; false means reject the request (HTTP 429). */
  tryRemove(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
`,
  'jwt.ts': `import { createHmac, timingSafeEqual } from 'node:crypto';

/** Verifies an HS256 JWT's signature and expiry; returns its claims or throws. */
export function verifyJwt(token: string, secret: string): Record<string, unknown> {
  const [header, payload, signature] = token.split('.');
  const expected = createHmac('sha256', secret).update(header + '.' + payload).digest('base64url');
  if (!signature || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) throw new Error('bad signature');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as { exp?: number };
  if (claims.exp !== undefined && claims.exp * 1000 < Date.now()) throw new Error('token expired');
  return claims;
}
`,
  'geo.py': `from math import asin, cos, radians, sin, sqrt

EARTH_RADIUS_KM = 6371.0


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in kilometres between two latitude/longitude points."""
    dlat = radians(lat2 - lat1)
    dlon = radians(lon2 - lon1)
    a = sin(dlat / 2) ** 2 + cos(radians(lat1)) * cos(radians(lat2)) * sin(dlon / 2) ** 2
    return 2 * EARTH_RADIUS_KM * asin(sqrt(a))
`,
  'backup.sh': `#!/usr/bin/env bash
# Nightly backup: tars the data directory into /var/backups and removes archives older than 7 days.
set -euo pipefail
SRC=\${1:-/srv/data}
DEST=/var/backups
stamp=$(date +%Y-%m-%d)
tar -czf "$DEST/data-$stamp.tar.gz" -C "$(dirname "$SRC")" "$(basename "$SRC")"
find "$DEST" -name 'data-*.tar.gz' -mtime +7 -delete
`,
  'top_customers.sql': `-- Customers ranked by total order value in the current year.
SELECT c.id, c.name, SUM(o.total_cents) / 100.0 AS revenue
FROM customers c
JOIN orders o ON o.customer_id = c.id
WHERE o.created_at >= date_trunc('year', now())
GROUP BY c.id, c.name
ORDER BY revenue DESC
LIMIT 10;
`,
  'word_freq.py': `import re
from collections import Counter


def top_words(text: str, n: int = 10) -> list[tuple[str, int]]:
    """Counts how often each word occurs in text and returns the n most frequent."""
    tokens = re.findall(r"[a-z']+", text.lower())
    return Counter(tokens).most_common(n)
`,
  'Luhn.java': `package payments;

/** Luhn mod-10 check for credit card numbers. */
public final class Luhn {
    private Luhn() {}

    public static boolean isValid(String digits) {
        int sum = 0;
        boolean doubled = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (doubled && (d *= 2) > 9) d -= 9;
            sum += d;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }
}
`,
  'shutdown.go': `package server

import (
	"context"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// RunUntilSignal serves until SIGINT or SIGTERM, then drains open connections for up to 30 seconds.
func RunUntilSignal(srv *http.Server) error {
	go srv.ListenAndServe()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return srv.Shutdown(ctx)
}
`,
  'temperature.ts': `/** Converts a reading in degrees Celsius to Fahrenheit. */
export function celsiusToFahrenheit(celsius: number): number {
  return (celsius * 9) / 5 + 32;
}
`,
};
