// The simulated Activity Feed's time filters (doc3 §4): RFC 3339 timestamps read exactly as the service
// refuses or takes them, the four bounds, and the binary search that turns a bound into a range of records
// (records are generated in time order, so a filter never walks the whole feed).

const MINUTE = 60_000;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch of a full RFC 3339 timestamp (date, time and zone), else undefined. */
export function parseRfc3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  if (monthDays === undefined || d < 1 || d > monthDays || h > 23 || mi > 59 || sec > 60) return undefined;
  // a leap second (:60, which RFC 3339 allows) reads as the first second of the next minute
  const t = new Date(Date.UTC(2000, 0, 1, h, mi, sec));
  t.setUTCFullYear(y, mo - 1, d); // Date.UTC alone would read years below 100 as 19xx
  let ms = t.getTime() + (m[7] ? Number(m[7]) * 1000 : 0);
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    ms -= (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * MINUTE;
  }
  return ms;
}

export type Bound = (ms: number) => boolean;
export const OPS: Record<string, (limit: number) => Bound> = {
  gte: l => ms => ms >= l,
  gt: l => ms => ms > l,
  lte: l => ms => ms <= l,
  lt: l => ms => ms < l,
};

/** The first k in [0, n) where pred holds, for a pred that is false and then true; n when never. */
export function firstTrue(n: number, pred: (k: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
