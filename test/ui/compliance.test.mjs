// UI suite: the Compliance view, driven through the DOM: the key set through its command, the chats of a
// user listed through the view's own hint row, a chat the user soft-deleted shown as such, and a delete
// through the row's inline action and VS Code's modal dialog, which says the delete is permanent.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import {
  answerInput,
  clearAdminKeys,
  expandOnly,
  paneHeader,
  runCommand,
  treeRows,
  workbenchSession,
} from './drive.mjs';

describe('Compliance view (DOM)', function () {
  const session = workbenchSession('hello.prompt.json');

  it('lists the chats of a user, marks soft-deleted ones, and deletes one after a modal confirmation', async () => {
    const { page } = session;
    await page.locator('.part.activitybar .action-item .action-label[aria-label^="Promptwright"]').first().click();
    await clearAdminKeys(page);
    await expandOnly(page, 'Administration');
    assert.equal(await paneHeader(page, 'Compliance').count(), 0, 'hidden without a key');
    await runCommand(page, 'Promptwright: Set Compliance Key');
    await answerInput(page, 'sk-vendor-api01-full');
    await expandOnly(page, 'Compliance');

    await treeRows(page).filter({ hasText: 'Activity Feed' }).waitFor({ timeout: 15000 });
    await treeRows(page)
      .filter({ hasText: /^Organizations/ })
      .click();
    const top = ui.fake.compliance.organizations[0];
    await treeRows(page).filter({ hasText: top.name }).first().waitFor({ timeout: 15000 });
    await treeRows(page).filter({ hasText: top.name }).first().click();
    await treeRows(page).filter({ hasText: ui.fake.compliance.organizations[1].name }).waitFor({ timeout: 15000 });

    await treeRows(page)
      .filter({ hasText: /^Chats/ })
      .click();
    await treeRows(page).filter({ hasText: 'Show the chats of one or more users…' }).click();
    await answerInput(page, 'user_03');
    await answerInput(page, '');
    const query = treeRows(page).filter({ hasText: 'Chats of user_03' });
    await query.waitFor({ timeout: 15000 });
    await query.click();
    const chats = ui.fake.compliance.chats.filter(c => c.user_id === 'user_03');
    await treeRows(page).filter({ hasText: chats[0].name }).first().waitFor({ timeout: 15000 });
    const softDeleted = chats.find(c => c.deleted_at);
    assert.ok(softDeleted, 'the fake seeds a soft-deleted chat for user_03');
    await treeRows(page)
      .filter({ hasText: softDeleted.name })
      .filter({ hasText: 'deleted by its user' })
      .waitFor({ timeout: 15000 });

    // widen the side bar so descriptions show whole, then take the picture for the README
    const bar = await page.locator('.part.sidebar').boundingBox();
    if (bar) {
      const edge = { x: bar.x + bar.width + 1, y: bar.y + bar.height / 2 };
      await page.mouse.move(edge.x, edge.y);
      await page.mouse.down();
      await page.mouse.move(edge.x + 380, edge.y, { steps: 10 });
      await page.mouse.up();
      await page.waitForTimeout(300);
    }
    await page.mouse.move(5, 5);
    await page.screenshot({ path: path.join(ui.results, 'compliance-view.png') });

    const victim = chats.find(c => !c.deleted_at && !c.project_id);
    const row = treeRows(page).filter({ hasText: victim.name }).first();
    const dialog = page.locator('.monaco-dialog-box');
    // a row repainted under the pointer (its list's count arriving) can swallow the first click
    for (let attempt = 0; attempt < 3 && !(await dialog.isVisible()); attempt++) {
      await row.hover();
      await row.locator('.action-label[aria-label="Delete Chat Permanently…"]').click();
      await dialog.waitFor({ timeout: 10000 }).catch(() => {});
    }
    await dialog.waitFor({ timeout: 10000 });
    assert.match(await dialog.innerText(), /immediate and permanent/);
    await dialog.locator('.monaco-button', { hasText: 'Delete Permanently' }).click();
    await treeRows(page).filter({ hasText: victim.name }).first().waitFor({ state: 'detached', timeout: 15000 });
    // toasts are hidden under the test driver: the message is read in the notification centre
    await page.locator('[id="status.notifications"] a').first().click();
    await page
      .locator('.notifications-center .notification-list-item', {
        hasText: `Deleted the chat ${victim.id} permanently`,
      })
      .first()
      .waitFor({ timeout: 15000 });
    assert.equal(
      ui.fake.requests.filter(r => r.method === 'DELETE' && r.path === `/v1/compliance/apps/chats/${victim.id}`).length,
      1,
    );
    await page.keyboard.press('Escape');
    await runCommand(page, 'Promptwright: Clear Compliance Key');
  });
});
