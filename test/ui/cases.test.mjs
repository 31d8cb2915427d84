// UI suite: the Cases grid and the Test Explorer, driven through the DOM. A case file (3 cases × 2 models)
// opened in the editor, run from its "Run Cases" CodeLens, the grid (in the main area, full width) filling as
// the cells stream, the failing cell clicked to see its failing assertion, one cell re-run with its button (one
// request); the grid's keyboard (one tab stop, the arrows, Enter, Escape), a long failure read whole on focus,
// a reply's Markdown drawn (bold) and its markup inert; the Test Explorer listing the cases and marking them
// after a run from it, with the gutter icons on the case lines; pictures in a dark and a light theme
// (test-results/; with UPDATE_DOCS_IMAGES=1 also docs/images/cases.png and docs/images/cases-test-explorer.png).
// The fake answers "Hello! You said: <the question>" and calls get_weather for "#tool", so every verdict is
// known: "refund in French" fails its `regex: ^Bonjour` on both models, the other cells pass.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { copyFixtures, openFile, runCommand, workbenchSession } from './drive.mjs';

const SONNET = 'model-sonnet-4-6';
const HAIKU = 'model-haiku-4-5';
/** what the `equals` of "a long reason" expects: far longer than a cell is wide */
const LONG = `${'A reply that goes on and on about opening hours and refunds, '.repeat(4)}and ends here.`;
/** markup in a question: the fake says it back, and the grid must draw it as text */
const HOSTILE = '**bold** and `code` <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>';

const grid = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
const cellOf = (page, caseName, model) => grid(page).locator(`td.cell[data-case="${caseName}"][data-model="${model}"]`);
const messages = since => ui.fake.requests.slice(since).filter(r => r.method === 'POST' && r.path === '/v1/messages');
const shot = (page, name) => page.screenshot({ path: path.join(ui.results, name) });

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

/** The element that has the keyboard in the grid's frame: `case × model`, or its tag. */
async function focused(page) {
  return grid(page)
    .locator('body')
    .evaluate(() => {
      const a = document.activeElement;
      return a?.dataset?.case ? `${a.dataset.case} × ${a.dataset.model}` : a?.id || a?.tagName || '';
    });
}

/** Light to dark or back, and waits until the whole workbench wears it (`vs` is light, `vs-dark` dark). */
async function toggleTheme(page) {
  const dark = await page.locator('.monaco-workbench.vs-dark').count();
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await page.locator(dark ? '.monaco-workbench.vs' : '.monaco-workbench.vs-dark').waitFor({ timeout: 15000 });
  // the parts take the new colours a moment later on a loaded machine: the status bar's background says when
  const light = () =>
    page
      .locator('.part.statusbar')
      .evaluate(e => getComputedStyle(e).backgroundColor.match(/\d+/g).slice(0, 3).map(Number))
      .then(([r, g, b]) => r + g + b > 600);
  for (let i = 0; i < 50 && (await light()) !== !!dark; i++) await page.waitForTimeout(200);
  await page.mouse.move(640, 300);
  await page.waitForTimeout(1500);
}

