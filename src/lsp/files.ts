// Which of the client's documents are ours, and what each holds: a case file by its name, a count_tokens or a
// message request by the configured patterns (core/settings.ts decides between them), matched as globs
// against the file's path and its path in each workspace folder.
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isCaseFile } from '../core/fileNames';
import { globMatcher, type Glob } from '../core/files';
import type { FileKind } from '../core/language/schemaAssist';
import { endpointByPatterns, type Settings } from '../core/settings';

const globs = new Map<string, Glob>();
function glob(pattern: string): Glob {
  let re = globs.get(pattern);
  if (!re) {
    re = globMatcher(pattern.replace(/\\/g, '/'));
    globs.set(pattern, re);
  }
  return re;
}

/** A document's path: the file's for a file URI, the URI's path for any other (an untitled buffer). */
export function pathOf(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      /* a file URI with a host: read its path as it is */
    }
  }
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

export function uriOf(file: string): string {
  return pathToFileURL(file).href;
}

export class Files {
  /** the workspace folders, as paths */
  roots: string[] = [];

  constructor(private readonly settings: Pick<Settings, 'requestFilePatterns' | 'countTokensFilePatterns'>) {}

  kindOf(uri: string): FileKind | undefined {
    const file = pathOf(uri);
    if (isCaseFile(file)) return 'cases';
    const candidates = [
      file.split(path.sep).join('/').replace(/^\/+/, ''),
      ...this.roots
        .map(r => path.relative(r, file))
        .filter(r => r && !r.startsWith('..') && !path.isAbsolute(r))
        .map(r => r.split(path.sep).join('/')),
    ];
    return endpointByPatterns(this.settings, patterns =>
      patterns.some(p => candidates.some(c => glob(p.replace(/^\/+/, '')).test(c))),
    );
  }
}
