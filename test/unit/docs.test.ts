// The docs a newcomer reads: the README is the marketplace page, short enough to read there, and every file it
// links or shows exists; every `docN §x` a source comment cites has its entry in docs/spec.md; every path of the
// repository that the docs or a source comment cite exists; and a comment cites no other repository's issue.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const README = fs.readFileSync('README.md', 'utf8');

describe('CONTRIBUTING.md', () => {
  it('stays within 25,000 bytes: the how-to; measured figures are in the bench output and the CHANGELOG', () => {
    const bytes = fs.statSync('CONTRIBUTING.md').size;
    assert.ok(bytes <= 25_000, `${bytes} bytes`);
  });
});

describe('the README', () => {
  it('stays within 15,000 bytes (the marketplace page; the reference lives in docs/)', () => {
    assert.ok(Buffer.byteLength(README) <= 15_000, `${Buffer.byteLength(README)} bytes`);
  });
  it('links and shows only files that exist', () => {
    const targets = [...README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map(m => m[1]!);
    const local = targets.filter(t => !/^[a-z]+:/.test(t));
    assert.ok(local.length >= 10, local.join(', '));
    for (const t of local) assert.ok(fs.existsSync(t), `${t} is linked from the README`);
  });
});

describe('docs/spec.md', () => {
  it('has an entry for every spec section a source file cites', () => {
    const spec = fs.readFileSync('docs/spec.md', 'utf8');
    const entries = new Set([...spec.matchAll(/^#+ (doc[123] §[\d.]*\d)/gm)].map(m => m[1]));
    const missing: string[] = [];
    let cited = 0;
    for (const f of fs.readdirSync('src', { recursive: true, encoding: 'utf8' })) {
      if (!f.endsWith('.ts')) continue;
      for (const m of fs.readFileSync(path.join('src', f), 'utf8').matchAll(/doc[123] §[\d.]*\d/g)) {
        cited++;
        if (!entries.has(m[0])) missing.push(`${m[0]} (src/${f})`);
      }
    }
    assert.ok(cited > 20, `${cited} citations seen`);
    assert.deepEqual(missing, []);
  });
});

// Paths a reader follows: `src/core/api/paging.ts`, `test/fake/`, `core/text.ts` (a source file by its path under
// src/), `compliance/access.ts` (a feature's file, named from a neighbouring folder), `test/ui/*.test.mjs`.
const ROOTS = 'src|test|docs|scripts|bench|media|examples|core|vscode|webview|protocol';
const CITED = new RegExp(
  `(?<![\\w./@*-])((?:${ROOTS})/[\\w./*-]*[\\w/*]|(?:[\\w-]+/)+[\\w-]+\\.(?:ts|mjs|cjs|md))(?![\\w{])`,
  'g',
);
/** Cited paths that name no file of this repository, and why. */
const NOT_FILES = new Set([
  // a results file's name under the results folder (src/core/cases/results.ts), not a path in the repository
  'examples/support.cases.yaml.json',
]);

function listed(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map(f => path.join(dir, f));
}

const repoFiles = ['src', 'test', 'docs', 'bench', 'scripts', 'media', 'examples'].flatMap(listed);

/**
 * Where a path cited in `file` may start: the repository, src/ (`core/text.ts`), the file's folder and the one
 * above it, and src/core and src/vscode (a feature's file by its folder: `compliance/access.ts`).
 */
function basesOf(file: string): string[] {
  const dir = path.dirname(file);
  return ['', 'src', dir, path.dirname(dir), path.join('src', 'core'), path.join('src', 'vscode')];
}

/** Whether `cited` names a file or folder below one of `bases` (`*` matches within a name, `**` across folders). */
function resolves(cited: string, bases: string[]): boolean {
  const clean = cited.replace(/\/$/, '');
  if (clean.includes('*')) {
    const glob = (b: string) => {
      const parts = path.join(b, clean).split(/(\*\*|\*)/);
      const re = parts.map(x => (x === '**' ? '.*' : x === '*' ? '[^/]*' : x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')));
      return new RegExp(`^${re.join('')}$`);
    };
    return bases.some(b => repoFiles.some(f => glob(b).test(f)));
  }
  return bases.some(b => {
    const p = path.join(b, clean);
    return fs.existsSync(p) || fs.existsSync(`${p}.ts`) || fs.existsSync(p.replace(/\.js$/, '.ts'));
  });
}

describe('paths cited in the docs and in source comments', () => {
  it('every repository path docs/, CONTRIBUTING.md, RULES.md and the README cite exists', () => {
    const docs = ['CONTRIBUTING.md', 'RULES.md', 'README.md', ...listed('docs').filter(f => f.endsWith('.md'))];
    const missing: string[] = [];
    let cited = 0;
    for (const doc of docs) {
      for (const m of fs.readFileSync(doc, 'utf8').matchAll(CITED)) {
        cited++;
        if (!NOT_FILES.has(m[1]!) && !resolves(m[1]!, basesOf(doc))) missing.push(`${m[1]} (${doc})`);
      }
    }
    assert.ok(cited > 200, `${cited} paths seen`);
    assert.deepEqual(missing, []);
  });

  it('every repository path a source comment cites exists', () => {
    const sources = [...repoFiles, 'esbuild.mjs', 'eslint.config.mjs'].filter(
      f => /\.(ts|mjs|cjs)$/.test(f) && !f.startsWith(path.join('test', 'fixtures')),
    );
    const missing: string[] = [];
    let cited = 0;
    for (const f of sources) {
      for (const comment of comments(fs.readFileSync(f, 'utf8'))) {
        for (const m of comment.matchAll(CITED)) {
          cited++;
          if (!NOT_FILES.has(m[1]!) && !resolves(m[1]!, basesOf(f))) missing.push(`${m[1]} (${f})`);
        }
      }
    }
    assert.ok(cited > 100, `${cited} paths seen`);
    assert.deepEqual(missing, []);
  });

  it('source comments cite no issue of another repository (the evidence for a rule is in RULES.md)', () => {
    const cites: string[] = [];
    for (const f of listed('src').filter(x => x.endsWith('.ts'))) {
      for (const comment of comments(fs.readFileSync(f, 'utf8')))
        for (const m of comment.matchAll(/\b[\w.-]+\/[\w.-]+#\d+/g)) cites.push(`${m[0]} (${f})`);
    }
    assert.deepEqual(cites, []);
  });
});

/** The comments of a source file: `// …` to the end of its line (not the `//` of a URL), and `/* … *\/`. */
function comments(text: string): string[] {
  return [...text.matchAll(/(?<![:'"`\w\\])\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map(m => m[0]);
}
