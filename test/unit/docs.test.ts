// The docs a newcomer reads: the README is the marketplace page, short enough to read there, and every file it
// links or shows exists; every `docN §x` a source comment cites has its entry in docs/spec.md.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const README = fs.readFileSync('README.md', 'utf8');

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
