// UI suite: Compare, driven through the DOM. The workspace is made a git repository with a request file
// committed, then edited (a longer question, a system prompt). "Promptwright: Compare…" with columns chosen
// in its quick picks: the working copy and HEAD on one model, the working copy on another. The columns
// stream side by side, Diff shows the word diff of two of them, the keyboard moves between columns and
// reaches every action, Cancel keeps what arrived, and the response panel's title bar offers Compare too.
// Pictures: test-results/compare.png and ci-comment.png (the `count --base --format markdown` comment as a
// pull request shows it); with UPDATE_DOCS_IMAGES=1 also docs/images/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { answerInput, freshRepository, openFile, runCommand, support, workbenchSession } from './drive.mjs';

const OPUS = 'model-opus-4-7';
const HAIKU = 'model-haiku-4-5';

const compare = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
const column = (page, i) => compare(page).locator(`section.column[data-index="${i}"]`);

const request = (content, system) =>
  `${JSON.stringify(
    { model: OPUS, max_tokens: 200, ...(system ? { system } : {}), messages: [{ role: 'user', content }] },
    null,
    2,
  )}\n`;

/** Picks the quick pick row whose label contains `text`: typed as a filter, Enter once that row has the focus. */
async function choose(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: text }).first();
  for (let attempt = 1; ; attempt++) {
    await input.waitFor({ state: 'visible', timeout: 15000 });
    await input.fill(text);
    try {
      await row.waitFor({ timeout: 5000 });
      break;
    } catch (e) {
      // the pick before may still have been closing: type again into the new one
      if (attempt === 3) throw e;
    }
  }
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

