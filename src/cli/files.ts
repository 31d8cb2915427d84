// The CLI's file arguments: folders and globs expanded to the files they name.
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
