/**
 * How the panel and the host write a cost, so the same answer reads the same in the chat panel, a transcript's
 * heading and the log. (The completion status bars keep their shorter form: core/completions/ledger.ts.)
 */

/** US dollars with enough digits that small costs are not shown as zero: `$0`, `< $0.0001`, `$0.0012`, `$0.500`, `$1.23`. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '< $0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}