describe('Compare (DOM)', function () {
  let folder;
  // the README's picture is taken at a common laptop size
  const s = workbenchSession('weather.prompt.json', {
    withApiKey: true,
    size: { width: 1440, height: 860 },
    folder: async () => {
      const repo = await freshRepository();
      folder = repo.dir;
      fs.writeFileSync(
        path.join(folder, 'weather.prompt.json'),
        request("What's the weather in Paris? #thinking #tool #slow=120"),
      );
      fs.writeFileSync(path.join(folder, 'slow.prompt.json'), request('A long answer please #long=600 #slow=25'));
      fs.writeFileSync(path.join(folder, 'faq.prompt.json'), request('Where can I find the opening hours?'));
      // the fixture workspace's files too: only what the test changes differs from HEAD
      repo.commit('prompts');
      // the working copy: a system prompt and a sharper question
      fs.writeFileSync(
        path.join(folder, 'weather.prompt.json'),
        request(
          "What's the weather in Paris tomorrow morning? #thinking #tool #slow=120",
          'You are a concise weather assistant. Answer in one sentence and use the get_weather tool.',
        ),
      );
      return folder;
    },
  });

  it('three columns chosen in the picks stream side by side; Run Again; Diff; the keyboard', async () => {
    const { page } = s;
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Secondary Side Bar');
    // the status bar sets the working copy against HEAD
    await page
      .locator('[id="promptwright.promptwright.promptwright.tokens"]', { hasText: /tokens · \+\d+ vs HEAD/ })
      .waitFor({ timeout: 30000 });
    const before = ui.fake.requests.length;
    await runCommand(page, 'Promptwright: Compare…');
    await choose(page, 'Choose columns');
    await choose(page, 'Working copy');
    await choose(page, OPUS);
    await choose(page, 'A git revision');
    await page.locator('.quick-input-widget', { hasText: 'A git revision: HEAD' }).waitFor({ timeout: 10000 });
    await answerInput(page, 'HEAD'); // the input box, HEAD by default
    await choose(page, OPUS);
    await choose(page, 'Working copy');
    await choose(page, HAIKU);
    await choose(page, 'Compare these 3 columns');

    const c = compare(page);
    await c.locator('section.column').nth(2).waitFor({ timeout: 30000 });
    for (let i = 0; i < 3; i++)
      await column(page, i).locator('.col-status', { hasText: 'done' }).waitFor({ timeout: 30000 });
    assert.equal(ui.fake.requests.slice(before).filter(r => r.path === '/v1/messages').length, 3);

    // Run Again, in the page now loaded: the three columns stream at once, their text growing as it comes,
    // and each says whether its new sample differs from the first (the fake answers alike)
    await c.locator('#run-again').click();
    await c.locator('section.column.status-running').nth(2).waitFor({ timeout: 15000 });
    const streaming = column(page, 0).locator('.text.streaming');
    await streaming.waitFor({ timeout: 15000 });
    const early = await streaming.innerText();
    await column(page, 0).locator('.text.markdown').waitFor({ timeout: 15000 });
    assert.ok(early.length < (await column(page, 0).locator('.block-text').innerText()).length, 'the text grew');
    assert.equal(await c.locator('#run-again').isDisabled(), true, 'no second run while one runs');
    for (let i = 0; i < 3; i++)
      await column(page, i).locator('.col-sample', { hasText: 'sample 2: same as before' }).waitFor({ timeout: 30000 });
    assert.deepEqual(await c.locator('.col-version').allInnerTexts(), ['working copy', 'HEAD', 'working copy']);
    assert.deepEqual(await c.locator('.col-model').allInnerTexts(), [OPUS, OPUS, HAIKU]);
    assert.match(
      await column(page, 0).locator('.block-text').innerText(),
      /You said: What's the weather in Paris tomorrow morning\?/,
    );
    assert.match(await column(page, 1).locator('.block-text').innerText(), /You said: What's the weather in Paris\?$/);
    // thinking is collapsed; the tool call shows its input
    assert.equal(await column(page, 0).locator('details.thinking').getAttribute('open'), null);
    assert.match(await column(page, 0).locator('.block-tool_use').innerText(), /get_weather[\s\S]*"location": "Paris"/);
    // the header: the input tokens and their change against column 1; the footer: the reply's facts
    assert.match(await column(page, 1).locator('.col-delta').innerText(), /^-\d+ \(-[\d.]+%\) vs 1$/);
    const foot = await column(page, 0).locator('.col-foot').innerText();
    assert.match(foot, /stop_reason: tool_use/);
    assert.match(foot, /\d+ input tokens \(no cache read or written\) and \d+ output tokens\./);
    assert.match(foot, /Latency: [\d.]+ s/);
    assert.match(foot, /request-id: req_fake_/);
    assert.equal(ui.fake.requests.slice(before).filter(r => r.path === '/v1/messages').length, 6);

    // Diff: HEAD (2) → the working copy (1)
    await c.locator('#diff-a').selectOption('1');
    await c.locator('#diff-b').selectOption('0');
    await c.locator('#diff-run').click();
    await c.locator('#diff:not([hidden])').waitFor({ timeout: 10000 });
    assert.deepEqual(await c.locator('#diff-body ins.diff-added').allInnerTexts(), [' tomorrow morning']);
    assert.equal(await c.locator('#diff-body del').count(), 0);
    assert.match(await c.locator('#diff-title').innerText(), /column 2 \(HEAD · model-opus-4-7\) → column 1/);

    // the picture: the compare panel wide, the diff open (what the working copy added), the pointer away
    const left = await page.locator('.editor-group-container').first().boundingBox();
    if (left) {
      await page.mouse.move(left.x + left.width, left.y + 300);
      await page.mouse.down();
      await page.mouse.move(left.x + 330, left.y + 300, { steps: 8 });
      await page.mouse.up();
    }
    await page.mouse.move(5, 850);
    await page.waitForTimeout(500);
    const shot = await page.screenshot({ path: path.join(ui.results, 'compare.png') });
    if (process.env.UPDATE_DOCS_IMAGES) fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'compare.png'), shot);

    // the keyboard: Escape closes the diff and gives the focus back to Diff; Left and Right move between columns
    await page.keyboard.press('Escape');
    await c.locator('#diff[hidden]').waitFor({ state: 'attached', timeout: 5000 });
    assert.equal(await c.locator('#diff-run').evaluate(b => b === document.activeElement), true);
    await column(page, 0).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await c.locator('body').evaluate(() => document.activeElement?.getAttribute('data-index')), '1');
    await page.keyboard.press('End');
    assert.equal(await c.locator('body').evaluate(() => document.activeElement?.getAttribute('data-index')), '2');
    // Home goes to the first column; Shift+Tab from it reaches Diff in the toolbar, and Enter runs it
    await c.locator('#diff-a').selectOption('0');
    await c.locator('#diff-b').selectOption('1');
    await column(page, 2).focus();
    await page.keyboard.press('Home');
    assert.equal(await c.locator('body').evaluate(() => document.activeElement?.getAttribute('data-index')), '0');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await c.locator('#diff-run').evaluate(b => b === document.activeElement), true);
    await page.keyboard.press('Enter');
    await c.locator('#diff:not([hidden])').waitFor({ timeout: 10000 });
    assert.deepEqual(await c.locator('#diff-body del.diff-removed').allInnerTexts(), [' tomorrow morning']);
  });

  it('Cancel stops every column and keeps the partial replies', async () => {
    const { page } = s;
    const c = compare(page);
    await openFile(page, 'slow.prompt.json');
    await runCommand(page, 'Promptwright: Compare…');
    await choose(page, 'Working copy vs HEAD');
    await column(page, 1).locator('.block-text', { hasText: 'w0 w1 w2' }).waitFor({ timeout: 30000 });
    assert.equal(await c.locator('#run-again').isDisabled(), true);
    await c.locator('#cancel').click();
    for (let i = 0; i < 2; i++) await column(page, i).locator('.col-status', { hasText: 'cancelled' }).waitFor();
    for (let i = 0; i < 2; i++) {
      const text = await column(page, i).locator('.block-text').innerText();
      assert.match(text, /^w0 w1 w2/, 'the partial reply is kept');
      assert.ok(text.split(' ').length < 600);
    }
    assert.match(await column(page, 0).locator('.col-foot').innerText(), /Cancelled: the reply stops where it was\./);
    assert.equal(await c.locator('#cancel').isDisabled(), true);
  });

  it('the response panel offers Compare in its title bar', async () => {
    const { page } = s;
    await openFile(page, 'weather.prompt.json');
    await runCommand(page, 'Promptwright: Send Request');
    const tab = page.locator('.tabs-container .tab', { hasText: 'Reply · weather.prompt.json' });
    await tab.waitFor({ timeout: 30000 });
    const panel = page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
    await panel.locator('#meta-status', { hasText: 'done' }).waitFor({ timeout: 30000 });
    await tab.click();
    const action = page
      .locator('.editor-group-container', { has: page.locator('.tab', { hasText: /^Reply · / }) })
      .locator('.editor-actions .action-label[aria-label^="Compare…"]');
    await action.waitFor({ timeout: 10000 });
    await action.click();
    const before = ui.fake.requests.length;
    await choose(page, 'Working copy vs HEAD');
    await page
      .locator('.tabs-container .tab', { hasText: 'Compare · weather.prompt.json' })
      .waitFor({ timeout: 30000 });
    const sent = () => ui.fake.requests.slice(before).filter(r => r.path === '/v1/messages');
    for (let i = 0; i < 100 && sent().length < 2; i++) await page.waitForTimeout(100);
    // The two columns are sent at once, so they may reach the fake in either order.
    assert.deepEqual(
      sent()
        .map(r => r.body.messages[0].content)
        .sort(),
      [
        "What's the weather in Paris tomorrow morning? #thinking #tool #slow=120",
        "What's the weather in Paris? #thinking #tool #slow=120",
      ].sort(),
    );
  });

  it('the pull-request comment of `count --base --format markdown`, as GitHub shows it (picture)', async () => {
    // a new file and a deleted one beside the edited weather.prompt.json
    fs.writeFileSync(
      path.join(folder, 'support.prompt.json'),
      request('Where is my parcel?', 'You are a support agent.'),
    );
    fs.rmSync(path.join(folder, 'faq.prompt.json'));
    const cli = path.join(ui.root, 'dist', 'cli.js');
    const { spawnCli } = await support('spawnCli');
    const run = spawnCli(['count', '--base', 'HEAD', '--changed', '--format', 'markdown'], {
      cli,
      cwd: folder,
      env: { ...process.env, PROMPTWRIGHT_BASE_URL: ui.fake.url, PROMPTWRIGHT_API_KEY: ui.fake.apiKey },
    });
    const code = await run.exited;
    await run.closed;
    const markdown = run.out;
    assert.equal(code, 0);
    assert.match(markdown, /^<!-- promptwright:count -->\n/);
    const { page, close } = await ui.launchBrowser({ width: 820, height: 420 });
    try {
      await page.setContent(commentPage(markdown));
      const shot = await page.locator('.comment').screenshot({ path: path.join(ui.results, 'ci-comment.png') });
      if (process.env.UPDATE_DOCS_IMAGES)
        fs.writeFileSync(path.join(ui.root, 'docs', 'images', 'ci-comment.png'), shot);
    } finally {
      await close();
    }
  });
});

