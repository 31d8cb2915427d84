// How a batch is said in words, the same in the CLI and the editor's Batches view: its status, its counts,
// how old it is and when it expires.
import type { BatchRequestCounts } from '../api/batches';

/** `300 processing`, or once ended `297 succeeded · 2 errored · 1 expired` (zero counts left out). */
export function countsText(c: BatchRequestCounts | undefined, total?: number): string {
  if (!c) return total !== undefined ? `${total} requests` : '';
  const parts = (['processing', 'succeeded', 'errored', 'canceled', 'expired'] as const)
    .filter(k => c[k] > 0)
    .map(k => `${c[k]} ${k}`);
  return parts.join(' · ') || '0 requests';
}

/** A span in the largest unit that fits: `45 s`, `12 min`, `3 h 05 min`, `2 d 4 h`. */
function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** How old a batch is: `12 min ago`. */
export function age(createdAt: string, now = Date.now()): string {
  const t = Date.parse(createdAt);
  return Number.isFinite(t) ? `${span(now - t)} ago` : '';
}

/** When a batch expires, from now: `in 23 h 48 min`, or `expired` (after it; an ended batch never expires). */
export function expiry(expiresAt: string, status: string, now = Date.now()): string {
  if (status === 'ended') return '';
  const t = Date.parse(expiresAt);
  if (!Number.isFinite(t)) return '';
  return t > now ? `in ${span(t - now)}` : 'expired';
}

/** One line of progress: `msgbatch_… in_progress · 300 processing · 2 min`. */
export function progressLine(
  b: { id: string; processing_status: string; request_counts?: BatchRequestCounts; created_at: string },
  now = Date.now(),
): string {
  const t = Date.parse(b.created_at);
  const elapsed = Number.isFinite(t) ? ` · ${span(now - t)}` : '';
  return `${b.id} ${b.processing_status} · ${countsText(b.request_counts)}${elapsed}`;
}
