// The README is the marketplace page: short enough to read there, and every file it links or shows exists.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';

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
