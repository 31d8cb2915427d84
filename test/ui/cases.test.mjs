// UI suite: the Cases grid, driven through the DOM. A case file (3 cases × 2 models) opened in the editor,
// run from its "Run Cases" CodeLens, the grid filling as the cells stream, the failing cell clicked to see its
// failing assertion, one cell re-run with its button (one request), the status bar summary, and the picture
// for the README (test-results/cases.png; with UPDATE_DOCS_IMAGES=1 also docs/images/cases.png). The fake
// answers "Hello! You said: <the question>" and calls get_weather for "#tool", so every verdict is known:
// "refund in French" fails its `regex: ^Bonjour` on both models, the other cells pass.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { openFile, openWorkbench, runCommand, screenshotOnFailure, setApiKey } from './drive.mjs';

const SONNET = 'model-sonnet-4-6';
const HAIKU = 'model-haiku-4-5';

const grid = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
const cellOf = (page, caseName, model) => grid(page).locator(`td.cell[data-case="${caseName}"][data-model="${model}"]`);
const messages = since => ui.fake.requests.slice(since).filter(r => r.method === 'POST' && r.path === '/v1/messages');

/** Waits until the grid shows `passed` passed and `failed` failed cells. */
async function waitVerdicts(page, passed, failed, timeout = 30000) {
  const g = grid(page);
  const end = Date.now() + timeout;
  let got = [];
  while (Date.now() < end) {
    got = [await g.locator('td.cell.status-passed').count(), await g.locator('td.cell.status-failed').count()];
    if (got[0] === passed && got[1] === failed) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`expected ${passed} passed and ${failed} failed cells, found ${got.join(' and ')}`);
}

