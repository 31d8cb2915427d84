// UI suite: the Promptwright activity bar views, driven through the DOM.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { answerInput, clearAdminKeys, expandOnly, runCommand, treeRows, workbenchSession } from './drive.mjs';

describe('session resources and rate limits views (DOM)', function () {
  const session = workbenchSession('hello.prompt.json', { withApiKey: true });

  it("shows a session's resources with icons and descriptions, and attaches a file", async () => {
    const { page } = session;
    await page.locator('.part.activitybar .action-item .action-label[aria-label^="Promptwright"]').first().click();
    await runCommand(page, 'Promptwright: Add Session…');
    await answerInput(page, 'ses_demo');
    // the session just added is shown: selected and expanded, its resources listed, with no click
    const sessionRow = treeRows(page).filter({ hasText: 'ses_demo' });
    await sessionRow.waitFor({ timeout: 15000 });
    await treeRows(page).filter({ hasText: 'file_0' }).waitFor({ timeout: 15000 });
    assert.equal(await sessionRow.getAttribute('aria-expanded'), 'true');
    assert.equal(await sessionRow.getAttribute('aria-selected'), 'true');
    const repo = treeRows(page).filter({ hasText: 'example/repo-1' });
    assert.match(await repo.innerText(), /branch main · \/workspace\/repo-1/);
    assert.equal(await repo.locator('.codicon-repo').count(), 1);
    assert.match(await treeRows(page).filter({ hasText: 'notes-2' }).innerText(), /read-only · \/mnt\/memory\/notes-2/);
    assert.equal(await treeRows(page).filter({ hasText: 'notes-2' }).locator('.codicon-database').count(), 1);

    await runCommand(page, 'Promptwright: Attach File…');
    await answerInput(page, 'ses_demo'); // which session
    await answerInput(page, 'file_report'); // file_id
    await answerInput(page, ''); // default mount path
    const added = treeRows(page).filter({ hasText: 'file_report' });
    await added.waitFor({ timeout: 15000 });
    assert.match(await added.innerText(), /\/mnt\/session\/uploads\/file_report/);
    const post = ui.fake.requests.find(r => r.method === 'POST' && r.path === '/v1/sessions/ses_demo/resources');
    assert.deepEqual(post.body, { type: 'file', file_id: 'file_report' });
    await page.screenshot({ path: path.join(ui.results, 'sessions-view.png') });
  });

  it("rate limits: asks for an Admin key, then shows the organization's limits", async () => {
    const { page } = session;
    // no key: one entry offers to connect one; its button asks which key, then the key itself
    await clearAdminKeys(page);
    await expandOnly(page, 'Administration');
    const connect = page.locator('.part.sidebar .pane-body .monaco-button', {
      hasText: 'Connect an Admin or Compliance Key',
    });
    await connect.first().click();
    await answerInput(page, 'Admin API key');
    await answerInput(page, ui.fake.adminKey);
    await expandOnly(page, 'Rate Limits');
    // this pane's rows only: the Organization and Compliance views have rows named like these
    const limits = page
      .locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Rate Limits' }) })
      .locator('.monaco-list-row[role="treeitem"]');
    await limits.filter({ hasText: 'Organization' }).first().waitFor({ timeout: 15000 });
    await limits.filter({ hasText: '4,000 requests/min' }).first().waitFor({ timeout: 15000 });
    // the list renders what fits: scroll the pane until the batch limit row is in view
    const batch = limits.filter({ hasText: '500,000 queued batch requests' });
    for (let i = 0; i < 20 && !(await batch.count()); i++) {
      await limits.first().hover();
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(100);
    }
    assert.ok((await batch.count()) >= 1);
    // in words, and nothing cut off in a side bar 300 px wide
    const sidebar = page.locator('.part.sidebar');
    const width = (await sidebar.boundingBox()).width;
    assert.ok(width <= 320, `the side bar is ${width} px wide`);
    const cut = await limits.evaluateAll(rows =>
      rows
        .flatMap(r => [...r.querySelectorAll('.label-name, .label-description')])
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => e.textContent),
    );
    assert.deepEqual(cut, [], 'labels and descriptions shown whole');
    await page.screenshot({ path: path.join(ui.results, 'rate-limits-view.png') });
    await runCommand(page, 'Promptwright: Clear Admin API Key');
  });
});
