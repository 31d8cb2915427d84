// UI suite: the Cases grid's compare mode, driven through the DOM. The workspace is made a git repository with
// a case file and its request committed; then the request's prefix changes (one case breaks, one is fixed), a
// case is added and one removed. "Promptwright: Compare Cases with…", HEAD picked: each cell reads its outcome
// at HEAD → in the working copy with the change word, a bar says what is compared; a cell clicked shows both
// replies and their word diff (model markup drawn as text); the keyboard reaches the cells and Leave Compare.
// Picture: test-results/cases-compare.png (dark theme, the workbench's default here).
// The fake answers "Hello! You said: <the question>", so every verdict is known.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { freshRepository, runCommand, workbenchSession } from './drive.mjs';

const SONNET = 'model-sonnet-4-6';
const HAIKU = 'model-haiku-4-5';
/** markup in a question: the fake says it back, and neither the cells nor the diff may run it */
const HOSTILE = '<img src=x onerror="window.__pwned=1"> **bold**';

const grid = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
const cellOf = (page, caseName, model) => grid(page).locator(`td.cell[data-case="${caseName}"][data-model="${model}"]`);
const messages = since => ui.fake.requests.slice(since).filter(r => r.method === 'POST' && r.path === '/v1/messages');

const request = prefix =>
  `${JSON.stringify(
    { model: HAIKU, max_tokens: 100, messages: [{ role: 'user', content: `${prefix}: {{question}}` }] },
    null,
    2,
  )}\n`;

/** A case file of cases `[name, question, the word the reply must contain]` on both models. */
const caseFile = cases =>
  [
    'request: greet.prompt.json',
    `models: [${SONNET}, ${HAIKU}]`,
    'cases:',
    ...cases.map(
      ([name, question, word]) =>
        `  - name: ${name}\n    vars: { question: ${JSON.stringify(question)} }\n` +
        `    assert:\n      - contains: ${JSON.stringify(word)}`,
    ),
    '',
  ].join('\n');

/** Picks the quick pick row whose label contains `text`: typed as a filter, Enter once that row has the focus. */
async function choose(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: text }).first();
  await input.waitFor({ state: 'visible', timeout: 15000 });
  await input.fill(text);
  await row.waitFor({ timeout: 10000 });
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

