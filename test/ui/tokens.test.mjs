// UI suite: the token count in the status bar, read through the DOM while typing.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { runCommand, setApiKey, tokenItem, workbenchSession } from './drive.mjs';

const counts = () => ui.fake.requests.filter(r => r.path === '/v1/messages/count_tokens').length;

describe('token count in the status bar (DOM)', function () {
  const session = workbenchSession('hello.prompt.json');

  it('shows an estimate without a key, then the service count once the key is set', async () => {
    const { page } = session;
    const item = tokenItem(page);
    await runCommand(page, 'Promptwright: Clear API Key');
    await page.waitForFunction(
      () =>
        /≈ \d[\d,]* tokens/.test(
          document.querySelector('[id="promptwright.promptwright.promptwright.tokens"]')?.textContent ?? '',
        ),
      null,
      { timeout: 20000 },
    );
    const before = counts();
    await setApiKey(page, ui.fake.apiKey);
    await page.waitForFunction(
      () =>
        /^\s*\d[\d,]* tokens\s*$/.test(
          document.querySelector('[id="promptwright.promptwright.promptwright.tokens"]')?.textContent ?? '',
        ),
      null,
      { timeout: 20000 },
    );
    assert.ok(counts() > before, 'the service was asked');
    assert.match((await item.textContent()).trim(), /^\d[\d,]* tokens$/);
  });

  it('typing updates the count after a pause, with one call for the burst', async () => {
    const { page } = session;
    const item = tokenItem(page);
    const first = await item.textContent();
    const before = counts();
    await page.locator('.editor-group-container.active .view-line', { hasText: 'Hello' }).first().click();
    await page.keyboard.press('End');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft'); // inside "Hello"
    await page.keyboard.type(' there, how are you today?', { delay: 30 });
    await page.waitForFunction(
      t => {
        const s = document.querySelector('[id="promptwright.promptwright.promptwright.tokens"]')?.textContent ?? '';
        return /^\s*\d[\d,]* tokens\s*$/.test(s) && s.trim() !== t;
      },
      first.trim(),
      { timeout: 20000 },
    );
    await page.waitForTimeout(1500);
    assert.equal(counts() - before, 1, 'one count_tokens call for the whole burst');
    await page.screenshot({ path: path.join(ui.results, 'token-count.png') });
  });

  it('a click on the count shows the Token Breakdown: a CodeLens above each part, in words', async () => {
    const { page } = session;
    const item = tokenItem(page);
    await item.filter({ hasText: /^\s*\d[\d,]* tokens\s*$/ }).waitFor({ timeout: 20000 });
    await item.click();
    const lens = page.locator('.editor-group-container.active .codelens-decoration', { hasText: /tokens/ }).first();
    await lens.waitFor({ timeout: 30000 });
    // the number and the word only: an icon before the number read as "#102 tokens"
    assert.match((await lens.innerText()).trim(), /^\d[\d,]* tokens$/);
    assert.equal(await lens.locator('.codicon').count(), 0);
  });
});
