// UI suite: case files as Message Batches, driven through the DOM. The Test Explorer's "Run as Batch (half
// price)" profile (a test's "Execute Using Profile…"); the grid's "Run All as Batch", its cells "queued in batch"
// until the batch ends, then filled; the Batches view in the side bar (the picture in the README) and a window
// reloaded while a batch is pending: the view polls it again, says when it ends, and the grid fills; Cancel after
// a modal confirmation. The fake answers "Hello! You said: <the question>", so every verdict is known: "refund
// in French" fails its `regex: ^Bonjour` on both models, the other four cells pass.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { copyFixtures, expandOnly, runCommand, workbenchSession } from './drive.mjs';

const grid = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
const creates = since =>
  ui.fake.requests.slice(since).filter(r => r.method === 'POST' && r.path === '/v1/messages/batches');
const messages = since => ui.fake.requests.slice(since).filter(r => r.method === 'POST' && r.path === '/v1/messages');

/** Polls `condition` (a page's state, the fake's log) until it holds; fails saying `what` after `timeout` ms. */
async function until(page, condition, what, timeout = 60000) {
  const end = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(100);
  }
}

/** The grid's total cost, as its summary line says it ("6 of 6 · 4 passed · $0.0123"). */
async function summaryCost(page) {
  const text = await grid(page).locator('#summary').innerText();
  const usd = /\$(\d[\d.e-]*)/.exec(text);
  assert.ok(usd, `a cost in the grid's summary: ${text}`);
  return Number(usd[1]);
}

/** Waits until the grid shows `passed` passed and `failed` failed cells. */
async function waitVerdicts(page, passed, failed, timeout = 60000) {
  const g = grid(page);
  let got = [];
  const settled = async () => {
    got = [await g.locator('td.cell.status-passed').count(), await g.locator('td.cell.status-failed').count()];
    return got[0] === passed && got[1] === failed && !(await g.locator('#summary').innerText()).startsWith('Running');
  };
  await until(page, settled, `${passed} passed and ${failed} failed cells (found ${got.join(' and ')})`, timeout);
}

/** The Batches view's rows (its pane only). */
const batchRows = page =>
  page
    .locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Batches' }) })
    .locator('.monaco-list-row[role="treeitem"]');

/** Clicks "Run All as Batch" once the grid lets it (a run in progress, a collect included, disables it). */
async function runAllAsBatch(page) {
  const button = grid(page).locator('#run-batch');
  await button.waitFor({ timeout: 30000 });
  await until(page, () => button.isEnabled(), 'Run All as Batch enabled', 30000);
  await button.click();
}

/**
 * The Promptwright side bar with the Batches view expanded. Its icon toggles the side bar, so it is clicked only when
 * the view has not shown within a while: after a reload the workbench restores the side bar itself, late on a slow
 * machine, and a click then would close it.
 */
async function showBatches(page) {
  const header = page.locator('.part.sidebar .pane-header', { hasText: 'Batches' }).first();
  const shown = await header.waitFor({ timeout: 5000 }).then(
    () => true,
    () => false,
  );
  if (!shown)
    await page.locator('.part.activitybar .action-item .action-label[aria-label^="Promptwright"]').first().click();
  await expandOnly(page, 'Batches');
}

