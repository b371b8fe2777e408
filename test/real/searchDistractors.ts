// Files no search question asks for, beside the targets (searchTargets.ts), close in topic to a target:
// other date, hashing, data format, caching, image and sorting code, so the right file must be told apart
// from its near neighbours by what it does. searchMoreDistractors.ts holds the rest.
import { moreDistractors } from './searchMoreDistractors';

/** Distractor files written into the workspace under `realsearch/`, by name. */
export const distractors: Readonly<Record<string, string>> = {
  // Dates and times, beside relativeTime.ts and business_days.py.
  'timezone.ts': `/** Converts a UTC instant to the wall-clock time of an IANA zone, e.g. "Europe/Rome". */
export function toZone(instant: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(instant);
}
`,
  'cron.go': `package schedule

import "time"

// NextDaily returns the next time at hour:minute after from, in from's location.
func NextDaily(from time.Time, hour, minute int) time.Time {
	next := time.Date(from.Year(), from.Month(), from.Day(), hour, minute, 0, 0, from.Location())
	if !next.After(from) {
		next = next.AddDate(0, 0, 1)
	}
	return next
}
`,
  'age.py': `from datetime import date


def age_in_years(birthday: date, today: date) -> int:
    """Whole years between a birthday and today."""
    before_birthday = (today.month, today.day) < (birthday.month, birthday.day)
    return today.year - birthday.year - before_birthday
`,
  'isoDate.ts': `/** Parses an ISO 8601 date string (YYYY-MM-DD) into a UTC Date, or undefined when malformed. */
export function parseIsoDate(text: string): Date | undefined {
  const match = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(text);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? undefined : date;
}
`,
  // Hashing, beside passwordHash.ts and checksum.go.
  'consistentHash.ts': `import { createHash } from 'node:crypto';

/** A hash ring: maps keys to nodes so that adding a node moves few keys. */
export class HashRing {
  private readonly ring: { point: number; node: string }[] = [];

  add(node: string, replicas = 100): void {
    for (let i = 0; i < replicas; i++) this.ring.push({ point: this.hash(node + '#' + i), node });
    this.ring.sort((a, b) => a.point - b.point);
  }

  nodeFor(key: string): string | undefined {
    const point = this.hash(key);
    return (this.ring.find((entry) => entry.point >= point) ?? this.ring[0])?.node;
  }

  private hash(text: string): number {
    return createHash('md5').update(text).digest().readUInt32BE(0);
  }
}
`,
  'bloom_filter.py': `import hashlib


class BloomFilter:
    """Set membership with false positives but no false negatives, in m bits with k hashes."""

    def __init__(self, m: int = 8192, k: int = 4):
        self.m, self.k, self.bits = m, k, bytearray(m // 8)

    def _positions(self, item: str):
        for i in range(self.k):
            digest = hashlib.sha1(f"{i}:{item}".encode()).digest()
            yield int.from_bytes(digest[:4], "big") % self.m

    def add(self, item: str) -> None:
        for p in self._positions(item):
            self.bits[p // 8] |= 1 << (p % 8)

    def __contains__(self, item: str) -> bool:
        return all(self.bits[p // 8] & (1 << (p % 8)) for p in self._positions(item))
`,
  'hmacWebhook.ts': `import { createHmac, timingSafeEqual } from 'node:crypto';

/** Checks the X-Signature header of a webhook against an HMAC-SHA256 of its body. */
export function webhookSignatureValid(body: string, header: string, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(body).digest('hex');
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}
`,
  // Data formats, beside csv_reader.py.
  'config.ts': `import { readFileSync } from 'node:fs';

/** Loads settings from a JSON file, with defaults for the missing keys. */
export function loadConfig(path: string): { port: number; logLevel: string } {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<{ port: number; logLevel: string }>;
  return { port: raw.port ?? 8080, logLevel: raw.logLevel ?? 'info' };
}
`,
  'xml_export.py': `from xml.etree import ElementTree as ET


def to_xml(records: list[dict[str, str]], root_tag: str = "items") -> str:
    """Serialises a list of flat records as an XML document."""
    root = ET.Element(root_tag)
    for record in records:
        item = ET.SubElement(root, "item")
        for key, value in record.items():
            ET.SubElement(item, key).text = value
    return ET.tostring(root, encoding="unicode")
`,
  'env.rs': `use std::env;

/// Reads a port number from the PORT environment variable, 8080 when unset or invalid.
pub fn port_from_env() -> u16 {
    env::var("PORT").ok().and_then(|v| v.parse().ok()).unwrap_or(8080)
}
`,
  // Caching, beside lruCache.ts.
  'ttl_cache.py': `import time


class TTLCache:
    """Keeps values for ttl seconds; an expired value is dropped when read."""

    def __init__(self, ttl: float):
        self.ttl, self.store = ttl, {}

    def set(self, key, value) -> None:
        self.store[key] = (value, time.monotonic() + self.ttl)

    def get(self, key, default=None):
        value, expires = self.store.get(key, (default, 0))
        if time.monotonic() > expires:
            self.store.pop(key, None)
            return default
        return value
`,
  'memoize.ts': `/** Caches a one-argument function's results by argument. */
export function memoize<A, R>(fn: (arg: A) => R): (arg: A) => R {
  const results = new Map<A, R>();
  return (arg) => {
    if (!results.has(arg)) results.set(arg, fn(arg));
    return results.get(arg) as R;
  };
}
`,
  // Images, beside thumbnail.ts.
  'exif_rotate.py': `from PIL import Image, ImageOps


def upright(path: str) -> Image.Image:
    """Opens a photo and applies its EXIF orientation tag so it displays the right way up."""
    return ImageOps.exif_transpose(Image.open(path))
`,
  'color.ts': `/** Converts red, green and blue channels (0-255) to a #rrggbb hex string. */
export function rgbToHex(r: number, g: number, b: number): string {
  return '#' + [r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');
}
`,
  'watermark.go': `package imaging

import (
	"image"
	"image/draw"
)

// Watermark draws mark over the bottom-right corner of img.
func Watermark(img *image.RGBA, mark image.Image) {
	b := img.Bounds()
	mb := mark.Bounds()
	at := image.Pt(b.Max.X-mb.Dx()-10, b.Max.Y-mb.Dy()-10)
	draw.Draw(img, mb.Add(at), mark, mb.Min, draw.Over)
}
`,
  // Sorting and collections, beside binary_search.rs.
  'QuickSort.java': `package algorithms;

/** In-place quicksort with the last element as pivot. */
public final class QuickSort {
    public static void sort(int[] a, int lo, int hi) {
        if (lo >= hi) return;
        int pivot = a[hi], i = lo;
        for (int j = lo; j < hi; j++) {
            if (a[j] < pivot) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; }
        }
        int t = a[i]; a[i] = a[hi]; a[hi] = t;
        sort(a, lo, i - 1);
        sort(a, i + 1, hi);
    }
}
`,
  'merge_intervals.py': `def merge_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merges overlapping [start, end] intervals into a sorted list of disjoint ones."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
`,
  'dedupe.rs': `use std::collections::HashSet;
use std::hash::Hash;

/// Removes repeated elements, keeping the first occurrence of each and the original order.
pub fn dedupe<T: Eq + Hash + Clone>(items: &[T]) -> Vec<T> {
    let mut seen = HashSet::new();
    items.iter().filter(|x| seen.insert((*x).clone())).cloned().collect()
}
`,
  'chunk.ts': `/** Splits an array into consecutive pieces of at most size elements. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
`,
  ...moreDistractors,
};
