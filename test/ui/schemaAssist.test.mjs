// UI suite: completion and hover from the schema as an author meets them in a JSON request file: the fields the
// object lacks, each with its description, and the description of a field on hover.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { workbenchSession } from './drive.mjs';

describe('completion and hover from the schema (DOM)', function () {
  const session = workbenchSession('hello.prompt.json');

  it('offers the fields the request lacks, with their descriptions, and hovers a field', async () => {
    const { page } = session;
    // a new line after `"max_tokens": 1024,`: the top-level object's fields
    await page.locator('.editor-group-container.active .view-line', { hasText: '"max_tokens"' }).first().click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('"sys');
    await page.keyboard.press('Control+Space');
    const rows = page.locator('.suggest-widget .monaco-list-row');
    const system = rows.filter({ hasText: 'system' }).first();
    await system.waitFor({ timeout: 30000 });
    // the focused row's description, in the details pane (Ctrl+Space toggles it: the workbench remembers its state)
    const details = page.locator('.suggest-details', { hasText: 'System prompt' }).first();
    for (let i = 0; i < 3 && !(await details.isVisible()); i++) {
      await page.keyboard.press('Control+Space');
      await details.waitFor({ timeout: 3000 }).catch(() => {});
    }
    assert.ok(await details.isVisible(), 'the details pane shows the field description');
    const labels = await rows.allInnerTexts();
    assert.ok(!labels.some(l => /^model\b/.test(l)), `a field already there is not offered: ${labels.join(' | ')}`);
    await page.screenshot({ path: path.join(ui.results, 'schema-completion.png') });
    await page.keyboard.press('Enter');
    const line = page.locator('.editor-group-container.active .view-line', { hasText: '"system": ' });
    await line.first().waitFor({ timeout: 15000 });
    await page.keyboard.press('Escape');

    // hover on `max_tokens`: its description, Markdown rendered
    await page.locator('.editor-group-container.active .view-line span', { hasText: '"max_tokens"' }).first().hover();
    const hover = page.locator('.monaco-hover:visible', { hasText: 'max_tokens' }).first();
    await hover.waitFor({ timeout: 15000 });
    assert.doesNotMatch(await hover.innerText(), /\*\*/, 'Markdown rendered, not shown as asterisks');
  });
});