describe('Message Batches: the batch profile, the grid, the Batches view (DOM)', function () {
  const s = workbenchSession('support.cases.yaml', {
    withApiKey: true,
    size: { width: 1280, height: 800 },
    folder: () => copyFixtures(ui.freshWorkspace(), 'cases'),
    // a direct run first: the grid each test opens (Show Cases Grid) is there, whichever test runs alone
    ready: async s => {
      await runCommand(s.page, 'Promptwright: Run Cases');
      await waitVerdicts(s.page, 4, 2);
      s.directCost = await summaryCost(s.page);
      assert.ok(s.directCost > 0, 'the direct run has a price');
    },
    eachAfter: () => {
      ui.fake.batches.processingMs = 300;
    },
  });

  it('the Test Explorer runs the case file as a batch through "Run as Batch (half price)"', async () => {
    const { page } = s;
    ui.fake.batches.processingMs = 3000;
    await runCommand(page, 'View: Show Testing');
    const row = page.locator('.part.sidebar .monaco-list-row', { hasText: 'support.cases.yaml' }).first();
    await row.waitFor({ timeout: 30000 });
    const start = ui.fake.requests.length;
    const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Run as Batch (half price)' });
    // the context menu's item: a menu still opening can let the first click through to nothing
    for (let attempt = 0; attempt < 4 && !(await pick.first().isVisible()); attempt++) {
      await row.click({ button: 'right' });
      const item = page.getByRole('menuitem', { name: /Execute Using Profile/ }).first();
      await item.waitFor({ timeout: 5000 });
      await item.hover();
      await page
        .locator('.action-item.focused', { hasText: 'Execute Using Profile' })
        .first()
        .waitFor({ timeout: 5000 })
        .catch(() => {});
      await page.keyboard.press('Enter');
      await pick
        .first()
        .waitFor({ timeout: 3000 })
        .catch(() => page.keyboard.press('Escape'));
    }
    await pick.first().waitFor({ timeout: 10000 });
    await pick.first().click();
    // one batch, no request of its own for any cell; then the file's row says it failed (one case fails)
    await until(page, () => creates(start).length > 0, 'the batch created', 30000);
    assert.equal(creates(start).length, 1);
    // the results read once the batch has ended, then the run's end in the Testing view: its Cancel goes
    const results = () => ui.fake.requests.slice(start).some(r => r.path.endsWith('/results') && r.status === 200);
    await until(page, results, 'the results read');
    await row.locator('.codicon-testing-failed-icon').waitFor({ timeout: 60000 });
    assert.equal(messages(start).length, 0);
    assert.equal(creates(start)[0].body.requests.length, 6);
  });

  it('Run All as Batch: the cells say "queued in batch", then fill; the Batches view shows it', async () => {
    const { page } = s;
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Panel');
    ui.fake.batches.processingMs = 4000;
    await runCommand(page, 'Promptwright: Show Cases Grid');
    const g = grid(page);
    const start = ui.fake.requests.length;
    await runAllAsBatch(page);
    await g.locator('td.cell .badge', { hasText: 'queued in batch' }).nth(5).waitFor({ timeout: 30000 });
    await page.screenshot({ path: path.join(ui.results, 'batches-queued.png') });
    await waitVerdicts(page, 4, 2);
    assert.equal(creates(start).length, 1);
    assert.equal(messages(start).length, 0);
    // the same cells as the direct run, at half its price (the summaries round to 4 decimals: within 0.00008)
    const cost = await summaryCost(page);
    assert.ok(Math.abs(cost - s.directCost / 2) <= 0.00008, `batch ${cost} against direct ${s.directCost}`);

    // the view's newest row is this batch (its id in the row's tooltip), ended with all six succeeded
    const id = ui.fake.batches.all.at(-1).id;
    await showBatches(page);
    const first = batchRows(page).first();
    await until(page, async () => /ended · 6 succeeded/.test(await first.innerText()), 'the row ended', 30000);
    assert.match(await first.innerText(), /support\.cases\.yaml.*ended · 6 succeeded · \d+ (s|min) ago/s);
    await first.hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: id }).first().waitFor({ timeout: 15000 });
  });

  it('a reload while a batch is pending: the view polls again, says when it ends, the grid fills', async function () {
    // the view's polls back off from 5 s to 60 s: the end is seen within one wait, longer the later it comes
    this.timeout(240000);
    const { page } = s;
    // pending until the test ends it (ui.fake.batches.finish), however slow the machine
    ui.fake.batches.processingMs = 3_600_000;
    await runCommand(page, 'Promptwright: Show Cases Grid');
    const g = grid(page);
    await runAllAsBatch(page);
    await g.locator('td.cell .badge', { hasText: 'queued in batch' }).nth(5).waitFor({ timeout: 30000 });
    const id = ui.fake.batches.all.at(-1).id;
    await page.reload();
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 90000 });
    await showBatches(page);
    const pending = batchRows(page).filter({ hasText: 'in_progress' }).first();
    await pending.waitFor({ timeout: 60000 });
    assert.match(await pending.innerText(), /support\.cases\.yaml.*in_progress · 6 processing .* expires in 2[34] h/s);
    // widen the side bar so descriptions show whole (the empty secondary side bar closed), then the README's picture
    await runCommand(page, 'View: Hide Secondary Side Bar');
    await page.locator('.part.auxiliarybar').waitFor({ state: 'hidden', timeout: 10000 });
    const bar = await page.locator('.part.sidebar').boundingBox();
    const wide = async () => ((await page.locator('.part.sidebar').boundingBox())?.width ?? 0) > bar.width + 300;
    for (let attempt = 0; attempt < 3 && !(await wide()); attempt++) {
      // the sash on the side bar's right edge (the workbench's own, not an editor's)
      const sashes = await page
        .locator('.monaco-sash.vertical')
        .evaluateAll(all =>
          all.map(e => e.getBoundingClientRect()).map(r => ({ x: r.x + r.width / 2, top: r.y, height: r.height })),
        );
      const edge = sashes.find(r => Math.abs(r.x - (bar.x + bar.width)) < 6 && r.height > bar.height / 2);
      if (!edge) break;
      const y = edge.top + edge.height / 2;
      await page.mouse.move(edge.x, y);
      await page.mouse.down();
      await page.mouse.move(edge.x + 360, y, { steps: 10 });
      await page.mouse.up();
    }
    await pending.hover();
    await pending.locator('.action-label[aria-label="Cancel Batch…"]').waitFor({ timeout: 10000 });
    const picture = await page.screenshot({ path: path.join(ui.results, 'batches.png') });
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'batches.png'), picture);
    // it ends: the notification says so, and the grid (collected by the view) shows the verdicts
    ui.fake.batches.finish(id);
    await page.locator('[id="status.notifications"] a').first().click();
    await page
      .locator('.notifications-center .notification-list-item', { hasText: 'Batch of support.cases.yaml ended' })
      .first()
      .waitFor({ timeout: 120000 });
    await page.keyboard.press('Escape');
    await batchRows(page).filter({ hasText: 'ended' }).first().waitFor({ timeout: 30000 });
    await runCommand(page, 'Promptwright: Show Cases Grid');
    await waitVerdicts(page, 4, 2);
    assert.equal(ui.fake.requests.filter(r => r.path === `/v1/messages/batches/${id}/results`).length >= 1, true);
  });

  it('Cancel in the Batches view asks first (a modal), then the batch ends with its cells cancelled', async () => {
    const { page } = s;
    ui.fake.batches.processingMs = 120000;
    await runCommand(page, 'Promptwright: Show Cases Grid');
    const g = grid(page);
    await runAllAsBatch(page);
    await g.locator('td.cell .badge', { hasText: 'queued in batch' }).nth(5).waitFor({ timeout: 30000 });
    const id = ui.fake.batches.all.at(-1).id;
    await showBatches(page);
    const row = batchRows(page).filter({ hasText: 'in_progress' }).first();
    await row.waitFor({ timeout: 30000 });
    const dialog = page.locator('.monaco-dialog-box');
    for (let attempt = 0; attempt < 3 && !(await dialog.isVisible()); attempt++) {
      await row.hover();
      await row.locator('.action-label[aria-label="Cancel Batch…"]').click();
      await dialog.waitFor({ timeout: 10000 }).catch(() => {});
    }
    assert.match(await dialog.innerText(), new RegExp(`Cancel batch ${id} of support\\.cases\\.yaml\\?`));
    // an earlier batch's row may say the same: the rows saying it are counted before and after
    const cancelled = batchRows(page).filter({ hasText: /ended · 6 canceled/ });
    const before = await cancelled.count();
    await dialog.locator('.monaco-button', { hasText: 'Cancel Batch' }).click();
    const cancels = () => ui.fake.requests.filter(r => r.path === `/v1/messages/batches/${id}/cancel`);
    const rows = async () => (await batchRows(page).allInnerTexts()).join(' | ');
    await until(
      page,
      async () => cancels().length > 0 && (await cancelled.count()) > before,
      'the row cancelled',
      30000,
    ).catch(async e => {
      throw new Error(`${e.message}: ${cancels().length} cancel requests; rows: ${await rows()}`);
    });
    assert.equal(cancels().length, 1);
    await g.locator('td.cell.status-cancelled').nth(5).waitFor({ timeout: 30000 });
  });
});
