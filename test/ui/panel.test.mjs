// UI suite: Send Request and the response panel, read through the webview's DOM.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ui } from './context.mjs';
import { answerInput, editorText, openFile, runCommand, workbenchSession } from './drive.mjs';

const panel = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');

/** An action in the title bar of the active editor group (the response panel's, once it has the focus). */
/** An action in the title bar of the panel's editor group (the request file's group has a Cancel of its own). */
const titleAction = (page, title) =>
  page
    .locator('.editor-group-container', { has: page.locator('.tab', { hasText: /^Reply · / }) })
    .locator(`.editor-actions .action-label[aria-label^="${title}"]`);

/** Waits until the panel shows a run of `file` with the given status (not the previous run's). */
async function waitRun(page, file, status, timeout = 30000) {
  const p = panel(page);
  await p.locator(`#meta[data-file="${file}"]`).waitFor({ timeout });
  await p.locator('#meta-status', { hasText: status }).waitFor({ timeout });
  return p;
}

describe('response panel (DOM)', function () {
  const session = workbenchSession('hello.prompt.json', { withApiKey: true });

  it('streams text, thinking and tool use into the panel', async () => {
    const { page } = session;
    // the pictures show the file and its reply side by side, without an empty chat bar beside them
    await runCommand(page, 'View: Hide Secondary Side Bar');
    await openFile(page, 'chat.prompt.yaml');
    await runCommand(page, 'Promptwright: Send Request');
    const p = await waitRun(page, 'chat.prompt.yaml', 'done');
    assert.match(await p.locator('.block-thinking').innerText(), /Let me think/);
    assert.match(await p.locator('.block-text').innerText(), /Hello! You said: What's the weather in Paris\?/);
    assert.match(await p.locator('.block-tool_use').innerText(), /get_weather[\s\S]*"location": "Paris"/);
    // one status strip: status · model · stop reason · tokens · time · cost · request-id; usage in words below
    const strip = await p.locator('#meta .strip-item').allInnerTexts();
    assert.deepEqual(strip.slice(0, 3), ['done', 'model-opus-4-7', 'tool_use']);
    assert.match(strip[3], /^\d+ in · \d+ out$/);
    assert.match(strip[4], /^[\d.]+ s$/);
    // model-opus-4-7's built-in price: $5 in, $25 out per million tokens
    assert.match(strip[5], /^\$0\.\d+$/);
    assert.equal(await p.locator('#meta-cost').getAttribute('title'), 'What this reply cost (promptwright.prices)');
    assert.match(strip[6], /^req_fake_stream_/);
    // where the request went: the address in use (the user's promptwright.baseUrl)
    assert.equal(strip[7], ui.fake.url);
    assert.equal(
      await p.locator('#meta-service').getAttribute('title'),
      'Where the request was sent (promptwright.baseUrl)',
    );
    assert.match(
      await p.locator('#usage').innerText(),
      /^\d+ input tokens \(no cache read or written\) and \d+ output tokens\./,
    );
    // the tool input's JSON coloured by part
    assert.equal(await p.locator('.block-tool_use .json-key', { hasText: '"location"' }).count(), 1);
    // the icons' font (dist/webview/codicon.woff2) is fetched and read under the panel's Content Security Policy
    const faces = await p
      .locator('body')
      .evaluate(async () => (await document.fonts.load('16px codicon')).map(f => f.status));
    assert.deepEqual(faces, ['loaded']);
    // the panel is named after its file, and its actions are in its title bar
    const tab = page.locator('.tabs-container .tab', { hasText: 'Reply · chat.prompt.yaml' });
    await tab.waitFor({ timeout: 10000 });
    // the actions show in the panel's title bar while it has the focus (as the Markdown preview's do)
    await tab.click();
    await titleAction(page, 'Re-run Request').waitFor({ timeout: 10000 });
    for (const action of ['Re-run Request', 'Append Reply to File', 'Copy Reply Text', 'Copy Request as curl'])
      assert.equal(await titleAction(page, action).count(), 1, action);
    assert.equal(await titleAction(page, 'Cancel Request').count(), 0, 'no Cancel once done');
    await page.screenshot({ path: path.join(ui.results, 'panel-dark.png') });
  });

  it('model output is inert: script and event-handler payloads in text, thinking and tool input', async () => {
    const { page } = session;
    await openFile(page, 'xss.prompt.json');
    await runCommand(page, 'Promptwright: Send Request');
    const p = await waitRun(page, 'xss.prompt.json', 'done');
    const text = await p.locator('.block-text').innerText();
    assert.match(text, /<script>window.__pwned=1<\/script>/, 'the payload shows as text');
    const dangerous = await p
      .locator(
        '#blocks script, #blocks img, #blocks iframe, #blocks [onerror], #blocks [onclick], #blocks ' +
          'a[href^="javascript:"]',
      )
      .count();
    assert.equal(dangerous, 0);
    const pwned = await p.locator('body').evaluate(() => window.__pwned);
    assert.equal(pwned, undefined);
    assert.match(await p.locator('.block-thinking').innerText(), /<img src=x onerror=/);
    assert.match(await p.locator('.block-tool_use').innerText(), /<script>alert\(1\)<\/script>/);
  });

  it('Cancel in the panel stops a slow stream and keeps the partial text', async () => {
    const { page } = session;
    await openFile(page, 'slow.prompt.json');
    await runCommand(page, 'Promptwright: Send Request');
    const p = await waitRun(page, 'slow.prompt.json', 'streaming');
    await p.locator('.block-text', { hasText: 'w5 ' }).waitFor({ timeout: 30000 });
    await page.locator('.tabs-container .tab', { hasText: 'Reply · slow.prompt.json' }).click();
    await titleAction(page, 'Cancel Request').click();
    await p.locator('#meta-status', { hasText: 'cancelled' }).waitFor({ timeout: 10000 });
    const t = await p.locator('.block-text').innerText();
    assert.match(t, /^w0 w1 w2 w3 w4 w5/);
    assert.ok(!t.includes('w299'));
    assert.match(await p.locator('#banner').innerText(), /Cancelled/);
  });

  it('an error event mid-stream keeps the partial reply under a clear banner', async () => {
    const { page } = session;
    await openFile(page, 'broken-stream.prompt.json');
    await runCommand(page, 'Promptwright: Send Request');
    const p = await waitRun(page, 'broken-stream.prompt.json', 'failed');
    assert.match(
      await p.locator('#banner').innerText(),
      /The stream failed; the partial reply is kept below[\s\S]*overloaded_error: Overloaded/,
    );
    assert.match(await p.locator('.block-text').innerText(), /w0 w1 w2/);
  });

  it('20,000 deltas arriving as fast as the fake can send them all reach the panel, in order', async () => {
    const { page } = session;
    await openFile(page, 'big.prompt.json');
    const t0 = Date.now();
    await runCommand(page, 'Promptwright: Send Request');
    const p = await waitRun(page, 'big.prompt.json', 'done', 60000);
    const words = (await p.locator('.block-text').innerText()).trim().split(/\s+/);
    assert.equal(words.length, 20000);
    assert.equal(words[0], 'w0');
    assert.equal(words[19999], 'w19999');
    assert.ok(
      words.every((w, i) => w === `w${i}`),
      'every delta, in order',
    );
    console.log(`      (20,000 deltas rendered in ${Date.now() - t0} ms including the round trip)`);
  });

  it('a tool call answered in the panel: Continue streams the next turn, Append Conversation undoes', async () => {
    const { page } = session;
    await openFile(page, 'agent.prompt.yaml');
    const before = await editorText(page);
    await runCommand(page, 'Promptwright: Send Request');
    const p = await waitRun(page, 'agent.prompt.yaml', 'done');
    const call = p.locator('#calls .tool-call');
    assert.equal(await call.count(), 1);
    assert.match(await call.locator('.tool-name').innerText(), /^lookup_order$/);
    assert.deepEqual(JSON.parse(await call.locator('.tool-input').innerText()), { order_id: '1234' });
    const go = p.locator('#calls .btn.continue');
    assert.ok(await go.isDisabled(), 'Continue waits for every answer');
    // Answer…: type the answer (a quick pick offers the workspace's files too)
    await call.locator('.btn.answer').click();
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Type the answer' }).waitFor();
    await answerInput(page, 'Type the answer');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'lookup_order' }).waitFor();
    await answerInput(page, '<b>shipped</b> yesterday');
    await call.locator('.tool-answer', { hasText: '<b>shipped</b> yesterday' }).waitFor({ timeout: 10000 });
    assert.equal(await p.locator('#calls b').count(), 0, 'the answer is text, not markup');
    const sent = ui.fake.requests.length;
    await go.click();
    await p.locator('.block-text', { hasText: 'Here is what I found: <b>shipped</b> yesterday.' }).waitFor();
    await p.locator('#meta-status', { hasText: 'done' }).waitFor();
    // the second turn's request: the reply, then a user turn of the tool_result for its call (ids matching)
    const second = ui.fake.requests.slice(sent).filter(r => r.path === '/v1/messages');
    assert.equal(second.length, 1);
    const messages = second[0].body.messages;
    assert.equal(messages.length, 3);
    const use = messages[1].content.find(b => b.type === 'tool_use');
    assert.deepEqual(use.input, { order_id: '1234' });
    assert.deepEqual(messages[2], {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: use.id, content: '<b>shipped</b> yesterday' }],
    });
    // the trajectory: the first turn with its call and answer above the final reply
    assert.equal(await p.locator('#history .turn').count(), 1);
    assert.match(await p.locator('#history .turn .tool-answer').innerText(), /shipped/);
    assert.equal(await p.locator('#calls .tool-call').count(), 0);
    await page.screenshot({ path: path.join(ui.results, 'panel-tools-dark.png') });
    await p.locator('#calls .btn.append-conversation').click();
    await page.locator('.editor-group-container.active .view-lines', { hasText: 'Here is what I found' }).waitFor();
    const after = await editorText(page);
    assert.match(after, /tool_use_id: toolu_fake_1_1/);
    assert.match(after, /content: "?<b>shipped<\/b> yesterday"?/);
    await page.keyboard.press('Control+z');
    await page.waitForFunction(
      b =>
        document.querySelector('.editor-group-container.active .view-lines')?.innerText.replace(/\u00a0/g, ' ') === b,
      before,
      { timeout: 10000 },
    );
  });

  it('looks at home in a light theme too', async () => {
    const { page } = session;
    await openFile(page, 'chat.prompt.yaml');
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await runCommand(page, 'Promptwright: Send Request');
    await waitRun(page, 'chat.prompt.yaml', 'done');
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(ui.results, 'panel-light.png') });
    const bg = await panel(page)
      .locator('body')
      .evaluate(b => getComputedStyle(b).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g).map(Number);
    assert.ok(r + g + b > 600, `light background expected, got ${bg}`);
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  });
});
