/**
 * Numbers as the user's language writes them: grouping, the decimal sign, how a large count is shortened, where a
 * percent sign or a currency goes. `locale` is a BCP 47 tag (`numberLocale` turns VS Code's language id into one);
 * the panel passes the language of its page, the rest of Cadenza English.
 */

const formats = new Map<string, Intl.NumberFormat>();

/** One `Intl.NumberFormat` per locale and options, made once (they are costly to make, cheap to use). */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** VS Code's language id (`de`, `pt-br`, `zh-cn`) as a locale Intl takes (`pt-BR`); English when it is none. */
export function numberLocale(language: string | undefined): string {
  if (!language) return 'en';
  try {
    return Intl.getCanonicalLocales(language)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/** A whole number, grouped: `1,234` (en), `1.234` (de). */
export function formatInteger(value: number, locale: string): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(Math.round(value));
}

/** A number with at most `digits` decimals, trailing zeros left out: `2.4` (en), `2,4` (de). */
export function formatDecimal(value: number, digits: number, locale: string): string {
  return numberFormat(locale, { maximumFractionDigits: digits }).format(value);
}

/** A number with exactly `digits` decimals: `12.0` (en), `12,0` (de). */
export function formatFixed(value: number, digits: number, locale: string): string {
  return numberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/**
 * A token count short, for tight spaces, as the language shortens it: `950`, `12.3K`, `131K`, `1.05M` (en);
 * `12.340`, `1,05 Mio.` (de, which does not shorten thousands). One decimal under 100 thousand, none up to a
 * million, two for millions.
 */
export function formatCompact(value: number, locale: string): string {
  if (value < 1000) return formatInteger(value, locale);
  const digits = value < 100_000 ? 1 : value < 1_000_000 ? 0 : 2;
  return numberFormat(locale, { notation: 'compact', maximumFractionDigits: digits }).format(value);
}

/** US dollars with exactly `digits` decimals (`$0.0011`, `0,0011 $`); `trim` leaves out trailing zeros (`$0.6`). */
export function formatUsd(value: number, digits: number, locale: string, trim = false): string {
  return numberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: trim ? 0 : digits, maximumFractionDigits: digits }).format(value);
}

/** A model's price per million tokens: up to two decimals, `$0.6`, `$1.25` (en), `0,6 $` (de). */
export function formatPrice(usd: number, locale: string): string {
  return formatUsd(usd, 2, locale, true);
}
