// The codicons the webviews ship: the font and stylesheet of @vscode/codicons cut down to the names in
// src/webview/common/icons.ts (WEBVIEW_ICONS). The whole set, 160 KB (61 KB compressed, a fifth of the .vsix
// budget), was shipped for the couple of dozen icons the webviews draw. subset-font runs HarfBuzz's own
// subsetter (wasm), so nothing native is built and nothing is downloaded: it needs only node_modules. The subset
// ships as WOFF2 (the font's tables brotli-compressed, which every webview's Chromium reads): 3.4 KB stored in the
// .vsix, where the TrueType file took 3.9 KB deflated.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import subsetFont from 'subset-font';

const DIST = 'node_modules/@vscode/codicons/dist';

/** WEBVIEW_ICONS, read from the TypeScript module the webviews import, so the list lives in one place. */
export async function webviewIcons() {
  const r = await esbuild.build({
    entryPoints: ['src/webview/common/icons.ts'],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const code = Buffer.from(r.outputFiles[0].contents).toString('base64');
  return (await import(`data:text/javascript;base64,${code}`)).WEBVIEW_ICONS;
}

/**
 * Writes codicon.woff2 with only the glyphs of `names` and codicon.css with the base rules (the @font-face,
 * `.codicon`, the modifiers) and only their classes, into outDir. A name the codicons do not have fails
 * the build: it would otherwise ship as an empty box.
 */
export async function writeCodiconSubset(names, outDir) {
  const css = fs.readFileSync(path.join(DIST, 'codicon.css'), 'utf8');
  // one rule per line in the package's stylesheet: `.codicon-add:before { content: "\ea60" }`
  const rule = /^\.codicon-([a-z0-9-]+):before\s*\{\s*content:\s*"\\([0-9a-f]+)"\s*\}$/gm;
  const rules = new Map([...css.matchAll(rule)].map(m => [m[1], { line: m[0], codepoint: parseInt(m[2], 16) }]));
  const unknown = names.filter(n => !rules.has(n));
  if (unknown.length) throw new Error(`src/webview/common/icons.ts: no such codicon: ${unknown.join(', ')}`);

  const text = String.fromCodePoint(...names.map(n => rules.get(n).codepoint));
  const woff2 = await subsetFont(fs.readFileSync(path.join(DIST, 'codicon.ttf')), text, { targetFormat: 'woff2' });
  // the font URL's query is a cache key: a webview that kept an older subset must not draw new names with it
  const hash = crypto.createHash('md5').update(woff2).digest('hex');
  const base = css
    .slice(0, css.search(/^\.codicon-[a-z0-9-]+:before/m))
    .replace(/"\.\/codicon\.ttf\?[0-9a-f]+"\) format\("truetype"\)/, `"./codicon.woff2?${hash}") format("woff2")`);
  if (!base.includes(hash)) throw new Error(`${DIST}/codicon.css: its @font-face names no codicon.ttf`);
  fs.mkdirSync(outDir, { recursive: true });
  fs.rmSync(path.join(outDir, 'codicon.ttf'), { force: true });
  fs.writeFileSync(path.join(outDir, 'codicon.woff2'), woff2);
  fs.writeFileSync(path.join(outDir, 'codicon.css'), base + names.map(n => rules.get(n).line).join('\n') + '\n');
}
