/**
 * How Cadenza writes a cost, so the same answer reads the same in the chat panel, a transcript's heading, the
 * log and the completion status bars. The status bars use the `short` style. The panel writes it in its language
 * (`locale`); everything else in English.
 */
import { formatUsd } from './numbers';

/**
 * US dollars with enough digits that small costs are not shown as zero: `$0`, `< $0.0001`, `$0.0012`, `$0.500`,
 * `$1.23`; `short` (the completion status bars): `$0`, `<$0.0001`, four decimals under a cent, else two. In
 * German: `0 $`, `< 0,0001 $`, `0,0012 $`, `1,23 $`.
 */
export function formatCost(usd: number, style: 'full' | 'short' = 'full', locale = 'en'): string {
  if (usd === 0) return formatUsd(0, 0, locale);
  if (usd < 0.0001) return `<${style === 'short' ? '' : ' '}${formatUsd(0.0001, 4, locale)}`;
  if (usd < 0.01) return formatUsd(usd, 4, locale);
  if (usd < 1 && style === 'full') return formatUsd(usd, 3, locale);
  return formatUsd(usd, 2, locale);
}
