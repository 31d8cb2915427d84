// Files on disk as every front end finds them: a folder walked (node_modules and .git skipped), globs (the
// settings' file patterns, the CLI's arguments) matched in time linear in the path, and a file's bytes decoded.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A glob matched against '/'-separated relative paths. */
export interface Glob {
  test(path: string): boolean;
}

/** What a state of a glob's automaton reads: a character code, or one of these. */
const NONE = -1;
const NOT_SLASH = -2;
const ANY = -3;

/**
 * A glob (`**`, `*`, `?`, `{a,b}`) as an automaton run over the path a character at a time, in every state it can
 * be in at once: time linear in the path whatever the glob. (As a regular expression, a glob from a workspace's
 * settings such as `*a*a*a*a*a*a*b` backtracks for hours on a long file name.)
 */
export function globMatcher(glob: string): Glob {
  /** per state: what it reads (NONE: nothing), the state it then goes to, the states it reaches for nothing */
  const reads: number[] = [];
  const to: number[] = [];
  const free: number[][] = [];
  const add = (): number => {
    reads.push(NONE);
    to.push(-1);
    return free.push([]) - 1;
  };
  /** from state `at`: reads `what` once, or (`loop`) any number of times; returns the state after it */
  const step = (at: number, what: number, loop = false): number => {
    const next = add();
    const from = loop ? add() : at;
    if (loop) free[at]!.push(from, next);
    reads[from] = what;
    to[from] = loop ? from : next;
    if (loop) free[from]!.push(next);
    return next;
  };
  /** appends a part of the glob with no braces after state `at`; returns its last state */
  const chain = (at: number, part: string): number => {
    for (let i = 0; i < part.length; i++) {
      const c = part[i]!;
      if (c === '*' && part[i + 1] === '*' && part[i + 2] === '/') {
        // `**/`: nothing, or anything that ends with '/'
        const end = step(step(at, ANY, true), 0x2f);
        free[at]!.push(end);
        at = end;
        i += 2;
      } else if (c === '*' && part[i + 1] === '*') {
        at = step(at, ANY, true);
        i++;
      } else if (c === '*') at = step(at, NOT_SLASH, true);
      else at = step(at, c === '?' ? NOT_SLASH : c.charCodeAt(0));
    }
    return at;
  };
  const start = add();
  let at = start;
  for (let i = 0; i < glob.length;) {
    const close = glob[i] === '{' ? glob.indexOf('}', i) : -1;
    if (close < 0) {
      // up to the next brace (a `{` that no `}` closes is a character)
      const brace = glob.indexOf('{', i + 1);
      const end = brace < 0 ? glob.length : brace;
      at = chain(at, glob.slice(i, end));
      i = end;
      continue;
    }
    const end = add();
    for (const option of glob.slice(i + 1, close).split(',')) {
      const first = add();
      free[at]!.push(first);
      free[chain(first, option)]!.push(end);
    }
    at = end;
    i = close + 1;
  }
  const accept = at;
  // the states the automaton is in, with the step that last reached each (no set to clear between characters)
  const mark = new Int32Array(reads.length).fill(-1);
  const enter = (list: number[], state: number, n: number) => {
    const todo = [state];
    for (let s = todo.pop(); s !== undefined; s = todo.pop()) {
      if (mark[s] === n) continue;
      mark[s] = n;
      list.push(s);
      for (const f of free[s]!) todo.push(f);
    }
  };
  return {
    test(path: string): boolean {
      mark.fill(-1);
      let now: number[] = [];
      enter(now, start, 0);
      for (let i = 0; i < path.length && now.length; i++) {
        const c = path.charCodeAt(i);
        const next: number[] = [];
        for (const s of now) {
          const r = reads[s]!;
          if (r === ANY || (r === NOT_SLASH && c !== 0x2f) || r === c) enter(next, to[s]!, i + 1);
        }
        now = next;
      }
      return mark[accept] === path.length;
    },
  };
}

/** Every file under `dir`, depth first, skipping node_modules and .git; an unreadable folder is skipped. */
export function* walk(dir: string): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name === '.git') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

/** Decodes bytes as strict UTF-8; returns the byte offset of the first invalid sequence instead. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { invalidAt: number } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    // find the first bad byte, for the message
    let i = 0;
    while (i < bytes.length) {
      const b = bytes[i]!;
      const n = b < 0x80 ? 1 : (b & 0xe0) === 0xc0 ? 2 : (b & 0xf0) === 0xe0 ? 3 : (b & 0xf8) === 0xf0 ? 4 : 0;
      if (!n) return { invalidAt: i };
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(i, i + n));
      } catch {
        return { invalidAt: i };
      }
      i += n;
    }
    return { invalidAt: i };
  }
}
