// UI suite: what activation costs. VS Code activates Promptwright early (it opens JSON models of its own at
// startup, and Promptwright activates on JSON and YAML), so activation loads only a small bundle; the
// validator loads when a request file is first opened, and not before; the rest (panels, views, cases)
// when first used. Seen in the Promptwright log, in a workspace that holds a request file nobody opened yet.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ui } from './context.mjs';
import { editorText, openFile, runCommand, runCommandExpect, workbenchSession } from './drive.mjs';

describe('activation (DOM)', function () {
  // a folder with no request file open: nothing of Promptwright's loads until one is
  const session = workbenchSession(undefined, {
    folder: () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'promptwright-activation-'));
      fs.writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nNothing for Promptwright here.\n');
      const body = { model: 'model-opus-4-7', max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] };
      fs.writeFileSync(path.join(folder, 'later.prompt.json'), `${JSON.stringify(body, null, 2)}\n`);
      return folder;
    },
  });

  /** The Promptwright log as the Output panel shows it. */
  async function logText(page) {
    const lines = page.locator('.part.panel .view-lines');
    // the suite's first command: a workbench still settling may drop it (then it runs once more), and on a
    // fresh machine the extension host may take long to start
    await runCommandExpect(page, 'Promptwright: Show Log', lines.filter({ hasText: 'activated' }), 60000);
    await page.waitForTimeout(300);
    // one line: the panel wraps a long one where its width ends
    return (await lines.first().innerText()).replace(/[\s\u00a0]+/g, ' ');
  }

  it('loads the validator when a request file is opened, and not before; the features on first use', async () => {
    const { page } = session;
    await openFile(page, 'notes.md');
    const before = await logText(page);
    assert.match(before, /Promptwright \d+\.\d+\.\d+ activated/);
    assert.doesNotMatch(before, /the core bundle loaded/);
    assert.doesNotMatch(before, /the features bundle loaded/);

    await openFile(page, 'later.prompt.json');
    assert.match(await editorText(page), /"model"/);
    let after = '';
    for (let i = 0; i < 20 && !/the core bundle loaded/.test(after); i++) after = await logText(page);
    // dist/core.js.br in the production build (the .vsix), dist/core.js in the development one
    assert.match(after, /the core bundle loaded \(dist\/core\.js(\.br)?\) in \d+ ms/);
    assert.doesNotMatch(after, /the features bundle loaded/);

    await runCommand(page, 'Promptwright: Show Cases Grid');
    for (let i = 0; i < 20 && !/the features started/.test(after); i++) after = await logText(page);
    assert.match(after, /the features bundle loaded \(dist\/features\.js(\.br)?\) in \d+ ms/);
    assert.match(after, /the features started in \d+ ms/);
    await page.screenshot({ path: path.join(ui.results, 'activation.png') });
  });
});
