// UI suite: the Promptwright activity bar views, driven through the DOM.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { runCommand, workbenchSession } from './drive.mjs';

const rows = page => page.locator('.part.sidebar .pane-body .monaco-list-row[role="treeitem"]');

async function answer(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(text);
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

describe('session resources and rate limits views (DOM)', function () {
  const session = workbenchSession('hello.prompt.json', { withApiKey: true });

  it("shows a session's resources with icons and descriptions, and attaches a file", async () => {
    const { page } = session;
    await page.locator('.part.activitybar .action-item .action-label[aria-label^="Promptwright"]').first().click();
    await runCommand(page, 'Promptwright: Add Session…');
    await answer(page, 'ses_demo');
    const sessionRow = rows(page).filter({ hasText: 'ses_demo' });
    await sessionRow.waitFor({ timeout: 15000 });
    await sessionRow.click();
    await rows(page).filter({ hasText: 'file_0' }).waitFor({ timeout: 15000 });
    const repo = rows(page).filter({ hasText: 'example/repo-1' });
    assert.match(await repo.innerText(), /branch main · \/workspace\/repo-1/);
    assert.equal(await repo.locator('.codicon-repo').count(), 1);
    assert.match(await rows(page).filter({ hasText: 'notes-2' }).innerText(), /read-only · \/mnt\/memory\/notes-2/);
    assert.equal(await rows(page).filter({ hasText: 'notes-2' }).locator('.codicon-database').count(), 1);

    await runCommand(page, 'Promptwright: Attach File…');
    await answer(page, 'ses_demo'); // which session
    await answer(page, 'file_report'); // file_id
    await answer(page, ''); // default mount path
    const added = rows(page).filter({ hasText: 'file_report' });
    await added.waitFor({ timeout: 15000 });
    assert.match(await added.innerText(), /\/mnt\/session\/uploads\/file_report/);
    const post = ui.fake.requests.find(r => r.method === 'POST' && r.path === '/v1/sessions/ses_demo/resources');
    assert.deepEqual(post.body, { type: 'file', file_id: 'file_report' });
    await page.screenshot({ path: path.join(ui.results, 'sessions-view.png') });
  });

  it("rate limits: asks for an Admin key, then shows the organization's limits", async () => {
    const { page } = session;
    // the other panes collapsed, so this one has the room (its list renders only what fits)
    for (const other of ['Session Resources', 'Organization', 'Compliance']) {
      const h = page.locator('.part.sidebar .pane-header', { hasText: other }).first();
      if ((await h.getAttribute('aria-expanded')) === 'true') await h.click();
    }
    const header = page.locator('.part.sidebar .pane-header', { hasText: 'Rate Limits' }).first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await page.locator('.part.sidebar', { hasText: 'Rate limits need an Admin API key' }).waitFor({ timeout: 15000 });
    await runCommand(page, 'Promptwright: Set Admin API Key');
    await answer(page, ui.fake.adminKey);
    // this pane's rows only: the Organization and Compliance views have rows named like these
    const limits = page
      .locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Rate Limits' }) })
      .locator('.monaco-list-row[role="treeitem"]');
    await limits.filter({ hasText: 'Organization' }).first().waitFor({ timeout: 15000 });
    await limits.filter({ hasText: 'requests_per_minute: 4,000' }).first().waitFor({ timeout: 15000 });
    assert.ok((await limits.filter({ hasText: 'enqueued_batch_requests: 500,000' }).count()) >= 1);
    await page.screenshot({ path: path.join(ui.results, 'rate-limits-view.png') });
    await runCommand(page, 'Promptwright: Clear Admin API Key');
  });
});
