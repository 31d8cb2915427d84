// DOM helpers for the UI suites (selectors checked on VS Code 1.139; CONTRIBUTING.md says how the harness runs).
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';

/** Opens the workbench on `folder` with the extension loaded from source, and opens `file` if given. */
export async function openWorkbench(folder, file, viewport, browserOptions) {
  const { page, close } = await ui.launchBrowser(viewport, browserOptions);
  page.on('pageerror', e => console.log('  [pageerror]', e.message));
  await page.goto(ui.workbenchUrl(ui.base, folder, { devPath: ui.root }));
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 90000 });
  if (file) {
    await openFile(page, file);
    // the token count item appears once the extension host is up and Promptwright is active
    if (/\.prompt\.(json|ya?ml)$/.test(file)) await tokenItem(page).waitFor({ timeout: 60000 });
  }
  return { page, close, folder };
}

/** Promptwright's token count status bar item. */
export const tokenItem = page => page.locator('[id="promptwright.promptwright.promptwright.tokens"]');

/** Enters the API key through "Promptwright: Set API Key" (a password box). */
export async function setApiKey(page, key) {
  await runCommand(page, 'Promptwright: Set API Key');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await page.locator('.quick-input-widget', { hasText: 'Stored in VS Code' }).waitFor({ timeout: 10000 });
  await input.fill(key);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
}

/** Opens quick open; if Ctrl+P did not reach the workbench, the palette without '>' is quick open too. */
async function openQuickOpen(page, input) {
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 5000 })
    .catch(() => {});
  await page.keyboard.press('Control+P');
  if (
    await input.waitFor({ state: 'visible', timeout: 3000 }).then(
      () => true,
      () => false,
    )
  )
    return;
  await page
    .locator('.part.statusbar')
    .click({ position: { x: 400, y: 5 } })
    .catch(() => {});
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: 15000 });
}

