// A word-level diff of two texts (two replies, two samples): which words one has that the other has not.
// Texts are cut into words, runs of whitespace and single punctuation marks, and the shortest edit script
// between the two lists is found with Myers' algorithm (O((N+M)·D), linear when the texts are alike). The
// common start and end are set aside first; past a bound on the edits the middle is shown as replaced
// whole, so two unrelated 100 KB replies cost milliseconds, not minutes.

export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Past this many edits the middle is reported as removed and added whole (still a true diff, only coarser). */
const MAX_EDITS = 1000;

const TOKEN = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

function tokens(s: string): string[] {
  return s.match(TOKEN) ?? [];
}

/**
 * The parts that turn `before` into `after`: same, removed (only in `before`) and added (only in `after`),
 * in order; joining the same and removed parts gives `before`, the same and added ones `after`. A removal
 * comes before the addition that replaces it, and whitespace alone between two changes joins them, so a
 * changed phrase reads as one replacement.
 */
export function diffWords(before: string, after: string): DiffPart[] {
  if (before === after) return before ? [{ kind: 'same', text: before }] : [];
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  push('same', a.slice(0, start).join(''));
  const middle = editScript(a.slice(start, endA), b.slice(start, endB));
  for (const op of middle) push(op.kind, op.text);
  push('same', a.slice(endA).join(''));
  return joinAcrossWhitespace(parts);
}

interface Op {
  kind: DiffPart['kind'];
  text: string;
}

/** Myers' shortest edit script between two token lists (neither shares its first or last token). */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (!n || !m) return [...a.map(text => ({ kind: 'removed' as const, text })), ...b.map(added)];
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    v = next;
  }
  if (found < 0) return [...a.map(text => ({ kind: 'removed' as const, text })), ...b.map(added)];
  // walk back through the saved frontiers, from the end to the start
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && prev[offset + k - 1]! < prev[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = prev[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      ops.push({ kind: 'same', text: b[--y]! });
    }
    if (down) ops.push(added(b[--y]!));
    else ops.push({ kind: 'removed', text: a[--x]! });
  }
  while (x > 0 && y > 0) {
    x--;
    ops.push({ kind: 'same', text: b[--y]! });
  }
  ops.reverse();
  return inOrder(ops);
}

const added = (text: string): Op => ({ kind: 'added', text });

/** Within each run of changes, the removals first, then the additions. */
function inOrder(ops: Op[]): Op[] {
  const out: Op[] = [];
  let removed: Op[] = [];
  let addedOps: Op[] = [];
  const flush = () => {
    out.push(...removed, ...addedOps);
    removed = [];
    addedOps = [];
  };
  for (const op of ops) {
    if (op.kind === 'same') {
      flush();
      out.push(op);
    } else (op.kind === 'removed' ? removed : addedOps).push(op);
  }
  flush();
  return out;
}

/** "[-the-]{+a+} [-quick-]{+slow+}" reads better as "[-the quick-]{+a slow+}": whitespace between changes joins. */
function joinAcrossWhitespace(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let i = 0;
  while (i < parts.length) {
    const p = parts[i]!;
    if (p.kind === 'same') {
      out.push({ ...p });
      i++;
      continue;
    }
    // a run of changes, possibly joined across whitespace-only same parts
    let removed = '';
    let addedText = '';
    let j = i;
    for (;;) {
      while (j < parts.length && parts[j]!.kind !== 'same') {
        if (parts[j]!.kind === 'removed') removed += parts[j]!.text;
        else addedText += parts[j]!.text;
        j++;
      }
      const gap = parts[j];
      const after = parts[j + 1];
      if (gap && /^\s+$/.test(gap.text) && after && after.kind !== 'same') {
        removed += gap.text;
        addedText += gap.text;
        j++;
        continue;
      }
      break;
    }
    if (removed) out.push({ kind: 'removed', text: removed });
    if (addedText) out.push({ kind: 'added', text: addedText });
    i = j;
  }
  return out;
}

/** The diff as git's `--word-diff=plain` writes it: `[-removed-]{+added+}`, the rest as it is. */
export function plainWordDiff(parts: readonly DiffPart[]): string {
  return parts
    .map(p => (p.kind === 'removed' ? `[-${p.text}-]` : p.kind === 'added' ? `{+${p.text}+}` : p.text))
    .join('');
}

/** Whether the diff changes anything. */
export function differs(parts: readonly DiffPart[]): boolean {
  return parts.some(p => p.kind !== 'same');
}
