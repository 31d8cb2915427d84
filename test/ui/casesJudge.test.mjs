// UI suite: rubrics, samples, cost and grades in the Cases grid, driven through the DOM. A case file with a
// judge model, four samples a cell and three that must pass: each cell shows how many samples passed ("0/4")
// and a flaky mark where some did and some did not; the header says what the run cost and what its judge cost;
// the failing cell's detail lists every sample with the judge's reasons; a 👎 given to a sample's reply stays
// after the cell runs again; the Test Explorer's failure message at the rubric's line. Pictures in test-results/
// (with UPDATE_DOCS_IMAGES=1 also docs/images/cases-judge.png). The fake answers "Hello! You said: <question>",
// declines every second request of a body that says #flaky, and its stand-in judge passes a rubric when the
// reply has every phrase the criteria quote.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { copyFixtures, openFile, runCommand, workbenchSession } from './drive.mjs';

const SONNET = 'model-sonnet-4-6';
const HAIKU = 'model-haiku-4-5';

const grid = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
const cellOf = (page, caseName, model) => grid(page).locator(`td.cell[data-case="${caseName}"][data-model="${model}"]`);
const isJudge = r => JSON.stringify(r.body).includes('"json_schema"');
const replies = since => ui.fake.requests.slice(since).filter(r => r.path === '/v1/messages' && !isJudge(r));
const shot = (page, name) => page.screenshot({ path: path.join(ui.results, name) });

const CASES = `# Four samples a cell; three must pass. The judge (${HAIKU}) grades the rubrics.
request: support.prompt.yaml
models: [${SONNET}, ${HAIKU}]
judge: { model: ${HAIKU} }
repeat: 4
min-pass: 3
cases:
  - name: refund in French
    vars: { question: "Puis-je être remboursé sous 30 jours ?", tone: formal }
    assert:
      - rubric: 'Says a refund is possible within "30 jours"'
      - rubric: { criteria: 'Thanks the customer: "merci"', threshold: 0.5 }
  - name: greeting
    vars: { question: "Are you open on Sunday?", tone: friendly }
    assert:
      - rubric: 'Answers about "Sunday"'
      - max-cost: 0.01
  - name: sometimes declines
    vars: { question: "Bonjour #flaky", tone: calm }
    assert:
      - contains: Hello
`;

/** Waits until no cell of the grid is queued or running. */
async function waitDone(page, timeout = 60000) {
  const g = grid(page);
  await g.locator('td.cell').first().waitFor({ timeout });
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    const busy = await g.locator('td.cell.status-queued, td.cell.status-running').count();
    if (!busy && (await g.locator('body:not(.running)').count())) return;
    await page.waitForTimeout(100);
  }
  throw new Error('the grid did not finish');
}

