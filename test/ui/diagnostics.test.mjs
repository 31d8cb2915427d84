// UI suite: what an author sees for a defective request file (squiggles, Problems panel).
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { runCommand, workbenchSession } from './drive.mjs';

describe('diagnostics (DOM)', function () {
  const session = workbenchSession('defective.prompt.json');

  it('shows the problems in the Problems panel with their spec codes', async () => {
    const { page } = session;
    await page.locator('.editor-group-container.active .squiggly-error').first().waitFor({ timeout: 20000 });
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const rows = page.locator('.markers-panel .monaco-list-row');
    await rows.filter({ hasText: 'image/bmp' }).first().waitFor({ timeout: 20000 });
    const text = (await page.locator('.markers-panel').innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /does not allow temperature and top_p together/);
    assert.match(text, /doc1§2\.2-r5/);
    assert.match(text, /"image\/jpeg", "image\/png", "image\/gif", "image\/webp"/);
    await page.screenshot({ path: path.join(ui.results, 'diagnostics.png') });
  });
});
