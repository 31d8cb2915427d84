// UI suite: the Activity Feed panel, driven through the DOM of its webview: the Compliance key entered in
// its password box, the panel opened from the command palette, a filter applied (a date typed in part first,
// which keeps Apply disabled), three pages loaded by scrolling, a record read in the pane beside the table with
// the keyboard and opened as JSON, an error
// in the banner and its Retry, and the picture for the README (test-results/activity.png; with
// UPDATE_DOCS_IMAGES=1 also docs/images/activity.png).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { runCommand, runCommandExpect, workbenchSession } from './drive.mjs';

const COMPLIANCE_KEY = 'sk-vendor-api01-full';
const FEED = '/v1/compliance/activities';
const TYPES = ['model_chat_viewed', 'model_file_uploaded', 'org_join_proposal_decided'];
/** the date-time input's value, in local time (the browser's and this process's: the same machine) */
const CREATED_FROM = '2026-01-02T00:00:00';

const feed = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
const rows = page => feed(page).locator('#rows tr');

async function rowCount(page) {
  return rows(page).count();
}

/** Waits until the table holds exactly `n` rows and the status line has caught up. */
async function waitRows(page, n, timeout = 20000) {
  const end = Date.now() + timeout;
  let got = -1;
  while (Date.now() < end) {
    got = await rowCount(page);
    if (got === n) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`expected ${n} rows in the Activity Feed, found ${got}`);
}

