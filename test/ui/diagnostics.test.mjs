// UI suite: what an author sees for a defective request file (squiggles, Problems panel).
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { runCommand, workbenchSession } from './drive.mjs';

describe('diagnostics (DOM)', function () {
  const session = workbenchSession('showcase.prompt.json');

  it('shows errors and warnings in the Problems panel, each with its rule name', async () => {
    const { page } = session;
    await page.locator('.editor-group-container.active .squiggly-error').first().waitFor({ timeout: 20000 });
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const rows = page.locator('.markers-panel .monaco-list-row');
    await rows.filter({ hasText: 'mcp_servers' }).first().waitFor({ timeout: 20000 });
    const text = (await page.locator('.markers-panel').innerText()).replace(/\u00a0/g, ' ');
    // errors: what the service rejects
    assert.match(text, /does not allow temperature and top_p together/);
    assert.match(text, /temperature-with-top-p/);
    assert.match(text, /"image\/jpeg", "image\/png", "image\/gif", "image\/webp"/);
    assert.match(text, /Missing required field "max_tokens"/);
    // warnings, each with a way forward
    assert.match(text, /Unknown field "max_token" in the request: did you mean "max_tokens"\?/);
    assert.match(text, /"mcp_servers" needs the beta "mcp-client-2025-11-20"/);
    assert.match(text, /beta-feature/);
    // room for the messages in the picture
    await runCommand(page, 'View: Hide Secondary Side Bar').catch(() => {});
    await runCommand(page, 'View: Close Primary Side Bar').catch(() => {});
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(ui.results, 'diagnostics.png') });
  });
});
