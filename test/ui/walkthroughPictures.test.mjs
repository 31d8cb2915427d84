// UI suite: the Getting Started walkthrough's pictures, taken in the real workbench, each cropped to what its
// step shows: the question asked when there is no key (connect), a problem and its quick fixes in a request
// file (open), the token count's tooltip (count), the response panel (run), the side bar (views), and the offline
// demo's improvement of the sample as a diff (improve). No window
// title, no stray notification. They land in test-results/walkthrough/. The walkthrough ships a dark and a
// light picture per step (package.json names both; VS Code shows the one of the theme), WebP files about a
// third smaller than JPEGs of the same look, so both sets fit the .vsix's budget. The test takes the dark set;
// with UPDATE_DOCS_IMAGES=1 it takes both and writes them to media/walkthrough/ (check the budget with
// `node scripts/sizes.mjs`) and to docs/images/first-hour/, which docs/first-hour.md shows side by side.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import {
  answerInput,
  openFile,
  openWorkbench,
  paneHeader,
  runCommand,
  screenshotOnFailure,
  setApiKey,
  tokenItem,
  treeRows,
} from './drive.mjs';
import { withoutColorProfile } from './webp.mjs';

const UPDATE = !!process.env.UPDATE_DOCS_IMAGES;
const THEMES = UPDATE ? ['dark', 'light'] : ['dark'];
/** WebP quality and scale: the pictures ship in the .vsix, whose size has a budget */
const QUALITY = Number(process.env.WALKTHROUGH_QUALITY || 0.25);
/** the page is drawn at this scale: smaller pictures whose text is still drawn sharp (not scaled down) */
const DEVICE_SCALE = Number(process.env.WALKTHROUGH_SCALE || 0.7);

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

/** A PNG as a WebP of QUALITY, drawn by the browser (no image library to install). */
async function toWebp(page, png) {
  const url = await page.evaluate(
    async ({ data, quality }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      canvas.getContext('2d').drawImage(img, 0, 0);
      return canvas.toDataURL('image/webp', quality);
    },
    { data: png.toString('base64'), quality: QUALITY },
  );
  return Buffer.from(url.split(',')[1], 'base64');
}

/**
 * Uses VS Code's default dark or light theme, set in the user settings code-server reads (its theme picker
 * lists no theme in the harness). Returns what puts the settings back.
 */
async function useTheme(page, theme) {
  const before = fs.readFileSync(ui.userSettings, 'utf8');
  const colorTheme = theme === 'light' ? 'Light Modern' : 'Dark Modern';
  // dark or light by a colour the theme sets (the workbench's theme classes lag behind the colours)
  const isDark = () =>
    page.evaluate(() => {
      const bg = getComputedStyle(document.querySelector('.part.sidebar') ?? document.body).backgroundColor;
      const [r, g, b] = (bg.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
      return r + g + b < 3 * 128;
    });
  const settled = async () => {
    for (let i = 0; i < 50 && (await isDark()) !== (theme === 'dark'); i++) await page.waitForTimeout(200);
    // the workbench may write its own copy of the settings back once (migrating a setting): it must stay
    await page.waitForTimeout(2500);
    return (await isDark()) === (theme === 'dark');
  };
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt % 2 === 1 && (await isDark()) !== (theme === 'dark')) {
      // after another suite toggled the theme, the workbench may keep its own choice over the file's: the
      // command the other suites use toggles it back
      await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    } else {
      const now = JSON.parse(fs.readFileSync(ui.userSettings, 'utf8'));
      fs.writeFileSync(ui.userSettings, JSON.stringify({ ...now, 'workbench.colorTheme': colorTheme }, null, 2));
    }
    if (await settled()) break;
  }
  assert.equal(await isDark(), theme === 'dark', `the ${theme} theme`);
  return () => fs.writeFileSync(ui.userSettings, before);
}