describe('Activity Feed (DOM)', function () {
  // the README's picture is taken at a common laptop size
  const s = workbenchSession('hello.prompt.json', {
    size: { width: 1280, height: 800 },
    beforeClose: s => runCommand(s.page, 'Promptwright: Clear Compliance Key').catch(() => {}),
  });

  it('pages as the table scrolls: a filter, three pages, one record opened with the keyboard', async () => {
    const { page } = s;
    const start = ui.fake.requests.length;
    await runCommand(page, 'Promptwright: Set Compliance Key');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.locator('.quick-input-widget', { hasText: 'Compliance Access Key' }).waitFor({ timeout: 10000 });
    assert.equal(await input.getAttribute('type'), 'password');
    await input.fill(COMPLIANCE_KEY);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
    // the editor area to itself: the feed is wide
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Secondary Side Bar');

    await runCommandExpect(page, 'Promptwright: Open Activity Feed', rows(page), 30000);
    const f = feed(page);
    await waitRows(page, 100);
    await f.locator('#status', { hasText: '100 loaded · more as you scroll' }).waitFor({ timeout: 10000 });

    // the filter: three types from the list, and a lower bound on created_at typed wrong, then right
    await f.locator('summary', { hasText: 'All types' }).click();
    // the list shows each type in words, the service's name in the tooltip
    for (const t of TYPES)
      await f
        .locator('label.check', { has: f.locator(`[title="${t}"]`) })
        .locator('input')
        .check();
    assert.equal(await f.locator(`label.check [title="${TYPES[0]}"]`).innerText(), 'Chat viewed');
    await page.screenshot({ path: path.join(ui.results, 'activity-types.png') });
    await f.locator('summary', { hasText: '3 types' }).click(); // closes the menu
    await f.locator('select.when').selectOption('custom');
    const from = f.locator('input[aria-label^="Created from"]');
    const apply = f.locator('button[type="submit"]');
    await from.click();
    await page.keyboard.type('01'); // one part of the date: the input has no value yet
    await f.locator('#problems', { hasText: 'Created from: finish the date and time.' }).waitFor({ timeout: 5000 });
    assert.equal(await apply.isDisabled(), true, 'Apply is disabled while a bound is not a timestamp');
    assert.equal(await from.getAttribute('aria-invalid'), 'true');
    await page.screenshot({ path: path.join(ui.results, 'activity-invalid.png') });
    const sentBeforeFix = ui.fake.requests.length;
    await from.press('Enter'); // submitting the form does nothing either
    await page.waitForTimeout(300);
    assert.equal(ui.fake.requests.length, sentBeforeFix, 'nothing is sent for a bad timestamp');
    await from.fill(CREATED_FROM);
    assert.equal(await apply.isDisabled(), false);
    assert.equal(await f.locator('#problems').isHidden(), true);
    await apply.click();
    await f.locator('#status', { hasText: '100 loaded · more as you scroll' }).waitFor({ timeout: 10000 });
    await waitRows(page, 100);
    const sent = ui.fake.requests.filter(r => r.path === FEED && r.query['created_at.gte']).at(-1);
    assert.equal(sent.query['created_at.gte'], new Date(CREATED_FROM).toISOString().replace('.000Z', 'Z'));
    const types = await f.locator('#rows td.type .type-name').evaluateAll(names => names.map(n => n.title));
    assert.ok(
      types.every(t => TYPES.includes(t)),
      `only the chosen types: ${[...new Set(types)].join(', ')}`,
    );

    // scroll the table to its end twice: one page each time, never the whole feed
    const scroller = f.locator('#scroller');
    for (const expected of [200, 300]) {
      await scroller.hover({ position: { x: 400, y: 300 } });
      await page.mouse.wheel(0, 6000);
      await waitRows(page, expected);
      await f.locator('#status', { hasText: `${expected} loaded · more as you scroll` }).waitFor({ timeout: 10000 });
    }
    await page.waitForTimeout(800);
    assert.equal(await rowCount(page), 300, 'no fourth page without scrolling');
    const pages = ui.fake.requests.slice(start).filter(r => r.path === FEED && r.query['created_at.gte']);
    assert.equal(pages.length, 3);
    assert.deepEqual(
      pages.map(r => [r.query.limit, r.query.after_id === undefined]),
      [
        ['100', true],
        ['100', false],
        ['100', false],
      ],
    );
    assert.notEqual(pages[1].query.after_id, pages[2].query.after_id);
    const ids = await f.locator('#rows td.id').allInnerTexts();
    assert.equal(new Set(ids).size, 300, 'no record twice');

    // the picture: back at the top, the pointer on an organization membership row
    await scroller.hover({ position: { x: 400, y: 300 } });
    await page.mouse.wheel(0, -20000);
    await page.waitForTimeout(300);
    const orgRow = f.locator('#rows tr', { has: f.locator('.row-action') }).first();
    assert.equal(await orgRow.locator('.row-action').getAttribute('aria-label'), 'Refresh organizations');
    await orgRow.locator('td.actor').hover();
    await page.waitForTimeout(300);
    const shot = await page.screenshot({ path: path.join(ui.results, 'activity.png') });
    // the README's copy changes only when asked: each run's picture differs (the workspace name in the title)
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'activity.png'), shot);

    // a membership row's action asks the extension to list the organizations again (and does not open the row)
    await orgRow.locator('.row-action').click();
    await f.locator('#notice', { hasText: 'Listing the linked organizations again' }).waitFor({ timeout: 10000 });
    assert.equal(await page.locator('.tabs-container .tab', { hasText: /^activity-/ }).count(), 0);

    // the keyboard, some way down the table: a row focused, the arrow moves the one tab stop, Enter shows the
    // record in the pane beside the table, which then follows the arrow keys
    const at = rows(page).nth(60);
    await at.focus();
    await page.keyboard.press('ArrowDown');
    const next = rows(page).nth(61);
    const nextId = await next.getAttribute('data-id');
    assert.equal(await next.getAttribute('tabindex'), '0', 'the arrow moves the one tab stop');
    assert.equal(await at.getAttribute('tabindex'), '-1');
    const scrolledTo = await scroller.evaluate(e => e.scrollTop);
    assert.ok(scrolledTo > 500, `the table scrolled to the focused row (${scrolledTo})`);
    await page.waitForTimeout(300); // the scroll position is saved on the next frame
    await page.keyboard.press('Enter');
    const pane = f.locator('#detail');
    await pane.locator('#detail-json', { hasText: `"id": "${nextId}"` }).waitFor({ timeout: 10000 });
    assert.equal(await pane.locator('#detail-title').innerText(), await next.locator('.type-name').innerText());
    assert.equal(await next.getAttribute('data-selected'), '');
    assert.equal(await page.locator('.tabs-container .tab', { hasText: /^activity-/ }).count(), 0, 'no editor yet');
    await page.screenshot({ path: path.join(ui.results, 'activity-record.png') });
    await page.keyboard.press('ArrowDown');
    const third = rows(page).nth(62);
    const thirdId = await third.getAttribute('data-id');
    await pane.locator('#detail-json', { hasText: `"id": "${thirdId}"` }).waitFor({ timeout: 10000 });
    assert.equal(await next.getAttribute('data-selected'), null);
    const leftAt = await scroller.evaluate(e => e.scrollTop);
    await page.waitForTimeout(300); // the scroll position is saved on the next frame
    // "Open as JSON": the record as a document of its own, to search, copy or save
    await pane.locator('button', { hasText: 'Open as JSON' }).click();
    const jsonTab = page.locator('.tabs-container .tab', { hasText: `activity-${thirdId}.json` });
    await jsonTab.first().waitFor({ timeout: 15000 });

    // back on the feed: the webview is rebuilt, gets everything it had from the extension, and scrolls back
    await page.locator('.tabs-container .tab', { hasText: 'Activity Feed' }).first().click();
    await waitRows(page, 300);
    // the same instant (the input leaves out seconds that are zero)
    const shown = await f.locator('input[aria-label^="Created from"]').inputValue();
    assert.equal(new Date(shown).getTime(), new Date(CREATED_FROM).getTime(), shown);
    assert.equal(await scroller.evaluate(e => e.scrollTop), leftAt, 'the same place in the table');
    await scroller.evaluate(e => e.scrollTo(0, 0));

    // an error in the banner: type, message, request-id and what the key lacks; Retry asks again
    ui.fake.fail({
      path: FEED,
      status: 403,
      errorType: 'permission_error',
      message: 'Missing required scopes. Got: read:compliance_org_data. Needed: read:compliance_activities.',
    });
    await f.locator('button', { hasText: 'Check for newer' }).click();
    const banner = f.locator('#banner');
    await banner.locator('.banner', { hasText: 'permission_error' }).waitFor({ timeout: 10000 });
    const said = await banner.innerText();
    assert.match(said, /Missing required scopes/);
    assert.match(said, /This key cannot read the Activity Feed: it lacks read:compliance_activities/);
    assert.match(said, /request-id \S+/);
    await page.screenshot({ path: path.join(ui.results, 'activity-error.png') });
    await banner.locator('button', { hasText: 'Retry' }).click();
    await f.locator('#notice', { hasText: 'No newer records.' }).waitFor({ timeout: 10000 });
    assert.equal(await banner.innerText(), '');
    assert.equal(await rowCount(page), 300);
    const newer = ui.fake.requests.filter(r => r.path === FEED && r.query.before_id);
    assert.equal(newer.length, 2, 'the refused ask, then the retry');
    assert.equal(newer[0].query.before_id, newer[1].query.before_id);
  });
});
