// UI suite: Improve Prompt… and Generate Test Cases…, driven through the DOM against the fake (its stand-in
// co-author, src/core/demo/coauthor.ts). Improve Prompt from the palette: the goal typed, the diff of the request
// against its improved version opened with Accept and Decline in its title bar, the reasons in the notification;
// Accept in the title bar applies it, one Undo takes it back. Generate Test Cases from the case file's title
// bar: its diff, declined from the notification: the file as it was. Compare with the Improved Prompt from the
// diff's title bar: the Cases grid in compare mode, the improved prompt against the working copy; then Accept from
// the notification. Cancel on the progress notification while the model is still working: nothing opens, nothing
// changes. Picture: test-results/improve.png; with UPDATE_DOCS_IMAGES=1 also docs/images/improve.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { answerInput, editorText, notification, openFile, runCommand, workbenchSession } from './drive.mjs';

const REQUEST = `# A support assistant: each case fills {{question}} and {{tone}}.
model: model-sonnet-4-6
max_tokens: 400
system: >-
  You answer the customers of an online shop, in their language and in a
  {{tone}} tone. Say which language you answered in. When a delivery
  depends on the weather, call get_weather.
tools:
  - name: get_weather
    description: Current weather for a city, and whether it will rain.
    input_schema:
      type: object
      properties:
        location: { type: string, description: "City name, e.g. Paris" }
      required: [location]
messages:
  - role: user
    content: "{{question}}"
`;

const CASES = `# Cases written by hand.
request: support.prompt.yaml
cases:
  - name: refund in French
    vars: { question: "Puis-je être remboursé ?", tone: formal }
`;

const diffEditor = page => page.locator('.editor-group-container.active .monaco-diff-editor').first();

/** Clears the notifications, and closes their centre if it is open. */
async function closeNotifications(page) {
  await runCommand(page, 'Notifications: Clear All Notifications');
  if (await page.locator('.notifications-center.visible').count())
    await page.locator('[id="status.notifications"] a').first().click();
}

