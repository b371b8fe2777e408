/**
 * How Cadenza writes a cost, so the same answer reads the same in the chat panel, a transcript's heading, the
 * log and the completion status bars. The status bars use the `short` style.
 */

/**
 * US dollars with enough digits that small costs are not shown as zero: `$0`, `< $0.0001`, `$0.0012`, `$0.500`,
 * `$1.23`; `short` (the completion status bars): `$0`, `<$0.0001`, four decimals under a cent, else two.
 */
export function formatCost(usd: number, style: 'full' | 'short' = 'full'): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return style === 'short' ? '<$0.0001' : '< $0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1 && style === 'full') return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}
