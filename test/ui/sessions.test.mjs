// UI suite: the Promptwright activity bar views, driven through the DOM.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { answerInput, expandOnly, runCommand, treeRows, workbenchSession } from './drive.mjs';

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
    await expandOnly(page, 'Rate Limits');
    await page.locator('.part.sidebar', { hasText: 'Rate limits need an Admin API key' }).waitFor({ timeout: 15000 });
    await runCommand(page, 'Promptwright: Set Admin API Key');
    await answerInput(page, ui.fake.adminKey);
    // this pane's rows only: the Organization and Compliance views have rows named like these
    const limits = page
      .locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Rate Limits' }) })
      .locator('.monaco-list-row[role="treeitem"]');
    await limits.filter({ hasText: 'Organization' }).first().waitFor({ timeout: 15000 });
    await limits.filter({ hasText: 'requests_per_minute: 4,000' }).first().waitFor({ timeout: 15000 });
    // the list renders what fits: scroll the pane until the batch limit row is in view
    const batch = limits.filter({ hasText: 'enqueued_batch_requests: 500,000' });
    for (let i = 0; i < 20 && !(await batch.count()); i++) {
      await limits.first().hover();
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(100);
    }
    assert.ok((await batch.count()) >= 1);
    await page.screenshot({ path: path.join(ui.results, 'rate-limits-view.png') });
    await runCommand(page, 'Promptwright: Clear Admin API Key');
  });
});