describe('Cases grid (DOM)', function () {
  const s = {};
  before(async function () {
    const folder = ui.freshWorkspace();
    const fixtures = path.join(ui.root, 'test', 'fixtures', 'cases');
    for (const f of fs.readdirSync(fixtures)) fs.copyFileSync(path.join(fixtures, f), path.join(folder, f));
    // for Cancel All: six slow cases on one model: four run at once (the default concurrency), two wait
    const slow = Array.from(
      { length: 6 },
      (_, i) => `  - name: slow ${i + 1}\n    vars: { question: "#slow=300 n${i}", tone: calm }`,
    );
    fs.writeFileSync(
      path.join(folder, 'slow.cases.yaml'),
      ['request: support.prompt.yaml', `models: [${HAIKU}]`, 'cases:', ...slow, ''].join('\n'),
    );
    // the README's picture is taken at a common laptop size
    Object.assign(s, await openWorkbench(folder, 'support.cases.yaml', { width: 1280, height: 800 }));
    await setApiKey(s.page, ui.fake.apiKey);
  });
  afterEach(async function () {
    await screenshotOnFailure(this, s.page);
  });
  after(async () => {
    await s.close?.();
  });

  it('runs a 3 × 2 grid from the CodeLens; the failing cell shows its assertion; one cell re-runs', async () => {
    const { page } = s;
    // the editor area to itself: the case file on the left, the grid beside it
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Secondary Side Bar');
    const start = ui.fake.requests.length;

    const lens = page.locator('.editor-group-container .monaco-editor .codelens-decoration a', {
      hasText: 'Run Cases (3 cases × 2 models)',
    });
    await lens.first().waitFor({ timeout: 60000 });
    await lens.first().click();
    const g = grid(page);
    await g.locator('td.cell').first().waitFor({ timeout: 30000 });
    assert.deepEqual(await g.locator('thead th.model').allInnerTexts(), [SONNET, HAIKU]);
    assert.deepEqual(await g.locator('tbody th.case .case-name').allInnerTexts(), [
      'greeting',
      'weather tool',
      'refund in French',
    ]);
    await waitVerdicts(page, 4, 2);
    assert.equal(messages(start).length, 6);
    await g.locator('#summary', { hasText: '6/6 · 2 failed · 4 passed' }).waitFor({ timeout: 10000 });
    assert.match(await cellOf(page, 'greeting', HAIKU).locator('.cell-text').innerText(), /open on Sunday/);
    for (const model of [SONNET, HAIKU])
      assert.match(await cellOf(page, 'refund in French', model).locator('.cell-foot').innerText(), /^regex/);
    const status = page.locator('[id="promptwright.promptwright.promptwright.cases"]');
    assert.match(await status.innerText(), /Cases: 6\/6 · 2 failed/);
    assert.match(await g.locator('#saved').innerText(), /Saved to \.promptwright\/results\/support\.cases\.yaml\.json/);

    // the failing cell, clicked: its reply and each assertion, the failing one with why
    await cellOf(page, 'refund in French', SONNET).click();
    const detail = g.locator('#detail');
    await detail.locator('.detail-title', { hasText: `refund in French on ${SONNET}` }).waitFor({ timeout: 10000 });
    const failing = detail.locator('.assertion-list li.fail');
    assert.equal(await failing.count(), 1);
    assert.match(await failing.innerText(), /^regex \/\^Bonjour\/: [\s\S]*Hello! You said: Puis-je/);
    assert.equal(await detail.locator('.assertion-list li.pass').count(), 1);
    assert.equal(await detail.locator('pre.reply').innerText(), 'Hello! You said: Puis-je être remboursé ?');
    assert.match(await detail.locator('.facts').innerText(), /request-id:?\s*req_fake_/);

    // one cell again, with its own button: one request, the same verdict, compared with the saved run
    const before = ui.fake.requests.length;
    const target = cellOf(page, 'refund in French', HAIKU);
    await target.hover();
    await target.locator('button[data-rerun="cell"]').click();
    for (let i = 0; i < 100 && messages(before).length < 1; i++) await page.waitForTimeout(100);
    await g.locator('body:not(.running)').waitFor({ timeout: 10000 });
    await page.waitForTimeout(500); // nothing more is sent
    const again = messages(before);
    assert.equal(again.length, 1, 'one request for one cell');
    assert.equal(again[0].body.model, HAIKU);
    await waitVerdicts(page, 4, 2);
    assert.equal(await g.locator('#grid .change-new').count(), 5, 'the other cells are still new');
    assert.equal(await target.locator('.change').count(), 0, 'the same verdict as the saved run: no mark');

    // the picture: the grid wider than the case file beside it, the failing cell selected, the pointer away
    const left = await page.locator('.editor-group-container').first().boundingBox();
    if (left) {
      // the sash between the two editor groups, dragged to the left
      await page.mouse.move(left.x + left.width, left.y + 300);
      await page.mouse.down();
      await page.mouse.move(left.x + left.width - 160, left.y + 300, { steps: 8 });
      await page.mouse.up();
    }
    await cellOf(page, 'refund in French', SONNET).click();
    await page.mouse.move(5, 790);
    await page.waitForTimeout(400);
    const shot = await page.screenshot({ path: path.join(ui.results, 'cases.png') });
    // the README's copy changes only when asked: each run's picture differs (the workspace name in the title)
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'cases.png'), shot);
  });

  it('Cancel All: the running cells stop with what arrived, the queued ones never start', async () => {
    const { page } = s;
    await openFile(page, 'slow.cases.yaml');
    const before = ui.fake.requests.length;
    await runCommand(page, 'Promptwright: Run Cases');
    const g = grid(page);
    await g.locator('#title', { hasText: 'slow.cases.yaml' }).waitFor({ timeout: 30000 });
    await g.locator('td.cell.status-running').nth(3).waitFor({ timeout: 30000 });
    assert.equal(await g.locator('td.cell.status-queued').count(), 2);
    // some text has arrived in a running cell before the cancel
    await g.locator('td.cell.status-running .cell-text', { hasText: 'Hello' }).first().waitFor({ timeout: 10000 });
    await g.locator('#cancel-all').click();
    await g.locator('body:not(.running)').waitFor({ timeout: 10000 });
    assert.equal(await g.locator('td.cell.status-cancelled').count(), 6);
    assert.ok((await g.locator('td.cell.status-cancelled .cell-text', { hasText: 'Hello' }).count()) >= 1);
    assert.ok(await g.locator('#cancel-all').isDisabled());
    await page.waitForTimeout(700); // nothing more is sent
    assert.equal(messages(before).length, 4, 'the two queued cells were never sent');
    assert.match(await page.locator('[id="promptwright.promptwright.promptwright.cases"]').innerText(), /cancel/i);
  });
});
