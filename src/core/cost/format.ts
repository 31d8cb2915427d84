// A cost as people read it, the same in the CLI, the Cases grid and the response panel: "$0.0132", "$1.25".
// Kept apart from the price table so the webviews take this line and not the table.

/** `$0` · `$0.0132` (under a dollar: four decimals) · `$1.25` · `$0.000012` (smaller: two significant digits). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd >= 0.0001) return `$${usd.toFixed(4)}`;
  return `$${usd.toPrecision(2)}`;
}