describe('Cases grid: rubrics, samples, cost and grades (DOM)', function () {
  const s = workbenchSession('judged.cases.yaml', {
    withApiKey: true,
    size: { width: 1280, height: 800 },
    folder: () => {
      const folder = copyFixtures(ui.freshWorkspace(), 'cases', ['support.prompt.yaml']);
      fs.writeFileSync(path.join(folder, 'judged.cases.yaml'), CASES);
      return folder;
    },
  });

  it('samples passed in each cell, a flaky mark, the cost in the header; the detail lists the samples', async () => {
    const { page } = s;
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Secondary Side Bar');
    const start = ui.fake.requests.length;
    await openFile(page, 'judged.cases.yaml');
    await runCommand(page, 'Promptwright: Run Cases');
    await waitDone(page);
    const g = grid(page);
    assert.equal(replies(start).length, 24, 'four samples for each of six cells');
    // the refund fails its second rubric in every sample; the greeting passes; "sometimes declines" is flaky
    for (const model of [SONNET, HAIKU]) {
      const refund = cellOf(page, 'refund in French', model);
      assert.equal(await refund.locator('.samples').innerText(), '0/4');
      assert.match(await refund.locator('.cell-foot').innerText(), /^sample 1: rubric “Thanks the customer/);
      assert.equal(await cellOf(page, 'greeting', model).locator('.samples').innerText(), '4/4');
      const flaky = cellOf(page, 'sometimes declines', model);
      assert.equal(await flaky.locator('.samples').innerText(), '2/4');
      assert.equal(await flaky.locator('.flaky').innerText(), 'flaky');
      assert.match(await flaky.getAttribute('aria-label'), /failed, 2 of 4 samples passed, flaky/);
    }
    // the header: the run's cost, and its judge's apart
    const summary = await g.locator('#summary').innerText();
    assert.match(summary, /^6\/6 · 4 failed · 2 flaky · 2 passed · \$0\.\d{4} · judge \$0\.\d{4,5}$/);

    // the failing cell: every sample, each with the judge's reasons
    await cellOf(page, 'refund in French', SONNET).click();
    const detail = g.locator('#detail');
    await detail.locator('.samples-section h3', { hasText: 'Samples · 0 of 4 passed (3 needed)' }).waitFor();
    const samples = detail.locator('.sample');
    assert.equal(await samples.count(), 4);
    for (let i = 0; i < 4; i++) {
      const sample = samples.nth(i);
      assert.match(await sample.locator('.sample-head').innerText(), new RegExp(`^Sample ${i + 1}`));
      const said = await sample.locator('.assertion-list li').allInnerTexts();
      assert.match(said[0], /rubric “Says a refund is possible within "30 jours"”: The reply has "30 jours"/);
      assert.match(said[1], /rubric “Thanks the customer: "merci"”: The reply lacks "merci"\. \(score 0, below 0\.5\)/);
    }
    assert.match(await detail.locator('.facts').innerText(), /cost:?\s*\$0\.\d{4}[\s\S]*judge:?\s*\$0\.\d{4}/);
  });

  it('a 👎 on a sample’s reply is shown beside the verdict, and kept when the cell runs again', async () => {
    const { page } = s;
    const g = grid(page);
    await cellOf(page, 'greeting', SONNET).click();
    const detail = g.locator('#detail');
    await detail.locator('.samples-section h3', { hasText: 'Samples · 4 of 4 passed' }).waitFor();
    await detail.locator('button[data-action="grade-down-0"]').click();
    // every sample with the same reply: a passing verdict, and the 👎 beside it, not hidden by it
    await detail.locator('.sample .grade-down').nth(3).waitFor({ timeout: 10000 });
    assert.equal(await detail.locator('.sample .badge.status-passed').count(), 4);
    assert.equal(await detail.locator('button[data-action="grade-down-0"][aria-pressed="true"]').count(), 1);
    assert.equal(
      await cellOf(page, 'greeting', SONNET).locator('.grade-down').getAttribute('title'),
      'You graded this reply bad',
    );

    // the cell again: the same reply keeps its grade
    const before = ui.fake.requests.length;
    await detail.locator('button[data-rerun="cell"]').click();
    for (let i = 0; i < 100 && replies(before).length < 4; i++) await page.waitForTimeout(100);
    await waitDone(page);
    assert.equal(replies(before).length, 4);
    await detail.locator('.sample .grade-down').nth(3).waitFor({ timeout: 10000 });
    assert.equal(await cellOf(page, 'greeting', SONNET).locator('.grade-down').count(), 1);

    // the picture: the failing cell's samples, with their reasons
    await cellOf(page, 'refund in French', SONNET).click();
    await detail.locator('.samples-section').waitFor();
    await detail.locator('.facts').click();
    await page.mouse.move(5, 790);
    await page.waitForTimeout(400);
    const dark = await shot(page, 'cases-judge.png');
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'cases-judge.png'), dark);
  });

  it('the Test Explorer: the failing test’s message at the rubric’s line lists the samples and reasons', async () => {
    const { page } = s;
    await openFile(page, 'judged.cases.yaml');
    await runCommand(page, 'View: Show Testing');
    const view = page.locator('.part.sidebar');
    const row = label => view.locator('.monaco-list-row', { hasText: label });
    await row('judged.cases.yaml').first().waitFor({ timeout: 30000 });
    await row('judged.cases.yaml').first().hover();
    await row('judged.cases.yaml').first().locator('.action-label[aria-label^="Run Test"]').click();
    await row('judged.cases.yaml').first().locator('.codicon-testing-failed-icon').waitFor({ timeout: 60000 });
    // the failing tests in Test Results, each message saying how many samples passed and how many had to
    const results = page.locator('.part.panel .monaco-list-row', { hasText: '0 of 4 samples passed (3 needed)' });
    await results.first().waitFor({ timeout: 20000 });
    // the second row may come a moment after the first on a loaded machine
    await results.nth(1).waitFor({ timeout: 20000 });
    assert.equal(await results.count(), 2, 'the refund on each model');
    // and in the editor, a failure mark on the line of the rubric that failed (`- rubric: { criteria: … }`)
    const marks = page.locator('.monaco-editor .margin .codicon-testing-failed-icon');
    await marks.first().waitFor({ timeout: 10000 });
    await page.mouse.move(900, 790);
    await page.waitForTimeout(500);
    await shot(page, 'cases-judge-test-explorer.png');
  });
});