describe('Improve Prompt… and Generate Test Cases… (DOM)', function () {
  let folder;
  // the README's picture is taken at a common laptop size
  const s = workbenchSession('support.prompt.yaml', {
    withApiKey: true,
    size: { width: 1440, height: 860 },
    folder: () => {
      folder = ui.freshWorkspace();
      fs.writeFileSync(path.join(folder, 'support.prompt.yaml'), REQUEST);
      fs.writeFileSync(path.join(folder, 'support.cases.yaml'), CASES);
      return folder;
    },
    ready: async s => {
      await runCommand(s.page, 'View: Close Primary Side Bar');
      await runCommand(s.page, 'View: Hide Secondary Side Bar');
    },
  });

  it('Improve Prompt: the goal, a diff with the reasons; Accept in the title bar, and one Undo', async () => {
    const { page } = s;
    await closeNotifications(page);
    await runCommand(page, 'Promptwright: Improve Prompt…');
    await page.locator('.quick-input-widget', { hasText: 'A goal, if you have one' }).waitFor({ timeout: 15000 });
    await answerInput(page, 'handles refunds politely');
    await diffEditor(page).waitFor({ timeout: 30000 });
    const tab = page.locator('.editor-group-container.active .tab.active');
    await tab.filter({ hasText: 'support.prompt.yaml ↔ Improved by model-sonnet-4-6' }).waitFor({ timeout: 15000 });
    const modified = diffEditor(page).locator('.editor.modified .view-lines');
    await modified.filter({ hasText: 'Above all: handles refunds politely.' }).waitFor({ timeout: 15000 });
    // the inserted line is marked as such, nothing else is
    assert.ok((await diffEditor(page).locator('.editor.modified .line-insert').count()) >= 1);
    assert.equal(await diffEditor(page).locator('.editor.original .line-delete').count(), 0);
    const item = await notification(page, 'support.prompt.yaml improved');
    assert.match(await item.innerText(), /Added a closing instruction to "system": The goal asks for it/);
    assert.match(await item.innerText(), /input tokens \d+ → \d+ +\(\+\d+, \+[\d.]+%\)/);
    await item.locator('.monaco-button', { hasText: 'Accept' }).waitFor({ timeout: 5000 });

    // the picture: the diff and the reasons, the pointer away
    await page.mouse.move(700, 845);
    await page.waitForTimeout(500);
    const shot = await page.screenshot({ path: path.join(ui.results, 'improve.png') });
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'improve.png'), shot);

    await closeNotifications(page);
    await page.locator('.editor-group-container.active .editor-actions [aria-label="Accept"]').first().click();
    await diffEditor(page).waitFor({ state: 'detached', timeout: 15000 });
    await page
      .locator('.editor-group-container.active .tab.active', { hasText: /^support\.prompt\.yaml/ })
      .waitFor({ timeout: 15000 });
    assert.match(await editorText(page), /Above all: handles refunds politely\./);
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Z');
    await page
      .locator('.editor-group-container.active .view-lines', { hasText: 'Above all' })
      .waitFor({ state: 'detached', timeout: 10000 });
    assert.doesNotMatch(await editorText(page), /Above all/);
    assert.match(await editorText(page), /You answer the customers of an online shop/);
  });

  it('Compare with the Improved Prompt: the Cases grid compares it with the working copy; then Accept', async () => {
    const { page } = s;
    await closeNotifications(page);
    await runCommand(page, 'Promptwright: Improve Prompt…');
    await page.locator('.quick-input-widget', { hasText: 'A goal, if you have one' }).waitFor({ timeout: 15000 });
    await answerInput(page, 'shorter');
    await diffEditor(page).waitFor({ timeout: 30000 });
    const before = ui.fake.requests.length;
    await page
      .locator('.editor-group-container.active .editor-actions [aria-label="Compare with the Improved Prompt"]')
      .click();
    const grid = page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
    await grid
      .locator('#compare-bar', { hasText: 'Comparing the improved prompt with the working copy' })
      .waitFor({ timeout: 30000 });
    await grid.locator('#compare-bar .compare-summary', { hasText: '1 same' }).waitFor({ timeout: 30000 });
    const sent = ui.fake.requests.slice(before).filter(r => r.path === '/v1/messages');
    assert.deepEqual(sent.map(r => /Above all: shorter\./.test(r.body.system)).sort(), [false, true]);
    // the proposal is still there: Accept in its notification
    const item = await notification(page, 'support.prompt.yaml improved');
    await item.locator('.monaco-button', { hasText: 'Accept' }).click();
    await diffEditor(page).waitFor({ state: 'detached', timeout: 15000 });
    // Accept shows the request itself (a Quick Open of it meanwhile would be closed as it does)
    await page
      .locator('.editor-group-container.active .tab.active', { hasText: /^support\.prompt\.yaml/ })
      .waitFor({ timeout: 15000 });
    assert.match(await editorText(page), /Above all: shorter\./);
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Z');
    await page
      .locator('.editor-group-container.active .view-lines', { hasText: 'Above all' })
      .waitFor({ state: 'detached', timeout: 10000 });
    await runCommand(page, 'View: Close All Editor Groups');
  });

  it('Generate Test Cases from the case file: its diff; Decline leaves the file as it was', async () => {
    const { page } = s;
    // whatever an earlier test left open (the Cases grid's tab is titled by the case file too)
    await runCommand(page, 'View: Close All Editor Groups');
    await openFile(page, 'support.cases.yaml');
    await closeNotifications(page);
    await page.locator('.editor-group-container.active .editor-actions [aria-label="Generate Test Cases…"]').click();
    await page.locator('.quick-input-widget', { hasText: 'How many cases' }).waitFor({ timeout: 15000 });
    await answerInput(page, '2');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: /^Cases/ }).first();
    await row.waitFor({ timeout: 10000 });
    await page.keyboard.press('Enter');
    await diffEditor(page).waitFor({ timeout: 30000 });
    const modified = diffEditor(page).locator('.editor.modified .view-lines');
    await modified.filter({ hasText: 'edge: empty 2' }).waitFor({ timeout: 15000 });
    await modified.filter({ hasText: 'adversarial 3' }).waitFor({ timeout: 15000 });
    const item = await notification(page, '2 new cases for support.prompt.yaml');
    await item.locator('.monaco-button', { hasText: 'Decline' }).click();
    await diffEditor(page).waitFor({ state: 'detached', timeout: 15000 });
    await page
      .locator('.editor-group-container.active .tab.active', { hasText: /^support\.cases\.yaml/ })
      .waitFor({ timeout: 15000 });
    assert.equal((await editorText(page)).trim(), CASES.trim());
    assert.equal(await page.locator('.editor-group-container.active .tab.active.dirty').count(), 0);
  });

  it('Cancel while the model works: nothing opens, nothing changes', async () => {
    const { page } = s;
    await openFile(page, 'support.prompt.yaml');
    await closeNotifications(page);
    ui.fake.fail({ path: '/v1/messages', stall: true });
    await runCommand(page, 'Promptwright: Improve Prompt…');
    await page.locator('.quick-input-widget', { hasText: 'A goal, if you have one' }).waitFor({ timeout: 15000 });
    await answerInput(page, '');
    const progress = await notification(page, 'improving support.prompt.yaml');
    await progress.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await progress.waitFor({ state: 'detached', timeout: 15000 });
    await page.waitForTimeout(1000);
    assert.equal(await diffEditor(page).count(), 0);
    assert.equal(await page.locator('.editor-group-container.active .tab.active.dirty').count(), 0);
    assert.match(await editorText(page), /Say which/);
    ui.fake.clear();
  });
});
