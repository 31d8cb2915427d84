// The webviews ship a codicon font cut down to src/webview/common/icons.ts (esbuild.mjs, scripts/codicons.mjs): an
// icon outside that list draws an empty box, and nothing but these checks would notice. They read the
// sources and the built dist/webview/codicon.{woff2,css} (`node esbuild.mjs` runs before the unit tests).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fontverter from 'fontverter';
import { WEBVIEW_ICONS } from '../../../src/webview/common/icons';

const listed = new Set<string>(WEBVIEW_ICONS);

function files(dir: string, ext: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter(f => f.endsWith(ext))
    .map(f => path.join(dir, f));
}

/** name -> codepoint, from the codicons package's own stylesheet (one `:before` rule per line). */
function codepoints(css: string): Map<string, number> {
  const rule = /^\.codicon-([a-z0-9-]+):before\s*\{\s*content:\s*"\\([0-9a-f]+)"\s*\}$/gm;
  return new Map([...css.matchAll(rule)].map(m => [m[1]!, parseInt(m[2]!, 16)]));
}

/** A TrueType font's codepoint -> glyph id map (cmap formats 4 and 12) and whether a glyph has an outline. */
function readTtf(buf: Buffer): { cmap: Map<number, number>; hasOutline(gid: number): boolean } {
  const tables = new Map<string, number>();
  for (let i = 0, n = buf.readUInt16BE(4); i < n; i++)
    tables.set(buf.toString('latin1', 12 + 16 * i, 16 + 16 * i), buf.readUInt32BE(20 + 16 * i));
  const at = (tag: string) => {
    const o = tables.get(tag);
    assert.ok(o !== undefined, `the font has no ${tag} table`);
    return o;
  };
  const cmap = new Map<number, number>();
  const cmapAt = at('cmap');
  for (let i = 0, n = buf.readUInt16BE(cmapAt + 2); i < n; i++) {
    const sub = cmapAt + buf.readUInt32BE(cmapAt + 4 + 8 * i + 4);
    const format = buf.readUInt16BE(sub);
    if (format === 4) {
      const segs = buf.readUInt16BE(sub + 6) / 2;
      const ends = sub + 14;
      const starts = ends + 2 * segs + 2;
      const deltas = starts + 2 * segs;
      const rangeOffsets = deltas + 2 * segs;
      for (let s = 0; s < segs; s++) {
        const start = buf.readUInt16BE(starts + 2 * s);
        const end = buf.readUInt16BE(ends + 2 * s);
        const delta = buf.readUInt16BE(deltas + 2 * s);
        const ro = buf.readUInt16BE(rangeOffsets + 2 * s);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          const g = ro === 0 ? c : buf.readUInt16BE(rangeOffsets + 2 * s + ro + 2 * (c - start));
          const gid = ro !== 0 && g === 0 ? 0 : (g + delta) & 0xffff;
          if (gid) cmap.set(c, gid);
        }
      }
    } else if (format === 12) {
      for (let g = 0, n = buf.readUInt32BE(sub + 12); g < n; g++) {
        const [start, end, gid] = [0, 4, 8].map(o => buf.readUInt32BE(sub + 16 + 12 * g + o)) as [
          number,
          number,
          number,
        ];
        for (let c = start; c <= end; c++) cmap.set(c, gid + c - start);
      }
    }
  }
  const longLoca = buf.readInt16BE(at('head') + 50) === 1;
  const loca = at('loca');
  const offset = (gid: number) => (longLoca ? buf.readUInt32BE(loca + 4 * gid) : 2 * buf.readUInt16BE(loca + 2 * gid));
  return { cmap, hasOutline: gid => offset(gid + 1) > offset(gid) };
}

describe('webview icons', () => {
  // the webview bundles, their CSS, and the extension files that write a webview's HTML with the codicons
  const sources = [
    ...files('src/webview', '.ts'),
    ...files('media', '.css'),
    ...files('src', '.ts').filter(
      f => !f.startsWith('src/webview') && fs.readFileSync(f, 'utf8').includes('codicon.css'),
    ),
  ].filter(f => f !== path.join('src', 'webview', 'common', 'icons.ts'));

  it('every icon the webview sources name is in WEBVIEW_ICONS', () => {
    const missing: string[] = [];
    const computed: string[] = [];
    for (const f of sources) {
      const text = fs.readFileSync(f, 'utf8');
      // icon('x') is type-checked already; a class written by hand is not
      const names = [
        ...[...text.matchAll(/\bcodicon-([a-z0-9-]+)/g)].map(m => m[1]!).filter(n => !n.startsWith('modifier-')),
        ...[...text.matchAll(/\bicon\(\s*'([^']+)'/g)].map(m => m[1]!),
      ];
      for (const n of names) if (!listed.has(n)) missing.push(`${f}: ${n}`);
      if (/codicon-\$\{/.test(text)) computed.push(f);
    }
    assert.deepEqual(missing, [], 'add these to WEBVIEW_ICONS in src/webview/common/icons.ts');
    assert.deepEqual(
      computed,
      [],
      'a computed codicon-${…} class escapes the check: use icon() from src/webview/common/icons',
    );
  });

  it('every name in WEBVIEW_ICONS is still used by a webview (the font carries no dead glyphs)', () => {
    const text = files('src/webview', '.ts')
      .filter(f => f !== path.join('src', 'webview', 'common', 'icons.ts'))
      .map(f => fs.readFileSync(f, 'utf8'))
      .join('\n');
    assert.deepEqual(
      WEBVIEW_ICONS.filter(n => !text.includes(`'${n}'`)),
      [],
    );
  });

  it('the built font has a glyph for each listed icon, and the stylesheet its class, and nothing more', async () => {
    const fontFile = 'dist/webview/codicon.woff2';
    assert.ok(fs.existsSync(fontFile), `${fontFile} is missing: run node esbuild.mjs first`);
    const all = codepoints(fs.readFileSync('node_modules/@vscode/codicons/dist/codicon.css', 'utf8'));
    const css = fs.readFileSync('dist/webview/codicon.css', 'utf8');
    const woff2 = fs.readFileSync(fontFile);
    assert.equal(woff2.toString('latin1', 0, 4), 'wOF2');
    // the TrueType tables inside, as a webview's Chromium reads them
    const font = readTtf(await fontverter.convert(woff2, 'truetype'));
    assert.match(css, /url\("\.\/codicon\.woff2\?[0-9a-f]+"\) format\("woff2"\)/);
    assert.ok(!fs.existsSync('dist/webview/codicon.ttf'), 'the TrueType font of an earlier build is left in dist');
    assert.match(css, /^\.codicon\[class\*='codicon-'\] \{/m);
    for (const name of WEBVIEW_ICONS) {
      const cp = all.get(name);
      assert.ok(cp !== undefined, `${name} is not a codicon`);
      const gid = font.cmap.get(cp);
      assert.ok(gid !== undefined && font.hasOutline(gid), `no glyph for ${name} (U+${cp.toString(16)})`);
    }
    assert.deepEqual(codepoints(css), new Map(WEBVIEW_ICONS.map(n => [n, all.get(n)])));
    assert.deepEqual(new Set(font.cmap.keys()), new Set(WEBVIEW_ICONS.map(n => all.get(n))));
  });
});
