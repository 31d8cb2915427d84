// The Getting Started walkthrough's pictures are the README's screenshots (docs/images), made small enough
// for the .vsix: scaled to WIDTH pixels and saved as JPEG in media/walkthrough/. Run after the README's
// screenshots change: `node scripts/walkthrough-images.mjs` (uses the harness's Chromium).
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM } from '../test/harness/vscode.mjs';

const WIDTH = Number(process.env.WIDTH || 560);
const QUALITY = Number(process.env.QUALITY || 0.6);
/** walkthrough picture <- README screenshot (and the part of it worth showing, as fractions of the image) */
export const PICTURES = {
  'demo.jpg': { from: 'npm-start.png' },
  'check.jpg': { from: 'diagnostics.png' },
  'count.jpg': { from: 'token-count.png' },
  'run.jpg': { from: 'panel-dark.png' },
  'views.jpg': { from: 'sessions-and-rate-limits.png' },
};

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
fs.mkdirSync('media/walkthrough', { recursive: true });
let total = 0;
for (const [name, { from }] of Object.entries(PICTURES)) {
  const png = fs.readFileSync(path.join('docs/images', from)).toString('base64');
  const dataUrl = await page.evaluate(
    async ({ png, width, quality }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = Math.round((img.height * width) / img.width);
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL('image/jpeg', quality);
    },
    { png, width: WIDTH, quality: QUALITY },
  );
  const bytes = Buffer.from(dataUrl.split(',')[1], 'base64');
  fs.writeFileSync(path.join('media/walkthrough', name), bytes);
  total += bytes.length;
  console.log(`${name.padEnd(12)} ${(bytes.length / 1024).toFixed(1).padStart(6)} KB  <- docs/images/${from}`);
}
console.log(`total        ${(total / 1024).toFixed(1).padStart(6)} KB`);
await browser.close();