describe('walkthrough pictures (DOM)', function () {
  const viewport = { width: 1100, height: 720 };
  const results = path.join(ui.results ?? '', 'walkthrough');
  let s;
  let restoreTheme;
  afterEach(async function () {
    await screenshotOnFailure(this, s?.page);
    restoreTheme?.();
    restoreTheme = undefined;
    await s?.close();
    s = undefined;
  });

  for (const theme of THEMES) {
    it(`takes each step's picture, cropped to what the step shows (${theme})`, async () => {
      const folder = ui.freshWorkspace();
      fs.writeFileSync(path.join(folder, 'first.prompt.yaml'), FIRST);
      s = await openWorkbench(folder, undefined, viewport, { deviceScaleFactor: DEVICE_SCALE });
      const { page } = s;
      fs.mkdirSync(results, { recursive: true });
      const shots = [];
      // each picture is kept lossless in test-results/ and made a WebP once all are taken
      const shoot = async (step, clip) => {
        const file = path.join(results, `${step}-${theme}.png`);
        await page.screenshot({ path: file, type: 'png', clip });
        shots.push(file);
      };
      restoreTheme = await useTheme(page, theme);
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

      // open: the misspelt role, its squiggle, and its quick fixes with the one meant first
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      await editor.locator('.squiggly-error').first().waitFor({ timeout: 20000 });
      await editor
        .locator('.view-line span', { hasText: /^users$/ })
        .first()
        .click();
      // the fixes are asked for once the editor has the cursor there (the key is tried again if it came early)
      const menu = page.locator('.action-widget', { hasText: "Change to 'user'" }).first();
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Control+.');
        const shown = await menu.waitFor({ timeout: 5000 }).then(
          () => true,
          () => false,
        );
        if (shown) break;
        assert.ok(attempt < 3, 'the quick fixes show');
      }
      await page.waitForTimeout(300);
      // the lines from `model:` to `content:`, from the line numbers on, and the menu
      const line = text => box(editor.locator('.view-line', { hasText: text }).first());
      const [first, last, gutter] = [
        await line('model:'),
        await line('content:'),
        await box(editor.locator('.margin')),
      ];
      const shown = { x: gutter.x, y: first.y, width: 480, height: last.y + last.height - first.y };
      // from the top of `model:` exactly (a margin above would show a sliver of the comment line)
      const open = around([shown, await box(menu)], 6, viewport);
      await shoot('open', { ...open, y: Math.round(first.y), height: open.y + open.height - Math.round(first.y) });
      await page.keyboard.press('Escape');

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
      // down to the reply's text: the status strip, the thinking and the text
      const text = await box(reply.locator('.block-text').first());
      const replyHeight = Math.round(text.y + text.height + 10 - g.y);
      await shoot('run', { x: Math.round(g.x), y: Math.round(g.y), width: Math.round(g.width), height: replyHeight });

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
      // down to the first group of limits, ending at a row's edge
      const bar = await box(page.locator('.part.sidebar'));
      const lastRow = await box(treeRows(page).filter({ hasText: 'Opus models' }).first());
      const barHeight = Math.round(lastRow.y + lastRow.height + 4 - bar.y);
      await shoot('views', {
        x: Math.round(bar.x),
        y: Math.round(bar.y),
        width: Math.round(bar.width),
        height: barHeight,
      });

      // improve: the offline demo's improvement of the sample, as the step's link asks for it
      await runCommand(page, 'View: Close Primary Side Bar');
      await runCommand(page, 'Promptwright: Open a Sample Request');
      await runCommand(page, 'Promptwright: Improve Prompt…');
      await page.locator('.quick-input-widget', { hasText: 'A goal, if you have one' }).waitFor({ timeout: 15000 });
      await answerInput(page, '');
      const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
      const added = diff.locator('.editor.modified .view-line', { hasText: 'Answer in at most three sentences' });
      await added.first().waitFor({ timeout: 30000 });
      await clearNotifications(page);
      await page.mouse.move(viewport.width - 5, viewport.height - 5);
      await page.waitForTimeout(300);
      // the lines between `max_tokens:` and `tools:`: the system prompt removed and its new version added (small:
      // the picture ships in the .vsix)
      const lineOf = text => box(diff.locator('.editor.modified .view-line', { hasText: text }).first());
      const [above, below, editors] = [await lineOf('max_tokens:'), await lineOf('tools:'), await box(diff)];
      const top = Math.round(above.y + above.height);
      await shoot('improve', { x: Math.round(editors.x), y: top, width: 480, height: Math.round(below.y) - top });
      await runCommand(page, 'Promptwright: Decline');
      await diff.waitFor({ state: 'detached', timeout: 15000 });
      await runCommand(page, 'Promptwright: Stop Offline Demo');

      assert.equal(shots.length, 6);
      const encoder = await page.context().newPage();
      for (const file of shots) {
        const webp = withoutColorProfile(await toWebp(encoder, fs.readFileSync(file)));
        assert.equal(webp.toString('latin1', 8, 12), 'WEBP', 'the browser encodes WebP');
        assert.equal(webp.toString('latin1', 12, 16), 'VP8 ', 'one lossy image, without a colour profile');
        const name = path.basename(file).replace(/\.png$/, '.webp');
        fs.writeFileSync(path.join(results, name), webp);
        console.log(`      ${name.padEnd(18)} ${(webp.length / 1024).toFixed(1)} KB`);
        if (!UPDATE) continue;
        for (const dir of [
          ['docs', 'images', 'first-hour'],
          ['media', 'walkthrough'],
        ]) {
          fs.mkdirSync(path.join(ui.root, ...dir), { recursive: true });
          fs.writeFileSync(path.join(ui.root, ...dir, name), webp);
        }
      }
    });
  }
});
