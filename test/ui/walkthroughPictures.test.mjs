// UI suite: the Getting Started walkthrough's pictures, taken in the real workbench, each cropped to what its
// step shows: the question asked when there is no key (connect), a problem and its hover in a request file
// (open), the token count's tooltip (count), the response panel (run), and the side bar (views). No window
// title, no stray notification. They land in test-results/walkthrough/; with UPDATE_DOCS_IMAGES=1 they are
// taken in the dark and the light theme and also written to media/walkthrough/ (what the .vsix ships: check
// its budget with `node scripts/sizes.mjs`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import {
  openFile,
  openWorkbench,
  paneHeader,
  runCommand,
  screenshotOnFailure,
  setApiKey,
  tokenItem,
  treeRows,
} from './drive.mjs';

const UPDATE = !!process.env.UPDATE_DOCS_IMAGES;
const THEMES = UPDATE ? ['dark', 'light'] : ['dark'];
/** JPEG quality and scale: the pictures ship in the .vsix, whose budget is 300 KB */
const QUALITY = Number(process.env.WALKTHROUGH_QUALITY || 0.6);
const SCALE = Number(process.env.WALKTHROUGH_SCALE || 1);

/** The request file the "open" picture shows: one misspelt value, whose quick fix the step mentions. */
const FIRST = `# The body of POST /v1/messages, checked as you type
model: model-opus-4-7
max_tokens: 1024
messages:
  - role: users
    content: Should I pack an umbrella for Paris tomorrow?
`;

/** The smallest box holding all the boxes, with a margin, kept inside the window. */
function around(boxes, margin, viewport) {
  const x = Math.max(0, Math.min(...boxes.map(b => b.x)) - margin);
  const y = Math.max(0, Math.min(...boxes.map(b => b.y)) - margin);
  const right = Math.min(viewport.width, Math.max(...boxes.map(b => b.x + b.width)) + margin);
  const bottom = Math.min(viewport.height, Math.max(...boxes.map(b => b.y + b.height)) + margin);
  return { x: Math.round(x), y: Math.round(y), width: Math.round(right - x), height: Math.round(bottom - y) };
}

async function box(locator) {
  const b = await locator.boundingBox();
  assert.ok(b, 'the element is on screen');
  return b;
}

/** Dismisses every notification, so none shows in a picture. */
async function clearNotifications(page) {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page
    .locator('.notification-toast')
    .first()
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => {});
}

/** A PNG as a JPEG of QUALITY, scaled by SCALE, drawn by the browser (no image library to install). */
async function toJpeg(page, png) {
  const url = await page.evaluate(
    async ({ data, quality, scale }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(img.width * scale);
      canvas.height = Math.round(img.height * scale);
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL('image/jpeg', quality);
    },
    { data: png.toString('base64'), quality: QUALITY, scale: SCALE },
  );
  return Buffer.from(url.split(',')[1], 'base64');
}

/** Switches between the default dark and light themes (the preferred ones of each kind). */
async function useTheme(page, theme) {
  // the workbench's class says the kind of theme: `vs-dark`, or `vs` alone for a light one
  const isDark = () =>
    page
      .locator('.monaco-workbench')
      .first()
      .evaluate(e => e.classList.contains('vs-dark'));
  if ((await isDark()) === (theme === 'dark')) return;
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  for (let i = 0; i < 50 && (await isDark()) !== (theme === 'dark'); i++) await page.waitForTimeout(200);
  assert.equal(await isDark(), theme === 'dark', `the ${theme} theme`);
}