describe('Cases grid and Test Explorer (DOM)', function () {
  // the README's pictures are taken at a common laptop size
  const s = workbenchSession('support.cases.yaml', {
    withApiKey: true,
    size: { width: 1280, height: 800 },
    folder: () => {
      const folder = copyFixtures(ui.freshWorkspace(), 'cases');
      // for Cancel All: six slow cases on one model: four run at once (the default concurrency), two wait
      const slow = Array.from(
        { length: 6 },
        (_, i) => `  - name: slow ${i + 1}\n    vars: { question: "#slow=600 n${i}", tone: calm }`,
      );
      fs.writeFileSync(
        path.join(folder, 'slow.cases.yaml'),
        ['request: support.prompt.yaml', `models: [${HAIKU}]`, 'cases:', ...slow, ''].join('\n'),
      );
      // a reply with Markdown and markup in it, and a failure whose reason is far longer than its cell
      fs.writeFileSync(
        path.join(folder, 'reading.cases.yaml'),
        [
          'request: support.prompt.yaml',
          `models: [${SONNET}, ${HAIKU}]`,
          'cases:',
          '  - name: markdown',
          `    vars: { question: ${JSON.stringify(HOSTILE)}, tone: calm }`,
          '    assert:',
          '      - contains: "You said"',
          '  - name: a long reason',
          '    vars: { question: "When do you open?", tone: calm }',
          '    assert:',
          `      - equals: ${JSON.stringify(LONG)}`,
          '',
        ].join('\n'),
      );
      return folder;
    },
  });

  it('a 3 × 2 grid from the CodeLens, in the main area; the failing cell says why; one cell re-runs', async () => {
    const { page } = s;
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
    // the grid has the editor area's whole width: a tab of the first group, not a half-width group beside it
    assert.equal(await page.locator('.editor-group-container').count(), 1, 'one editor group');
    const area = await page.locator('.part.editor').boundingBox();
    const frame = await page.locator('iframe.webview').last().boundingBox();
    assert.ok(frame && area && frame.width > area.width * 0.95, `the grid is ${frame?.width} of ${area?.width} px`);
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
    // nothing written into the repository: the results are in the workspace storage
    assert.equal(await g.locator('#saved').innerText(), 'Results saved to the workspace storage');
    assert.equal(fs.existsSync(path.join(s.folder, '.promptwright')), false);

    // the failing cell, clicked: its reply and each assertion, the failing one with why
    await cellOf(page, 'refund in French', SONNET).click();
    const detail = g.locator('#detail');
    await detail.locator('.detail-title', { hasText: `refund in French on ${SONNET}` }).waitFor({ timeout: 10000 });
    const failing = detail.locator('.assertion-list li.fail');
    assert.equal(await failing.count(), 1);
    assert.match(await failing.innerText(), /^regex \/\^Bonjour\/: [\s\S]*Hello! You said: Puis-je/);
    assert.equal(await detail.locator('.assertion-list li.pass').count(), 1);
    assert.equal(await detail.locator('.reply').innerText(), 'Hello! You said: Puis-je être remboursé ?');
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

    // the pictures: the failing cell selected, the pointer away; dark, then light
    await cellOf(page, 'refund in French', SONNET).click();
    // the keyboard away from the cell (a click there leaves the whole of its last line on show)
    await g.locator('#detail .facts').click();
    await page.mouse.move(5, 790);
    await page.waitForTimeout(400);
    const dark = await shot(page, 'cases.png');
    // the README's copy changes only when asked: each run's picture differs (the workspace name in the title)
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'cases.png'), dark);
    await toggleTheme(page);
    await shot(page, 'cases-light.png');
    await toggleTheme(page);
  });

  it('the keyboard: one tab stop, the arrows move it, Enter opens the detail, Escape closes it', async () => {
    const { page } = s;
    const g = grid(page);
    await g.locator('td.cell.status-passed').first().waitFor({ timeout: 10000 });
    // one tab stop among the cells, and none on the small buttons inside them
    assert.equal(await g.locator('#grid [tabindex="0"]').count(), 1);
    assert.equal(await g.locator('#grid button:not([tabindex="-1"])').count(), 0);
    await g.locator('#grid [tabindex="0"]').focus();
    await g.locator('#grid td.cell[data-case="greeting"]').first().focus();
    assert.equal(await focused(page), `greeting × ${SONNET}`);
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(page), `greeting × ${HAIKU}`);
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(page), `weather tool × ${HAIKU}`);
    await page.keyboard.press('Home');
    assert.equal(await focused(page), `weather tool × ${SONNET}`);
    await page.keyboard.press('Control+End');
    assert.equal(await focused(page), `refund in French × ${HAIKU}`);
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(page), `weather tool × ${HAIKU}`);
    assert.equal(await g.locator('#grid [tabindex="0"]').count(), 1, 'still one tab stop');
    assert.equal(await cellOf(page, 'weather tool', HAIKU).getAttribute('tabindex'), '0');

    await page.keyboard.press('Escape');
    await g.locator('#detail').waitFor({ state: 'hidden', timeout: 5000 });
    await page.keyboard.press('Enter');
    const title = g.locator('#detail .detail-title');
    await title.waitFor({ timeout: 5000 });
    assert.equal(await title.innerText(), `weather tool on ${HAIKU}`);
    // the pane follows the arrow keys while it is open, and the keyboard stays in the grid
    await page.keyboard.press('ArrowLeft');
    await g.locator('#detail .detail-title', { hasText: `weather tool on ${SONNET}` }).waitFor({ timeout: 5000 });
    assert.equal(await focused(page), `weather tool × ${SONNET}`);
    // Tab leaves the grid in one step: to the bar that resizes the pane, which the arrow keys move
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'splitter');
    const height = async () => (await g.locator('#detail').boundingBox()).height;
    const was = await height();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    assert.ok((await height()) > was + 40, `the pane grew from ${was} to ${await height()} px`);
    await page.keyboard.press('End');
    assert.ok((await height()) < was, 'End: the smallest pane');
    await page.keyboard.press('PageUp');
    await g.locator('#grid td.cell[tabindex="0"]').focus();
    await page.keyboard.press('Escape');
    await g.locator('#detail').waitFor({ state: 'hidden', timeout: 5000 });
    assert.equal(await focused(page), `weather tool × ${SONNET}`);
  });

  it('a reply’s Markdown is drawn (bold), its markup stays text; a long failure is read whole on focus', async () => {
    const { page } = s;
    await openFile(page, 'reading.cases.yaml');
    await runCommand(page, 'Promptwright: Run Cases');
    const g = grid(page);
    await g.locator('#title', { hasText: 'reading.cases.yaml' }).waitFor({ timeout: 30000 });
    await waitVerdicts(page, 2, 2);

    const md = cellOf(page, 'markdown', SONNET).locator('.cell-text');
    assert.equal(await md.locator('strong').innerText(), 'bold');
    assert.equal(await md.locator('code').innerText(), 'code');
    assert.equal(await g.locator('#grid img, #grid script, #detail img, #detail script').count(), 0, 'inert');
    assert.match(await md.innerText(), /<img src=x onerror="window\.__pwned=1"> <script>window\.__pwned=2<\/script>/);
    assert.equal(await g.locator('body').evaluate(() => window.__pwned), undefined, 'no script of the reply ran');

    // the long reason: cut off in the cell, whole in the tip while the cell has the focus
    const long = cellOf(page, 'a long reason', SONNET);
    const foot = long.locator('.cell-foot');
    const full = await foot.evaluate(e => e.textContent);
    assert.match(full, /^equals ".*and ends here\.": differs at character 1/);
    assert.ok(await foot.evaluate(e => e.scrollWidth > e.clientWidth), 'the line is cut off in the cell');
    await cellOf(page, 'markdown', SONNET).click();
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(page), `a long reason × ${SONNET}`);
    const tip = g.locator('#tip');
    await tip.waitFor({ state: 'visible', timeout: 5000 });
    assert.equal(await tip.innerText(), full);
    const box = await tip.boundingBox();
    const view = await g.locator('body').evaluate(() => [window.innerWidth, window.innerHeight]);
    assert.ok(box && box.x >= 0 && box.x + box.width <= view[0] && box.y + box.height <= view[1], 'inside the page');
    assert.equal(await long.getAttribute('aria-describedby'), 'tip');
    await page.waitForTimeout(300);
    await shot(page, 'cases-reading.png');
    // the detail pane: the reply rendered, or as the model wrote it
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    const reply = g.locator('#detail .reply');
    assert.equal(await reply.locator('strong').innerText(), 'bold');
    await g.locator('#detail button[data-action="raw"]').click();
    assert.equal(await g.locator('#detail pre.reply').innerText(), `Hello! You said: ${HOSTILE}`);
    await g.locator('#detail button[data-action="raw"]').click();
    await tip.waitFor({ state: 'hidden', timeout: 5000 });
  });

  it('the Test Explorer lists the cases with gutter icons on their lines, and a run from it marks them', async () => {
    const { page } = s;
    await openFile(page, 'support.cases.yaml');
    await runCommand(page, 'View: Show Testing');
    const view = page.locator('.part.sidebar');
    const row = label => view.locator('.monaco-list-row', { hasText: label });
    await row('support.cases.yaml').first().waitFor({ timeout: 30000 });
    // the gutter: one icon on the `cases:` line and one on each case's line
    const glyphs = page.locator('.editor-group-container.active .monaco-editor .testing-run-glyph');
    await glyphs.nth(3).waitFor({ timeout: 15000 });
    assert.equal(await glyphs.count(), 4);

    const start = ui.fake.requests.length;
    // the run's six requests first: the rows may still show the marks of the grid's run before this one (a click
    // on the row's action as the list redraws can miss: clicked again while nothing was sent)
    for (let waited = 0; messages(start).length < 6; waited += 100) {
      assert.ok(waited < 30000, `the run sent ${messages(start).length} of its 6 requests`);
      if (waited % 10000 === 0 && messages(start).length === 0) {
        await row('support.cases.yaml').first().hover();
        await row('support.cases.yaml').first().locator('.action-label[aria-label^="Run Test"]').click();
      }
      await page.waitForTimeout(100);
    }
    // the file's row marked failed; opened, each case's row: the two passing cases passed, the failing one failed
    await row('support.cases.yaml').first().locator('.codicon-testing-failed-icon').waitFor({ timeout: 30000 });
    await row('support.cases.yaml').first().locator('.monaco-tl-twistie').click();
    await row('refund in French').first().locator('.codicon-testing-failed-icon').waitFor({ timeout: 30000 });
    for (const name of ['greeting', 'weather tool'])
      await row(name).first().locator('.codicon-testing-passed-icon').waitFor({ timeout: 10000 });
    assert.equal(messages(start).length, 6);
    // expanded: the case's models, each with its verdict
    await row('refund in French').first().locator('.monaco-tl-twistie').click();
    await row(HAIKU).first().waitFor({ timeout: 10000 });
    assert.ok((await view.locator('.monaco-list-row .codicon-testing-failed-icon').count()) >= 3);
    // the failed glyph in the gutter of the failing case's line
    await page.locator('.monaco-editor .testing-run-glyph.codicon-testing-failed-icon').first().waitFor();
    await page.mouse.move(900, 790);
    await page.waitForTimeout(500);
    const dark = await shot(page, 'cases-test-explorer.png');
    if (process.env.UPDATE_DOCS_IMAGES)
      fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'cases-test-explorer.png'), dark);
    await toggleTheme(page);
    await shot(page, 'cases-test-explorer-light.png');
    await toggleTheme(page);
  });

  it('a tool-use loop cell’s detail: its model requests, then each call with its answer and source', async () => {
    const { page, folder } = s;
    // the agent's files join the workspace now: the pictures of the tests before do not list them
    copyFixtures(folder, 'agent');
    await openFile(page, 'agent.cases.yaml');
    await runCommand(page, 'Promptwright: Run Cases');
    const g = grid(page);
    await g.locator('#title', { hasText: 'agent.cases.yaml' }).waitFor({ timeout: 30000 });
    await waitVerdicts(page, 3, 1);
    await cellOf(page, 'shipped order', SONNET).click();
    const detail = g.locator('#detail');
    await detail.locator('.detail-title', { hasText: `shipped order on ${SONNET}` }).waitFor({ timeout: 10000 });
    assert.equal(await detail.locator('.trajectory h3').textContent(), 'Trajectory · 3 model requests, 2 tool calls');
    assert.equal(
      await detail.locator('.trajectory-lines').innerText(),
      [
        'turn 1: lookup_order {"order_id":"1234"} → file: {"status":"shipped"}',
        'turn 2: get_weather {"city":"Paris"} → file: Sunny, 21 C',
      ].join('\n'),
    );
    assert.match(await detail.locator('.reply').innerText(), /^Here is what I found/);
    // a case's own entry answers its call: the trajectory says where each answer came from
    await cellOf(page, 'rainy case', SONNET).click();
    await detail.locator('.trajectory-lines', { hasText: 'get_weather {"city":"Paris"} → case: Rain' }).waitFor();
    await page.mouse.move(5, 790);
    const png = await shot(page, 'cases-loop.png');
    // the README's picture of a loop cell's trajectory
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'cases-loop.png'), png);
  });

  it('Cancel All: the running cells stop with what arrived, the queued ones never start', async () => {
    const { page } = s;
    // the editor area to itself again (the Test Explorer opened the side bar and the results panel)
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Panel');
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
