// UI suite: the service's model list as a person meets it, through the DOM: the completion list of `model`
// with each model's name and limits, and Choose Model… from the command palette, whose choice is one edit.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { editorText, runCommand, workbenchSession } from './drive.mjs';

const modelCalls = () => ui.fake.requests.filter(r => r.path === '/v1/models').length;

describe('models from the service (DOM)', function () {
  const session = workbenchSession('hello.prompt.json', { withApiKey: true });

  it('completion of `model` lists the service’s models with their name, context window and max_tokens', async () => {
    const { page } = session;
    // the cursor just inside the model's string (after `"model": "`): every model matches
    await page.locator('.editor-group-container.active .view-line', { hasText: '"model"' }).first().click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'model-opus-4-7",'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+Space');
    const quill = page.locator('.suggest-widget .monaco-list-row', { hasText: 'model-quill-1-20261101' });
    await quill.first().waitFor({ timeout: 30000 });
    assert.match(await quill.first().textContent(), /Quill 1/);
    // the details of the focused row: its limits and capabilities
    await page.keyboard.press('Control+Space');
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(ui.results, 'models-completion.png') });
    assert.ok(modelCalls() >= 1, 'the list came from the service');
    await page.keyboard.press('Escape');
  });

  it('Choose Model… offers the list in a quick pick; the choice replaces `model`; one undo restores it', async () => {
    const { page } = session;
    const before = await editorText(page);
    await runCommand(page, 'Promptwright: Choose Model…');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'model-lyra-2-20261015' });
    await row.first().waitFor({ timeout: 20000 });
    await page.screenshot({ path: path.join(ui.results, 'models-choose.png') });
    await page.locator('.quick-input-widget .quick-input-box input').fill('model-lyra-2');
    await page.waitForTimeout(400);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        document
          .querySelector('.editor-group-container.active .view-lines')
          ?.textContent?.includes('model-lyra-2-20261015'),
      null,
      { timeout: 10000 },
    );
    assert.match(await editorText(page), /"model": "model-lyra-2-20261015"/);
    await page.keyboard.press('Control+Z');
    await page.waitForFunction(
      () =>
        document.querySelector('.editor-group-container.active .view-lines')?.textContent?.includes('model-opus-4-7'),
      null,
      { timeout: 10000 },
    );
    assert.equal(await editorText(page), before);
  });
});