describe('Cases grid: compare mode (DOM)', function () {
  let folder;
  const s = workbenchSession('greet.cases.yaml', {
    withApiKey: true,
    size: { width: 1280, height: 800 },
    folder: async () => {
      const repo = await freshRepository();
      folder = repo.dir;
      fs.writeFileSync(path.join(folder, 'greet.prompt.json'), request('Q'));
      const kept = [
        ['keeps', 'hi', 'hi'],
        ['breaks', 'hi', 'Q:'],
        ['fixed', 'hi', 'A:'],
        ['markup', HOSTILE, 'You said'],
      ];
      fs.writeFileSync(path.join(folder, 'greet.cases.yaml'), caseFile([...kept, ['gone', 'bye', 'bye']]));
      repo.commit('cases');
      fs.writeFileSync(path.join(folder, 'greet.prompt.json'), request('A'));
      fs.writeFileSync(path.join(folder, 'greet.cases.yaml'), caseFile([...kept, ['fresh', 'new', 'new']]));
      return folder;
    },
  });

  it('each cell: its outcome at HEAD → now and the change; the detail pane: both replies and their diff', async () => {
    const { page } = s;
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Secondary Side Bar');
    const start = ui.fake.requests.length;
    await runCommand(page, 'Promptwright: Compare Cases with…');
    await choose(page, 'HEAD');

    const g = grid(page);
    await g.locator('#compare-bar', { hasText: /Comparing with HEAD \([0-9a-f]{7}\)/ }).waitFor({ timeout: 30000 });
    await g
      .locator('#compare-bar .compare-summary', { hasText: '2 broke · 2 fixed · 2 new · 2 removed · 4 same' })
      .waitFor({ timeout: 30000 });
    assert.equal(messages(start).length, 20, 'ten cells on each side');
    assert.deepEqual(await g.locator('tbody th.case .case-name').allInnerTexts(), [
      'keeps',
      'breaks',
      'fixed',
      'markup',
      'fresh',
      'gone',
    ]);

    const sides = async (caseName, model) =>
      [
        (await cellOf(page, caseName, model).locator('.sides').innerText()).replace(/\s+/g, ' ').trim(),
        await cellOf(page, caseName, model).locator('.change').innerText(),
      ].join(' · ');
    assert.equal(await sides('breaks', HAIKU), 'passed → failed · broke');
    assert.equal(await sides('fixed', SONNET), 'failed → passed · fixed');
    assert.equal(await sides('keeps', HAIKU), 'passed → passed · same');
    assert.equal(await sides('fresh', HAIKU), '— → passed · new');
    assert.equal(await sides('gone', SONNET), 'passed → — · removed');
    assert.match(
      await cellOf(page, 'breaks', HAIKU).getAttribute('aria-label'),
      /^breaks on model-haiku-4-5: at HEAD passed, now failed, broke\. Enter shows both replies and their diff\./,
    );
    // a removed cell shows its reply at HEAD
    assert.match(await cellOf(page, 'gone', SONNET).locator('.cell-text').innerText(), /You said: Q: bye/);

    // the first broken cell is selected on its own: both sides, then the word diff
    const detail = g.locator('#detail');
    await detail.locator('.sides-detail').waitFor({ timeout: 10000 });
    await cellOf(page, 'breaks', HAIKU).click();
    await detail.locator('.detail-title', { hasText: `breaks on ${HAIKU}` }).waitFor({ timeout: 10000 });
    const [before, after] = await detail.locator('.side .reply').allInnerTexts();
    assert.equal(before, 'Hello! You said: Q: hi');
    assert.equal(after, 'Hello! You said: A: hi');
    assert.match(await detail.locator('.side').first().locator('h3').innerText(), /^AT HEAD \([0-9a-f]{7}\)$/i);
    assert.deepEqual(await detail.locator('.word-diff del').allInnerTexts(), ['Q']);
    assert.deepEqual(await detail.locator('.word-diff ins').allInnerTexts(), ['A']);
    assert.equal(await detail.locator('.word-diff .diff-body').innerText(), 'Hello! You said: QA: hi');
    assert.equal(await detail.locator('.change').innerText(), 'broke');

    // markup from the model is text: in the cells, the replies and the diff
    await cellOf(page, 'markup', SONNET).click();
    await detail.locator('.detail-title', { hasText: 'markup' }).waitFor({ timeout: 10000 });
    assert.match(await detail.locator('.word-diff .diff-body').innerText(), /<img src=x onerror="window.__pwned=1">/);
    assert.equal(await g.locator('#grid img, #detail img').count(), 0);
    assert.equal(await g.locator('body').evaluate(() => window.__pwned), undefined);

    // the picture: a broken cell selected, the pointer away
    await cellOf(page, 'breaks', HAIKU).click();
    await detail.locator('.facts').first().click();
    await page.mouse.move(5, 790);
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(ui.results, 'cases-compare.png') });
  });

  it('the keyboard reads both outcomes; Leave Compare goes back to the working copy alone', async () => {
    const { page } = s;
    const g = grid(page);
    await g.locator('#compare-bar').waitFor({ timeout: 10000 });
    await cellOf(page, 'keeps', SONNET).focus();
    await page.keyboard.press('ArrowDown');
    const focused = () => g.locator('body').evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    assert.match(await focused(), /^breaks on model-sonnet-4-6: at HEAD passed, now failed, broke\./);
    await page.keyboard.press('Enter');
    await g.locator('#detail .detail-title', { hasText: `breaks on ${SONNET}` }).waitFor({ timeout: 10000 });
    const before = ui.fake.requests.length;
    await g.locator('#leave-compare').focus();
    await page.keyboard.press('Enter');
    await g.locator('#compare-bar').waitFor({ state: 'hidden', timeout: 10000 });
    assert.deepEqual(await g.locator('tbody th.case .case-name').allInnerTexts(), [
      'keeps',
      'breaks',
      'fixed',
      'markup',
      'fresh',
    ]);
    assert.equal(await g.locator('.sides').count(), 0);
    assert.equal(await cellOf(page, 'breaks', SONNET).locator('.badge').innerText(), 'failed');
    assert.equal(messages(before).length, 0, 'leaving runs nothing');
    // and the toolbar's button enters compare mode again
    await g.locator('#compare').click();
    await choose(page, 'HEAD');
    await g.locator('#compare-bar .compare-summary', { hasText: '2 broke' }).waitFor({ timeout: 30000 });
  });
});
