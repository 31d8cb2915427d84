// `npm run package`: builds the .vsix from the production build in dist/ (packageVsix below), then lists what it
// holds and prints its size. The size check, the bench, the release and `npm start` package it the same way.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';
import yazl from 'yazl';

/** What is compressed already: stored in the .vsix as it is (deflate would only add its own few bytes). */
const COMPRESSED = /\.(br|png|webp|woff2)$/;

/** The fields of package.json that only npm reads (to build the project from its source): not in the .vsix's. */
const NPM_ONLY = ['scripts', 'devDependencies', 'overrides', 'allowScripts', 'bin'];

/** The .vsix's package.json: what VS Code and the Marketplace read, without indentation (0.6 KB and 0.5 KB less). */
function manifest(json) {
  const pkg = JSON.parse(json);
  for (const field of NPM_ONLY) delete pkg[field];
  return Buffer.from(JSON.stringify(pkg));
}

/**
 * Packages the .vsix from the build in dist/ into `file`: `vsce package`, offline (the bundles carry their
 * dependencies, so --no-dependencies), then every entry written again (yazl): deflated at level 9 rather than at
 * vsce's 6, what is compressed already stored, and package.json as manifest() writes it. Returns the files it
 * holds, by their paths in the extension's folder (dist/core.js.br, readme.md).
 */
export async function packageVsix(file) {
  const vsce = spawnSync(
    'npx',
    ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', file],
    { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
  );
  if (vsce.status !== 0) throw new Error(`vsce package failed:\n${vsce.stdout}${vsce.stderr}`);
  const entries = await readZip(file);
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    const data = e.name === 'extension/package.json' ? manifest(e.data) : e.data;
    // DOS times only: the extended timestamps yazl adds would cost 18 bytes a file, and nothing reads them
    zip.addBuffer(data, e.name, {
      mtime: e.mtime,
      compressionLevel: COMPRESSED.test(e.name) ? 0 : 9,
      forceDosTimestamp: true,
    });
  }
  zip.end();
  const written = `${file}.tmp`;
  await new Promise((resolve, reject) =>
    zip.outputStream.pipe(fs.createWriteStream(written)).on('close', resolve).on('error', reject),
  );
  fs.renameSync(written, file);
  return entries.filter(e => e.name.startsWith('extension/')).map(e => e.name.slice('extension/'.length));
}

/** Every entry of a zip file, in its order, with its bytes. */
function readZip(file) {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', entry =>
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          stream.on('data', c => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ name: entry.fileName, mtime: entry.getLastModDate(), data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        }),
      );
      zip.readEntry();
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  const out = `${pkg.name}-${pkg.version}.vsix`;
  const files = await packageVsix(out);
  console.log(files.join('\n'));
  console.log(`${out}: ${files.length} files, ${(fs.statSync(out).size / 1024).toFixed(1)} KiB`);
}
