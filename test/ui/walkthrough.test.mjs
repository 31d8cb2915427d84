// UI suite: the Getting Started walkthrough in the real editor. Opened from the palette, it lists its six
// steps; without a key its first choice is the offline demo, and each step completes on its real event
// (the demo starting, a request file opened however it is opened, the first count from the service, the
// sample improved on the demo).
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { openFile, runCommand, tokenItem, workbenchSession } from './drive.mjs';

const STEPS = [
  'Connect to the service',
  'Open a request file',
  'Watch the token count',
  'Send it',
  'Browse sessions and rate limits',
  'Let the model improve it',
];

/** Opens the walkthrough from the palette; returns its steps by title, and whether one is ticked. */
async function openWalkthrough(page) {
  await runCommand(page, 'Welcome: Open Walkthrough...');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill('Get Started with Promptwright');
  await page
    .locator('.quick-input-widget .monaco-list-row', { hasText: 'Get Started with Promptwright' })
    .first()
    .click();
  const walkthrough = page.locator('.gettingStartedContainer');
  await walkthrough.locator('.getting-started-step', { hasText: STEPS[0] }).first().waitFor({ timeout: 20000 });
  const step = title => walkthrough.locator('.getting-started-step', { hasText: title }).first();
  const done = async title =>
    (await step(title).locator('[role="checkbox"]').first().getAttribute('aria-checked')) === 'true';
  return { walkthrough, step, done };
}

/**
 * Back to the walkthrough's tab (its title differs between VS Code versions). Under load the Welcome page has come
 * back showing its home, the list of walkthroughs, instead of ours (a CI run's picture): ours is then opened again,
 * and shows the progress it keeps.
 */
async function backToWalkthrough(page) {
  await page
    .locator('.tabs-container .tab', { hasText: 'Welcome' })
    .or(page.locator('.tabs-container .tab', { hasText: 'Walkthrough' }))
    .first()
    .click();
  // the page keeps both slides in the DOM: the class says which one shows (the home's is `showCategories`)
  const details = page.locator('.gettingStartedContainer .gettingStarted.showDetails').first();
  const shown = await details.waitFor({ timeout: 5000 }).then(
    () => true,
    () => false,
  );
  if (!shown) await openWalkthrough(page);
}

describe('Getting Started walkthrough (DOM)', function () {
  const session = workbenchSession('hello.prompt.json');

  it('opens from the palette; the offline demo and the sample complete their steps', async () => {
    const { page } = session;
    await runCommand(page, 'Promptwright: Clear API Key');
    const { walkthrough, step, done } = await openWalkthrough(page);
    for (const title of STEPS)
      assert.equal(await walkthrough.locator('.getting-started-step', { hasText: title }).count(), 1, title);

    // no key: the first button of the first step is the offline demo
    const buttons = step(STEPS[0]).locator('.button-container .monaco-button');
    await buttons.first().waitFor({ timeout: 10000 });
    assert.equal((await buttons.first().innerText()).trim(), 'Try the Offline Demo');
    assert.equal(await done(STEPS[0]), false, 'without a key the first step is open');
    await buttons.first().click();
    await page.locator('.part.statusbar', { hasText: 'Offline demo' }).waitFor({ timeout: 15000 });
    await step(STEPS[0]).locator('[role="checkbox"][aria-checked="true"]').waitFor({ timeout: 15000 });

    // the sample opens as an untitled request file; the demo backend counts it
    await step(STEPS[1]).click();
    await step(STEPS[1]).locator('.button-container .monaco-button', { hasText: 'Open a Sample Request' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'sample.prompt.yaml' }).first().waitFor({ timeout: 15000 });
    await tokenItem(page)
      .filter({ hasText: /\d+ tokens/ })
      .waitFor({ timeout: 30000 });
    assert.ok(!/≈/.test(await tokenItem(page).innerText()), 'a count from the (demo) service, not an estimate');

    // back to the walkthrough: the first three steps are ticked
    await backToWalkthrough(page);
    for (const title of STEPS.slice(0, 3))
      await step(title).locator('[role="checkbox"][aria-checked="true"]').waitFor({ timeout: 15000 });
    assert.equal(await done(STEPS[3]), false, 'nothing was sent yet');
    // the picture for the README: the side bars closed, so the step's image has room beside it
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Secondary Side Bar');
    await step(STEPS[3]).click();
    const picture = walkthrough.locator('.getting-started-media img').first();
    await picture.waitFor({ timeout: 10000 });
    // the step's picture is the one of the theme (package.json names a dark and a light one), and it is drawn
    const shown = await picture.evaluate(async img => {
      await img.decode().catch(() => {});
      const bg = getComputedStyle(document.querySelector('.part.editor') ?? document.body).backgroundColor;
      const dark = (bg.match(/\d+/g) ?? ['255', '255', '255']).slice(0, 3).reduce((a, c) => a + Number(c), 0) < 384;
      return { src: img.currentSrc || img.src, width: img.naturalWidth, dark };
    });
    assert.match(shown.src, new RegExp(`run-${shown.dark ? 'dark' : 'light'}\\.webp`), shown.src);
    assert.ok(shown.width > 100, `the picture is drawn (${shown.width} px wide)`);
    await page.mouse.move(5, 5);
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(ui.results, 'walkthrough.png') });

    // the last step's link improves the sample on the offline demo: its diff opens, and the step ticks
    await step(STEPS[5]).click();
    await step(STEPS[5]).locator('.button-container .monaco-button', { hasText: 'Improve the Sample Prompt' }).click();
    await page.locator('.quick-input-widget', { hasText: 'A goal, if you have one' }).waitFor({ timeout: 15000 });
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('shorter');
    await page.keyboard.press('Enter');
    const diff = page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: 'Above all: shorter.' });
    await diff.first().waitFor({ timeout: 30000 });
    await runCommand(page, 'Promptwright: Decline');
    await diff.first().waitFor({ state: 'detached', timeout: 15000 });
    await backToWalkthrough(page);
    await step(STEPS[5]).locator('[role="checkbox"][aria-checked="true"]').waitFor({ timeout: 15000 });

    await runCommand(page, 'Promptwright: Stop Offline Demo');
    await page.locator('.part.statusbar', { hasText: 'Offline demo' }).waitFor({ state: 'detached', timeout: 15000 });
  });
});

describe('Getting Started walkthrough: opening a request file (DOM)', function () {
  const session = workbenchSession();

  it('the open step ticks when a request file is opened by quick open, as from the Explorer', async () => {
    const { page } = session;
    const { step, done } = await openWalkthrough(page);
    assert.equal(await done(STEPS[1]), false, 'no request file open yet');
    await openFile(page, 'effort.prompt.yaml');
    await tokenItem(page).waitFor({ timeout: 60000 });
    await backToWalkthrough(page);
    await step(STEPS[1]).locator('[role="checkbox"][aria-checked="true"]').waitFor({ timeout: 15000 });
  });
});
