// UI suite: the API key is entered in a password box and never shown.
import assert from 'node:assert/strict';
import { ui } from './context.mjs';
import { runCommand, workbenchSession } from './drive.mjs';

describe('API key (DOM)', function () {
  const session = workbenchSession('hello.prompt.json');

  it('"Set API Key" asks in a password box and confirms without showing the key', async () => {
    const { page } = session;
    await runCommand(page, 'Promptwright: Set API Key');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.locator('.quick-input-widget', { hasText: 'Stored in VS Code' }).waitFor({ timeout: 10000 });
    assert.equal(await input.getAttribute('type'), 'password');
    await input.fill(ui.fake.apiKey);
    await page.keyboard.press('Enter');
    await page.locator('[id="status.notifications"] a, .notifications-toasts').first().waitFor({ timeout: 10000 });
    await page
      .locator('[id="status.notifications"] a')
      .first()
      .click()
      .catch(() => {});
    const note = page.locator('.notification-list-item', { hasText: 'API key saved in secret storage' });
    await note.first().waitFor({ timeout: 10000 });
    const html = await page.content();
    assert.equal(html.includes(ui.fake.apiKey), false, 'the key is nowhere in the workbench DOM');
  });
});
