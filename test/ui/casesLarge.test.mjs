// UI suite: the Cases grid on a case file whose dataset has 10,000 rows, driven through the DOM. "Show Cases
// Grid" with the case file in the editor opens its grid (nothing is sent); the time the webview takes to draw it,
// to its first frame, is printed and bounded; only the rows in view are in the DOM; scrolling to the end shows
// the last row; the arrow keys walk past the rows drawn (each scrolled into view as it is reached); the filter box
// narrows the rows to those whose name or vars hold what is typed, says how many, and Escape clears it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { runCommandExpect, workbenchSession } from './drive.mjs';

const ROWS = 10_000;
const HAIKU = 'model-haiku-4-5';
/** the webview's drawing of 10,000 rows, to its first frame: well under a second alone, bounded for a loaded machine */
const FIRST_PAINT_MS = 3000;

const grid = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
/** a dataset row's case is named after its data line: the header is line 1 */
const rowName = i => `row ${i + 2}`;

/** The element that has the keyboard in the grid's frame: `case × model`, or its tag. */
const focused = page =>
  grid(page)
    .locator('body')
    .evaluate(() => {
      const a = document.activeElement;
      return a?.dataset?.case ? `${a.dataset.case} × ${a.dataset.model}` : a?.id || a?.tagName || '';
    });

describe('Cases grid of a 10,000-row dataset (DOM)', function () {
  const s = workbenchSession('words.cases.yaml', {
    size: { width: 1280, height: 800 },
    folder: () => {
      const folder = ui.freshWorkspace();
      fs.writeFileSync(
        path.join(folder, 'say.prompt.yaml'),
        `model: ${HAIKU}\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "Say {{word}} in a {{tone}} tone"\n`,
      );
      const lines = ['word,tone'];
      for (let i = 0; i < ROWS; i++) lines.push(`word${i},${i % 2 ? 'calm' : 'warm'}`);
      fs.writeFileSync(path.join(folder, 'words.csv'), `${lines.join('\n')}\n`);
      fs.writeFileSync(path.join(folder, 'words.cases.yaml'), 'request: say.prompt.yaml\ndataset: words.csv\n');
      return folder;
    },
  });

  it('opens fast, draws only the rows in view, scrolls to the end, the arrows walk past the drawn rows', async () => {
    const { page } = s;
    const g = grid(page);
    const t0 = Date.now();
    await runCommandExpect(page, 'Promptwright: Show Cases Grid', g.locator('td.cell'), 60000);
    const shown = Date.now() - t0;
    const drawn = await g
      .locator('body')
      .evaluate(() => performance.getEntriesByName('cases-grid-drawn').map(e => e.duration));
    assert.ok(drawn.length >= 1, 'the grid was drawn');
    const paint = Math.round(drawn[drawn.length - 1]);
    const rows = ROWS.toLocaleString('en-US');
    console.log(`      first paint of ${rows} rows: ${paint} ms in the webview; ${shown} ms from the command`);
    assert.ok(paint < FIRST_PAINT_MS, `first paint ${paint} ms`);
    assert.equal(await g.locator('#grid').getAttribute('aria-rowcount'), String(ROWS + 1));
    const rowsInDom = () => g.locator('tbody tr:not(.gap)').count();
    assert.ok((await rowsInDom()) < 100, `${await rowsInDom()} rows in the DOM`);
    assert.equal(await g.locator('tbody th.case .case-name').first().innerText(), rowName(0));
    // nothing was sent: the grid shows what was saved (nothing yet)
    assert.equal(await g.locator('td.cell.status-queued').count(), await g.locator('td.cell').count());

    // scrolled to the end: the last row is drawn, the first ones are not
    await g.locator('#scroller').evaluate(e => (e.scrollTop = e.scrollHeight));
    const last = g.locator('tbody th.case .case-name', { hasText: new RegExp(`^${rowName(ROWS - 1)}$`) });
    await last.waitFor({ timeout: 10000 });
    assert.ok(await last.isVisible(), 'the last row is in view');
    assert.equal(await g.locator('tbody th.case .case-name', { hasText: /^row 2$/ }).count(), 0);
    assert.ok((await rowsInDom()) < 100, `${await rowsInDom()} rows in the DOM at the end`);

    // back at the top, the keyboard: down the rows, past those drawn when it started
    await g.locator('#scroller').evaluate(e => (e.scrollTop = 0));
    await g.locator(`td.cell[data-case="${rowName(0)}"]`).waitFor({ timeout: 10000 });
    await g.locator(`td.cell[data-case="${rowName(0)}"]`).click();
    await page.keyboard.press('Escape'); // the click opened the detail: the keyboard stays on the cell
    const before = await g.locator('tbody tr:not(.gap)').count();
    const steps = before + 20;
    for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(300);
    assert.equal(await focused(page), `${rowName(steps)} × ${HAIKU}`);
    assert.ok(await g.locator(`td.cell[data-case="${rowName(steps)}"]`).isVisible(), 'the focused row is in view');
    assert.equal(await g.locator('td.cell[tabindex="0"]').count(), 1, 'one tab stop');
    // Ctrl+End: the last cell of the grid, drawn and focused; Ctrl+Home back to the first
    await page.keyboard.press('Control+End');
    await page.waitForTimeout(300);
    assert.equal(await focused(page), `${rowName(ROWS - 1)} × ${HAIKU}`);
    await page.keyboard.press('Control+Home');
    await page.waitForTimeout(300);
    assert.equal(await focused(page), `${rowName(0)} × ${HAIKU}`);
    assert.ok((await rowsInDom()) < 100, `${await rowsInDom()} rows in the DOM after the walk`);
  });

  it('the filter box: rows whose name or vars hold the text (any case), "n of N rows", Escape clears it', async () => {
    const { page } = s;
    const g = grid(page);
    const box = g.getByRole('searchbox', { name: 'Filter rows' });
    const count = g.locator('#filter-count');
    const names = () => g.locator('tbody th.case .case-name').allInnerTexts();
    assert.equal(await count.innerText(), '10,000 rows');
    // a var's value: word123 and word1230 to word1239
    await box.fill('WORD123');
    await g.locator('#filter-count', { hasText: '11 of 10,000 rows' }).waitFor({ timeout: 5000 });
    assert.deepEqual(await names(), [123, ...Array.from({ length: 10 }, (_, i) => 1230 + i)].map(rowName));
    // the README's picture (with UPDATE_DOCS_IMAGES=1 also docs/images/dataset-grid.png)
    const png = await page.screenshot({ path: path.join(ui.results, 'dataset-grid.png') });
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'dataset-grid.png'), png);
    // a case's name
    await box.fill('row 9999');
    await g.locator('#filter-count', { hasText: '1 of 10,000 rows' }).waitFor({ timeout: 5000 });
    assert.deepEqual(await names(), ['row 9999']);
    // half the rows: still drawn as they come into view
    await box.fill('tone=calm');
    await g.locator('#filter-count', { hasText: '5,000 of 10,000 rows' }).waitFor({ timeout: 5000 });
    assert.equal((await names())[0], rowName(1));
    assert.ok((await g.locator('tbody tr:not(.gap)').count()) < 100);
    await box.press('Escape');
    await g.locator('#filter-count', { hasText: /^10,000 rows$/ }).waitFor({ timeout: 5000 });
    assert.equal(await box.inputValue(), '');
    assert.equal((await names())[0], rowName(0));
  });
});
