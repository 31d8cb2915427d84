// A cost as people read it, the same in the CLI, the Cases grid and the response panel: "$0.0132", "$1.25".
// Kept apart from the price table so the webviews take this line and not the table.

/**
 * `$0` · `$0.0132` (under a dollar: four decimals) · `$1.25` · `$0.00016` (smaller: two significant digits, never
 * `$0.0002` for $0.000155). Rounded half up on the decimal digits, so $0.000155 is `$0.00016` although the binary
 * number is a hair below it.
 */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  const decimals = usd >= 1 ? 2 : Math.max(4, 1 - Math.floor(Math.log10(usd)));
  const scaled = Math.round(Number((usd * 10 ** decimals).toPrecision(12)));
  return `$${(scaled / 10 ** decimals).toFixed(decimals)}`;
}
