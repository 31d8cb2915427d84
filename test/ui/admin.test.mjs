// UI suite: the Organization view, driven through the DOM: 48 users paged by "Load more", one role
// changed through the row's inline action and the role picker.
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

describe('Organization view (DOM)', function () {
  const session = workbenchSession('hello.prompt.json');

  it('pages 48 users with "Load more" and changes one role', async () => {
    const { page } = session;
    const users = ui.fake.admin.users;
    await page.locator('.part.activitybar .action-item .action-label[aria-label^="Promptwright"]').first().click();
    // without a key the views that need one are hidden, and one entry offers to connect a key
    await clearAdminKeys(page);
    await expandOnly(page, 'Administration');
    assert.equal(await paneHeader(page, 'Organization').count(), 0);
    await runCommand(page, 'Promptwright: Set Admin API Key');
    await answerInput(page, ui.fake.adminKey);
    await expandOnly(page, 'Organization');

    await treeRows(page).filter({ hasText: ui.fake.admin.organization.name }).waitFor({ timeout: 15000 });
    await treeRows(page)
      .filter({ hasText: /^Users$/ })
      .click();
    const more = treeRows(page).filter({ hasText: 'Load more…' });
    // the list is virtual: what is below the fold is not in the DOM until the list scrolls there
    const orgPane = page.locator('.part.sidebar .pane-body').last();
    const toEnd = async () => {
      await orgPane.hover({ position: { x: 120, y: 200 } });
      for (let i = 0; i < 12; i++) {
        await page.mouse.wheel(0, 600);
        await page.waitForTimeout(50);
      }
      await page.waitForTimeout(300);
    };
    await more.filter({ hasText: '20 loaded' }).waitFor({ timeout: 15000 });
    await treeRows(page).filter({ hasText: users[0].email }).waitFor();
    // every paged view offers Load All on its "Load more…" row (vscode/platform/pagedTree.ts)
    await more.click({ button: 'right' });
    await page.locator('.context-view .monaco-menu .action-label', { hasText: 'Load All' }).waitFor({ timeout: 10000 });
    await page.screenshot({ path: path.join(ui.results, 'organization-load-all.png') });
    await page.keyboard.press('Escape');
    await more.click();
    await toEnd();
    await more.filter({ hasText: '40 loaded' }).waitFor({ timeout: 15000 });
    await more.click();
    await toEnd();
    await treeRows(page)
      .filter({ hasText: users.at(-1).email })
      .waitFor({ timeout: 15000 });
    assert.equal(await more.count(), 0);
    const pages = ui.fake.requests.filter(r => r.path === '/v1/organizations/users');
    assert.deepEqual(
      pages.map(r => r.query.after_id === undefined),
      [true, false, false],
    );

    // change one role through the row's inline action and the picker (admin is never offered)
    await orgPane.hover({ position: { x: 120, y: 200 } });
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -600);
    await page.waitForTimeout(300);
    const target = users.find(u => u.role === 'user');
    const row = treeRows(page).filter({ hasText: target.email });
    await row.hover();
    await row.locator('.action-label[aria-label="Change Role…"]').click();
    const picker = page.locator('.quick-input-widget');
    await picker.locator('.monaco-list-row', { hasText: 'model_code_user' }).waitFor({ timeout: 10000 });
    assert.equal(await picker.locator('.monaco-list-row .label-name', { hasText: /^admin$/ }).count(), 0);
    await answerInput(page, 'billing');
    await treeRows(page)
      .filter({ hasText: `${target.email} · billing` })
      .waitFor({ timeout: 15000 });
    const post = ui.fake.requests.find(r => r.method === 'POST' && r.path === `/v1/organizations/users/${target.id}`);
    assert.deepEqual(post.body, { role: 'billing' });

    // the picture for the README: workspaces in their colours, invites with the expired ones dimmed
    await orgPane.hover({ position: { x: 120, y: 200 } });
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -600);
    await treeRows(page)
      .filter({ hasText: /^Users/ })
      .first()
      .click(); // collapse
    await treeRows(page)
      .filter({ hasText: /^Workspaces/ })
      .first()
      .click();
    const firstActive = ui.fake.admin.workspaces.find(w => !w.archived_at);
    await treeRows(page).filter({ hasText: firstActive.name }).first().waitFor({ timeout: 15000 });
    await treeRows(page)
      .filter({ hasText: /^Invites/ })
      .first()
      .click();
    await treeRows(page).filter({ hasText: ui.fake.admin.invites[0].email }).first().waitFor({ timeout: 15000 });
    // widen the side bar (drag its edge) so the descriptions show whole
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
    await page.screenshot({ path: path.join(ui.results, 'organization-view.png') });
    await runCommand(page, 'Promptwright: Clear Admin API Key');
  });
});
