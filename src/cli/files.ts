// The CLI's file arguments: folders and globs expanded to the files they name, and a file's bytes decoded.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { globMatcher, walk } from '../core/files';

const hasMagic = (s: string) => /[*?{]/.test(s);

/** Expands file arguments and globs (relative to cwd); skips node_modules and .git. */
export function expandFiles(args: readonly string[], cwd: string): { files: string[]; unmatched: string[] } {
  const files = new Set<string>();
  const unmatched: string[] = [];
  for (const arg of args) {
    if (!hasMagic(arg)) {
      const abs = path.resolve(cwd, arg);
      if (fs.existsSync(abs) && fs.statSync(abs).isDirectory()) {
        const before = files.size;
        for (const f of walk(abs)) if (/\.(prompt|cases|count)\.(json|ya?ml)$/i.test(f)) files.add(f);
        if (files.size === before) unmatched.push(arg);
      } else if (fs.existsSync(abs)) files.add(abs);
      else unmatched.push(arg);
      continue;
    }
    const norm = arg.replace(/\\/g, '/');
    const fixed = norm.split('/').findIndex(hasMagic);
    const baseDir = path.resolve(cwd, norm.split('/').slice(0, fixed).join('/') || '.');
    const re = globMatcher(norm.split('/').slice(fixed).join('/'));
    let n = 0;
    for (const f of walk(baseDir)) {
      if (re.test(path.relative(baseDir, f).split(path.sep).join('/'))) {
        files.add(f);
        n++;
      }
    }
    if (!n) unmatched.push(arg);
  }
  return { files: [...files].sort(), unmatched };
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