export async function openFile(page, name) {
  // focus the workbench outside any webview (keys typed in a webview's frame may not reach the workbench)
  await page
    .locator('.part.statusbar')
    .click({ position: { x: 400, y: 5 } })
    .catch(() => {});
  await page.keyboard.press('Control+1'); // the first editor group, not the response panel's
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const found = page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: name }).first();
  // Enter opens the focused row: wait until the filtered list has settled with the file on top. The first
  // search of a fresh workspace can come back empty while the file index is still being built on a loaded
  // machine, and quick open can be taken away as it opens (the workbench turns inert for a moment while a part
  // settles): open it again and type the name again, three times
  for (let attempt = 1; ; attempt++) {
    try {
      await openQuickOpen(page, input);
      await input.fill(name, { timeout: 5000 });
      await found.waitFor({ timeout: 15000 });
      break;
    } catch (e) {
      if (attempt === 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
  await page
    .locator('.editor-group-container.active .tabs-container .tab.active', { hasText: name })
    .first()
    .waitFor({ timeout: 15000 });
  await page
    .locator('.editor-group-container.active .monaco-editor .view-lines .view-line')
    .first()
    .waitFor({ timeout: 15000 });
}

/** Runs a command by its palette title (e.g. "Promptwright: Show Log"). */
export async function runCommand(page, title) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  // The palette can be taken away as it opens (the workbench turns inert for a moment while a part it just
  // closed or opened settles, seen after "View: Close Primary Side Bar"): open it again, up to three times.
  for (let attempt = 1; ; attempt++) {
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 5000 })
      .catch(() => {});
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 15000 });
      await input.fill(`>${title}`, { timeout: attempt < 3 ? 5000 : 30000 });
      break;
    } catch (e) {
      if (attempt === 3) throw e;
      // only a palette still showing is closed: Escape elsewhere acts on the page (a walkthrough goes back)
      if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await rows
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first()
    .waitFor({ timeout: 15000 });
  await page.waitForTimeout(400); // let the filtered list settle
  // move the keyboard selection onto the row whose label is exactly the title, then Enter
  // (clicking rows proved flaky; Enter alone runs whatever row happens to be first)
  for (let i = 0; i < 20; i++) {
    const focused = page.locator('.quick-input-widget .monaco-list-row.focused .label-name').first();
    const label = (await focused.innerText().catch(() => '')).trim();
    if (exact.test(label)) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
}

/** The text of the active editor (monaco renders spaces as U+00A0). */
export async function editorText(page) {
  return (await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText()).replace(
    /\u00a0/g,
    ' ',
  );
}

/** mocha afterEach hook body: a screenshot of the page when the test failed. */
export async function screenshotOnFailure(ctx, page) {
  if (ctx.currentTest?.state === 'failed' && page) {
    const name = ctx.currentTest
      .fullTitle()
      .replace(/[^a-z0-9]+/gi, '-')
      .slice(0, 80);
    await page.screenshot({ path: `${ui.results}/FAILED-${name}.png` }).catch(() => {});
  }
}

/**
 * Runs a palette command and waits for what it should show. In code-server's web workbench a command
 * picked while the window is still settling is sometimes dropped (seen for commands that reveal the
 * panel); one more try is made then, and the test fails if it still does not show.
 */
export async function runCommandExpect(page, title, locator, timeout = 20000) {
  await runCommand(page, title);
  if (
    await locator
      .first()
      .waitFor({ timeout: 6000 })
      .then(
        () => true,
        () => false,
      )
  )
    return;
  console.log(`  [drive] "${title}" showed nothing in 6 s; running it once more`);
  await runCommand(page, title);
  await locator.first().waitFor({ timeout });
}

/** Copies the files of test/fixtures/<set> (or those named) into `folder`; returns it. */
export function copyFixtures(folder, set, names) {
  const fixtures = path.join(ui.root, 'test', 'fixtures', set);
  for (const f of names ?? fs.readdirSync(fixtures)) fs.copyFileSync(path.join(fixtures, f), path.join(folder, f));
  return folder;
}

/**
 * Mocha hooks for a suite that works in one workbench window: opens it on a workspace with `file` open (and the API
 * key entered, when asked), screenshots failures, closes it. Returns an object whose `page` is set once the window
 * is open; the suite may keep its own state on it.
 * - `folder`: makes the workspace (a fresh copy of the fixture workspace by default); may be async
 * - `size`: the window's `{ width, height }` (the README's pictures are taken at a common laptop size)
 * - `ready(s)`: what the suite does once the window is open (a first run, a layout)
 * - `eachAfter(s)`, `beforeClose(s)`: after each test (once its failure is pictured), and before the window closes
 */
export function workbenchSession(
  file,
  { withApiKey = false, folder = () => ui.freshWorkspace(), size, ready, eachAfter, beforeClose } = {},
) {
  const s = {};
  before(async function () {
    Object.assign(s, await openWorkbench(await folder(), file, size));
    if (withApiKey) await setApiKey(s.page, ui.fake.apiKey);
    await ready?.(s);
  });
  afterEach(async function () {
    await screenshotOnFailure(this, s.page);
    await eachAfter?.(s);
  });
  after(async () => {
    if (s.page) await beforeClose?.(s);
    await s.close?.();
  });
  return s;
}

// ---- the Promptwright side bar --------------------------------------------------------------------------

/** The tree rows of every expanded view in the side bar. */
export const treeRows = page => page.locator('.part.sidebar .pane-body .monaco-list-row[role="treeitem"]');

/** A side bar view's header, by its title. */
export const paneHeader = (page, title) => page.locator('.part.sidebar .pane-header', { hasText: title }).first();

const PROMPTWRIGHT_VIEWS = [
  'Prompts',
  'Session Resources',
  'Batches',
  'Rate Limits',
  'Organization',
  'Compliance',
  'Administration',
];

/**
 * Expands one Promptwright view and collapses the others shown, so it has the room (lists render what fits).
 * Some views show only with their key: the one asked for is waited for.
 */
export async function expandOnly(page, title) {
  await paneHeader(page, title).waitFor({ timeout: 15000 });
  for (const other of PROMPTWRIGHT_VIEWS.filter(t => t !== title)) {
    const h = paneHeader(page, other);
    if (!(await h.count())) continue;
    if ((await h.getAttribute('aria-expanded')) === 'true') await h.click();
  }
  const h = paneHeader(page, title);
  if ((await h.getAttribute('aria-expanded')) !== 'true') await h.click();
}

/** Clears the Admin and Compliance keys (a test that failed half way may have left one set). */
export async function clearAdminKeys(page) {
  await runCommand(page, 'Promptwright: Clear Admin API Key');
  await runCommand(page, 'Promptwright: Clear Compliance Key');
}

/**
 * Opens the notifications centre (toasts are hidden in the test workbench) and returns the item saying `text`. The
 * mouse then rests on the centre's title: left on the bell it clicked, the bell's hover could cover the item's
 * buttons (a click on Decline waited 30 s behind it).
 */
export async function notification(page, text) {
  const item = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  if (!(await item.isVisible())) {
    await page.locator('[id="status.notifications"] a').first().click();
    await page.locator('.notifications-center .notifications-center-header-title').hover();
  }
  await item.waitFor({ timeout: 20000 });
  return item;
}

/** Types an answer into the open input box or quick pick and presses Enter. */
export async function answerInput(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(text);
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

/**
 * A helper more than one suite shares (test/support/), as the build leaves it in out/: `tempRepo` (a git
 * repository), `spawnCli` (the built CLI as a process).
 */
export const support = name => import(`../../out/test/support/${name}.js`);

/** A fresh workspace folder that is a new git repository (test/support/tempRepo.ts). */
export async function freshRepository() {
  const { gitRepo } = await support('tempRepo');
  return gitRepo(ui.freshWorkspace());
}
