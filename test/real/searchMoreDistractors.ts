// More distractors for the real-model tier's search (searchDistractors.ts): messaging, timing, text,
// access control, geography and units, operations and data code, near the targets of the same kinds.

/** Distractor files, by name. */
export const moreDistractors: Readonly<Record<string, string>> = {
  // Messaging, beside mailer.ts.
  'sms.py': `from twilio.rest import Client


def send_sms(client: Client, to: str, body: str, sender: str) -> str:
    """Sends a text message through Twilio and returns its SID."""
    message = client.messages.create(to=to, from_=sender, body=body)
    return message.sid
`,
  'slack.go': `package notify

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// PostToSlack sends text to a Slack incoming webhook URL.
func PostToSlack(webhookURL, text string) error {
	body, _ := json.Marshal(map[string]string{"text": text})
	resp, err := http.Post(webhookURL, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
`,
  'pushNotification.ts': `/** Sends a push notification to a device through Firebase Cloud Messaging. */
export async function sendPush(deviceToken: string, title: string, body: string, serverKey: string): Promise<void> {
  await fetch('https://fcm.googleapis.com/fcm/send', {
    method: 'POST',
    headers: { Authorization: 'key=' + serverKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ to: deviceToken, notification: { title, body } }),
  });
}
`,
  // Timing, beside debounce.ts and retry.go.
  'throttle.ts': `/** Calls fn at most once every interval milliseconds; calls in between are dropped. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, interval: number): (...args: A) => void {
  let last = 0;
  return (...args: A) => {
    const now = Date.now();
    if (now - last >= interval) {
      last = now;
      fn(...args);
    }
  };
}
`,
  'timeout.ts': `/** Rejects when promise has not settled within ms milliseconds. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out after ' + ms + ' ms')), ms)),
  ]);
}
`,
  'circuit_breaker.py': `import time


class CircuitBreaker:
    """Opens after max_failures consecutive errors and rejects calls until reset_after seconds pass."""

    def __init__(self, max_failures: int = 5, reset_after: float = 30.0):
        self.max_failures, self.reset_after = max_failures, reset_after
        self.failures, self.opened_at = 0, None

    def call(self, fn, *args):
        if self.opened_at and time.monotonic() - self.opened_at < self.reset_after:
            raise RuntimeError("circuit open")
        try:
            result = fn(*args)
        except Exception:
            self.failures += 1
            if self.failures >= self.max_failures:
                self.opened_at = time.monotonic()
            raise
        self.failures, self.opened_at = 0, None
        return result
`,
  // Text, beside levenshtein.py and word_freq.py.
  'slugify.ts': `/** Turns a title into a URL slug: lower case, ASCII, words joined by hyphens. */
export function slugify(title: string): string {
  return title.normalize('NFKD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
`,
  'truncate.ts': `/** Shortens text to at most max characters, ending with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - 1)).trimEnd() + '…';
}
`,
  'stopwords.py': `STOPWORDS = {"a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "of", "on", "the", "to"}


def remove_stopwords(tokens: list[str]) -> list[str]:
    """Drops common English function words from a token list."""
    return [t for t in tokens if t.lower() not in STOPWORDS]
`,
  'palindrome.rb': `# Whether a phrase reads the same backwards, ignoring case, spaces and punctuation.
def palindrome?(phrase)
  letters = phrase.downcase.gsub(/[^a-z0-9]/, '')
  letters == letters.reverse
end
`,
  // Access control, beside rateLimiter.ts and jwt.ts.
  'semaphore.go': `package limits

// Semaphore bounds how many goroutines run a section at once.
type Semaphore chan struct{}

func NewSemaphore(n int) Semaphore { return make(Semaphore, n) }

func (s Semaphore) Acquire() { s <- struct{}{} }

func (s Semaphore) Release() { <-s }
`,
  'sessionCookie.ts': `/** The Set-Cookie header for a session id: HttpOnly, Secure, SameSite=Lax, expiring in maxAgeSeconds. */
export function sessionCookie(sessionId: string, maxAgeSeconds: number): string {
  return 'sid=' + encodeURIComponent(sessionId) + '; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=' + maxAgeSeconds;
}
`,
  'oauth_callback.py': `import requests


def exchange_code(code: str, client_id: str, client_secret: str, redirect_uri: str, token_url: str) -> dict:
    """Exchanges an OAuth 2.0 authorization code for an access token."""
    response = requests.post(token_url, data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
        "client_id": client_id, "client_secret": client_secret,
    }, timeout=10)
    response.raise_for_status()
    return response.json()
`,
  'roles.ts': `export type Role = 'viewer' | 'editor' | 'admin';

const rank: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** Whether a user with role may perform an action that needs at least required. */
export function allowed(role: Role, required: Role): boolean {
  return rank[role] >= rank[required];
}
`,
  // Geography and units, beside geo.py and temperature.ts.
  'boundingBox.ts': `/** Whether a latitude/longitude point lies inside a box given by its south-west and north-east corners. */
export function inBox(lat: number, lon: number, sw: [number, number], ne: [number, number]): boolean {
  return lat >= sw[0] && lat <= ne[0] && lon >= sw[1] && lon <= ne[1];
}
`,
  'units.ts': `/** Converts miles to kilometres. */
export const milesToKm = (miles: number): number => miles * 1.609344;

/** Converts pounds to kilograms. */
export const poundsToKg = (pounds: number): number => pounds * 0.45359237;
`,
  'currency.ts': `/** Formats an amount in cents as money in the given currency and locale. */
export function formatMoney(cents: number, currency = 'USD', locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
}
`,
  // Operations, beside backup.sh and shutdown.go.
  'deploy.sh': `#!/usr/bin/env bash
# Builds the container image, pushes it and restarts the service on the production host.
set -euo pipefail
tag=$(git rev-parse --short HEAD)
docker build -t registry.example.com/app:"$tag" .
docker push registry.example.com/app:"$tag"
ssh deploy@prod "docker pull registry.example.com/app:$tag && systemctl restart app"
`,
  'health.go': `package server

import (
	"database/sql"
	"net/http"
)

// Health answers 200 when the database responds to a ping, 503 otherwise.
func Health(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := db.PingContext(r.Context()); err != nil {
			http.Error(w, "unhealthy", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	}
}
`,
  'logger.py': `import logging


def configure_logging(level: str = "INFO") -> logging.Logger:
    """Sets up a root logger writing timestamped lines to stderr."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return logging.getLogger("app")
`,
  // Data, beside top_customers.sql and Luhn.java.
  'schema.sql': `CREATE TABLE customers (
  id SERIAL PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT UNIQUE NOT NULL
);

CREATE TABLE orders (
  id SERIAL PRIMARY KEY,
  customer_id INTEGER REFERENCES customers(id),
  total_cents INTEGER NOT NULL,
  created_at TIMESTAMPTZ DEFAULT now()
);
`,
  'inactive_users.sql': `-- Accounts with no login in the last 90 days.
SELECT id, email, last_login_at
FROM users
WHERE last_login_at < now() - interval '90 days'
ORDER BY last_login_at;
`,
  'Invoice.java': `package billing;

import java.math.BigDecimal;
import java.util.List;

/** An invoice's total: the sum of its lines plus VAT at the given rate. */
public record Invoice(List<BigDecimal> lines, BigDecimal vatRate) {
    public BigDecimal total() {
        BigDecimal net = lines.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
        return net.add(net.multiply(vatRate));
    }
}
`,
  'Iban.kt': `package payments

/** Validates an IBAN by moving the country code to the end and checking the number mod 97. */
fun isValidIban(iban: String): Boolean {
    val compact = iban.replace(" ", "").uppercase()
    val rearranged = compact.drop(4) + compact.take(4)
    val numeric = rearranged.map { if (it.isLetter()) (it - 'A' + 10).toString() else it.toString() }.joinToString("")
    return numeric.toBigInteger().mod(97.toBigInteger()) == 1.toBigInteger()
}
`,
  'paginate.ts': `/** The items of one page (1-based) and the page count. */
export function paginate<T>(items: readonly T[], page: number, perPage = 20): { items: T[]; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const start = (Math.min(Math.max(page, 1), pages) - 1) * perPage;
  return { items: items.slice(start, start + perPage), pages };
}
`,
  'uuid.ts': `import { randomBytes } from 'node:crypto';

/** A random version 4 UUID. */
export function uuidV4(): string {
  const b = randomBytes(16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
}
`,
};
