// UI suite: the workbench with Promptwright loaded from source, driven through the DOM.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { runCommandExpect, workbenchSession } from './drive.mjs';

describe('workbench (DOM)', function () {
  const session = workbenchSession('hello.prompt.json');

  it('runs "Promptwright: Show Log" from the command palette and shows the log channel', async () => {
    const { page } = session;
    const line = page.locator('.part.panel .view-lines', { hasText: 'Promptwright 0.' });
    await runCommandExpect(page, 'Promptwright: Show Log', line);
    assert.match((await line.first().innerText()).replace(/\u00a0/g, ' '), /Promptwright \d+\.\d+\.\d+ activated/);
    await page.screenshot({ path: path.join(ui.results, 'workbench.png') });
  });
});