/** The comment's Markdown (a heading, a table, notes) as a pull request shows it, in GitHub's light look. */
function commentPage(markdown) {
  const esc = t => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const inline = t =>
    esc(t)
      .replace(/\\\|/g, '|')
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/&lt;sub&gt;(.*)&lt;\/sub&gt;/g, '<sub>$1</sub>');
  const html = [];
  let table = [];
  const flush = () => {
    if (!table.length) return;
    const cells = row =>
      row
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map(x => x.trim());
    const [head, align, ...rows] = table;
    const right = cells(align).map(a => a.endsWith(':') && !a.startsWith(':'));
    const td = (tag, x, i) => `<${tag}${right[i] ? ' class="r"' : ''}>${inline(x)}</${tag}>`;
    html.push(
      `<table><thead><tr>${cells(head)
        .map((x, i) => td('th', x, i))
        .join('')}</tr></thead><tbody>` +
        rows
          .map(
            r =>
              `<tr>${cells(r)
                .map((x, i) => td('td', x, i))
                .join('')}</tr>`,
          )
          .join('') +
        '</tbody></table>',
    );
    table = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) {
      table.push(line);
      continue;
    }
    flush();
    if (line.startsWith('<!--') || !line.trim()) continue;
    if (line.startsWith('### ')) html.push(`<h3>${inline(line.slice(4))}</h3>`);
    else html.push(`<p>${inline(line)}</p>`);
  }
  flush();
  return `<!DOCTYPE html><html><head><style>
  body { margin: 0; padding: 16px; background: #f6f8fa; color: #1f2328;
    font: 14px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
  .comment { border: 1px solid #d1d9e0; border-radius: 6px; background: #fff; max-width: 780px; }
  .who { padding: 8px 16px; border-bottom: 1px solid #d1d9e0; background: #f6f8fa; color: #59636e;
    border-radius: 6px 6px 0 0; }
  .who b { color: #1f2328; }
  .body { padding: 4px 16px 12px; }
  h3 { font-size: 16px; margin: 12px 0 10px; }
  table { border-collapse: collapse; margin: 8px 0 12px; }
  th, td { border: 1px solid #d1d9e0; padding: 6px 13px; text-align: left; }
  th.r, td.r { text-align: right; }
  tr:nth-child(2n) td { background: #f6f8fa; }
  code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #eff1f3; padding: 2px 5px;
    border-radius: 6px; }
  sub { color: #59636e; }
  </style></head><body><div class="comment"><div class="who"><b>github-actions</b> bot commented</div>
  <div class="body">${html.join('\n')}</div></div></body></html>`;
}