describe('walkthrough pictures (DOM)', function () {
  const viewport = { width: 1100, height: 720 };
  const results = path.join(ui.results ?? '', 'walkthrough');
  let s;
  afterEach(async function () {
    await screenshotOnFailure(this, s?.page);
    await s?.close();
    s = undefined;
  });

  for (const theme of THEMES) {
    it(`takes each step's picture, cropped to what the step shows (${theme})`, async () => {
      const folder = ui.freshWorkspace();
      fs.writeFileSync(path.join(folder, 'first.prompt.yaml'), FIRST);
      s = await openWorkbench(folder, undefined, viewport);
      const { page } = s;
      fs.mkdirSync(results, { recursive: true });
      const shots = [];
      // each picture is kept lossless in test-results/ and made a JPEG once all are taken
      const shoot = async (step, clip) => {
        const file = path.join(results, `${step}-${theme}.png`);
        await page.screenshot({ path: file, type: 'png', clip });
        shots.push(file);
      };
      await useTheme(page, theme);
      await runCommand(page, 'View: Hide Secondary Side Bar');

      // connect: Send with no key asks, the offline demo first
      await openFile(page, 'first.prompt.yaml');
      await tokenItem(page).waitFor({ timeout: 60000 });
      await runCommand(page, 'Promptwright: Clear API Key');
      await clearNotifications(page);
      await runCommand(page, 'Promptwright: Send Request');
      // the file has an error: Send asks first whether to send it anyway (a modal, not in the picture)
      const anyway = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Send Anyway' });
      await anyway.waitFor({ timeout: 15000 });
      await anyway.click();
      const question = page.locator('.quick-input-widget', { hasText: 'Use the offline demo' });
      await question.waitFor({ timeout: 15000 });
      await page.waitForTimeout(300);
      await shoot('connect', around([await box(question)], 0, viewport));
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'hidden', timeout: 10000 });

      // open: the misspelt role, its error and the fix, in a hover over the value
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      const value = editor.locator('.view-line span', { hasText: /^users$/ }).first();
      await editor.locator('.squiggly-error').first().waitFor({ timeout: 20000 });
      await value.hover();
      const hover = page.locator('.monaco-hover:visible', { hasText: 'role' }).first();
      await hover.waitFor({ timeout: 15000 });
      await page.waitForTimeout(300);
      const lines = editor.locator('.view-lines');
      const top = await box(lines);
      const shown = { x: top.x - 50, y: top.y, width: 560, height: 6 * 19 };
      await shoot('open', around([shown, await box(hover)], 8, viewport));

      // count: the service's count in the status bar, and its tooltip
      await setApiKey(page, ui.fake.apiKey);
      await clearNotifications(page);
      await runCommand(page, 'Promptwright: Count Tokens');
      await tokenItem(page)
        .filter({ hasText: /^\s*\d[\d,]* tokens\s*$/ })
        .waitFor({ timeout: 30000 });
      await tokenItem(page).hover();
      const tip = page.locator('.monaco-hover:visible', { hasText: 'Input tokens' }).first();
      await tip.waitFor({ timeout: 15000 });
      await page.waitForTimeout(300);
      await shoot('count', around([await box(tip), await box(tokenItem(page))], 8, viewport));
      await page.mouse.move(5, 300);

      // run: the response panel with a streamed reply (thinking and a tool call)
      await openFile(page, 'chat.prompt.yaml');
      await runCommand(page, 'Promptwright: Send Request');
      const reply = page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
      await reply.locator('#meta[data-file="chat.prompt.yaml"]').waitFor({ timeout: 30000 });
      await reply.locator('#meta-status', { hasText: 'done' }).waitFor({ timeout: 30000 });
      await clearNotifications(page);
      const group = page.locator('.editor-group-container', {
        has: page.locator('.tab', { hasText: /^Reply · / }),
      });
      const g = await box(group);
      await shoot('run', { x: Math.round(g.x), y: Math.round(g.y), width: Math.round(g.width), height: 420 });

      // views: the offline demo's session and workspace in the Promptwright side bar
      await runCommand(page, 'Promptwright: Try the Offline Demo');
      await page.locator('.part.statusbar', { hasText: 'Offline demo' }).waitFor({ timeout: 15000 });
      await clearNotifications(page);
      await page.locator('.part.activitybar .action-item .action-label[aria-label^="Promptwright"]').first().click();
      for (const title of ['Prompts', 'Session Resources', 'Rate Limits']) {
        const h = paneHeader(page, title);
        await h.waitFor({ timeout: 15000 });
        const open = (await h.getAttribute('aria-expanded')) === 'true';
        if (open !== (title !== 'Prompts')) await h.click();
      }
      for (const title of ['Organization', 'Compliance']) {
        const h = paneHeader(page, title);
        if ((await h.count()) && (await h.getAttribute('aria-expanded')) === 'true') await h.click();
      }
      await treeRows(page).filter({ hasText: 'ses_demo' }).first().click();
      await treeRows(page).filter({ hasText: 'file_0' }).first().waitFor({ timeout: 15000 });
      await treeRows(page).filter({ hasText: 'Organization' }).first().waitFor({ timeout: 15000 });
      await page.mouse.move(viewport.width - 5, viewport.height / 2);
      await page.waitForTimeout(300);
      const bar = await box(page.locator('.part.sidebar'));
      await shoot('views', { x: Math.round(bar.x), y: Math.round(bar.y), width: Math.round(bar.width), height: 470 });
      await runCommand(page, 'Promptwright: Stop Offline Demo');

      assert.equal(shots.length, 5);
      const encoder = await page.context().newPage();
      for (const file of shots) {
        const jpeg = await toJpeg(encoder, fs.readFileSync(file));
        const name = path.basename(file).replace(/\.png$/, '.jpg');
        fs.writeFileSync(path.join(results, name), jpeg);
        console.log(`      ${name.padEnd(18)} ${(jpeg.length / 1024).toFixed(1)} KB`);
        if (UPDATE) fs.writeFileSync(path.join(ui.root, 'media', 'walkthrough', name), jpeg);
      }
    });
  }
});
