// UI suite: the response panel answers a reply's tool calls from a case file naming the request (Use Fixture), and
// Run to End loops with those answers until the model stops calling tools (or Cancel), each turn with its cost.
// The fake plays scripted tool loops (test/fake/toolScripts.ts): `once` calls lookup_order then answers with
// what it was told; `order` calls lookup_order, then get_weather, then answers; `forever` calls lookup_order in
// every turn; after a tool_result with is_error the model gives up, quoting it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { notification, openFile, runCommand, workbenchSession } from './drive.mjs';

const panel = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
const messages = since => ui.fake.requests.slice(since).filter(r => r.method === 'POST' && r.path === '/v1/messages');

const TOOLS = [
  'tools:',
  '  - name: lookup_order',
  '    input_schema: { type: object, properties: { order_id: { type: string } } }',
  '  - name: get_weather',
  '    input_schema: { type: object, properties: { city: { type: string } } }',
];
const request = question => [
  'model: model-sonnet-4-6',
  'max_tokens: 100',
  ...TOOLS,
  'messages:',
  '  - role: user',
  `    content: "${question}"`,
];
const caseFile = (name, lines) => [`request: ${name}.prompt.yaml`, ...lines, 'cases:', '  - name: one', ''];

/** Sends the open request file and waits for its reply in the panel. */
async function send(page, file) {
  await openFile(page, file);
  await runCommand(page, 'Promptwright: Send Request');
  const p = panel(page);
  await p.locator(`#meta[data-file="${file}"]`).waitFor({ timeout: 30000 });
  await p.locator('#meta-status', { hasText: 'done' }).waitFor({ timeout: 30000 });
  return p;
}

describe('response panel: fixtures and Run to End (DOM)', function () {
  const s = workbenchSession('agent.prompt.yaml', { withApiKey: true });
  // the workspace's files, written once it is open: the case files are found as they appear
  before(() => {
    const write = (name, lines) => fs.writeFileSync(path.join(s.folder, name), lines.join('\n'));
    // Use Fixture: the case file's own entry for get_weather, the recorded one (with is_error) for lookup_order
    write('failing.prompt.yaml', request('#script=once Where is order 1234?'));
    write('failing.cases.yaml', caseFile('failing', ['tools:', '  get_weather: "Sunny"']));
    write('failing.fixtures.yaml', [
      'tools:',
      '  lookup_order:',
      '    - when: { order_id: "1234" }',
      '      result: "order service down"',
      '      is_error: true',
      '',
    ]);
    // Run to End: two turns of calls, then the answer
    write('trip.prompt.yaml', request('#script=order Where is order 1234?'));
    write(
      'trip.cases.yaml',
      caseFile('trip', ['tools:', '  lookup_order: { result: { status: shipped } }', '  get_weather: "Sunny, 21 C"']),
    );
    // a call no entry answers, and a model that never stops calling
    write('lost.prompt.yaml', request('#script=once Where is order 999?'));
    write(
      'lost.cases.yaml',
      caseFile('lost', ['tools:', '  lookup_order: [{ when: { order_id: "1234" }, result: x }]']),
    );
    write('circles.prompt.yaml', request('#script=forever Where is order 5?'));
    write('circles.cases.yaml', caseFile('circles', ['max-turns: 3', 'tools:', '  lookup_order: "not yet"']));
    write('slowloop.prompt.yaml', request('#script=forever #slow=150 Where is order 5?'));
    write('slowloop.cases.yaml', caseFile('slowloop', ['tools:', '  lookup_order: "not yet"']));
  });

  it('Use Fixture answers a call from the recorded fixtures, and their is_error reaches the tool_result', async () => {
    const { page } = s;
    const p = await send(page, 'failing.prompt.yaml');
    const call = p.locator('#calls .tool-call');
    await call.locator('.btn.use-fixture').click();
    await call.locator('.tool-answer.is-error', { hasText: 'order service down' }).waitFor({ timeout: 15000 });
    assert.equal(
      await call.locator('.tool-from').innerText(),
      'Answer · from failing.cases.yaml (recorded) · is_error',
    );
    const since = ui.fake.requests.length;
    await p.locator('#calls .btn.continue').click();
    await p.locator('.block-text', { hasText: 'I could not finish: order service down.' }).waitFor();
    const [second] = messages(since);
    const results = second.body.messages.at(-1);
    assert.deepEqual(results.content, [
      { type: 'tool_result', tool_use_id: 'toolu_fake_1_1', content: 'order service down', is_error: true },
    ]);
  });

  it('Run to End answers every turn from the fixtures; each turn shows its usage and cost', async () => {
    const { page } = s;
    const p = await send(page, 'trip.prompt.yaml');
    const since = ui.fake.requests.length;
    await p.locator('#calls .btn.run-to-end').click();
    await p
      .locator('#blocks .block-text', { hasText: 'Here is what I found: {"status":"shipped"}; Sunny, 21 C.' })
      .waitFor({ timeout: 30000 });
    await p.locator('#meta-status', { hasText: 'done' }).waitFor();
    // two more requests: the second turn's and the third's, each with the turn before answered from the file
    const sent = messages(since);
    assert.equal(sent.length, 2);
    assert.deepEqual(sent[1].body.messages.at(-1).content, [
      { type: 'tool_result', tool_use_id: 'toolu_fake_2_1', content: 'Sunny, 21 C' },
    ]);
    const titles = await p.locator('#history .turn .turn-title').allInnerTexts();
    assert.equal(titles.length, 2);
    // model-sonnet-4-6's built-in price: each turn's tokens and what they cost
    for (const [i, t] of titles.entries())
      assert.match(t, new RegExp(`^Turn ${i + 1} · \\d+ in · \\d+ out · \\$0\\.\\d+$`));
    assert.deepEqual(await p.locator('#history .turn .tool-from').allInnerTexts(), [
      'Answer · from trip.cases.yaml (file)',
      'Answer · from trip.cases.yaml (file)',
    ]);
    // the README's picture, in the dark theme and the light one (with UPDATE_DOCS_IMAGES=1 also in docs/images/)
    for (const theme of ['dark', 'light']) {
      if (theme === 'light') {
        await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
        await page.waitForTimeout(1000);
      }
      const png = await page.screenshot({ path: path.join(ui.results, `panel-run-to-end-${theme}.png`) });
      if (process.env.UPDATE_DOCS_IMAGES)
        fs.writeFileSync(path.join(ui.root, 'docs', 'images', `agents-${theme}.png`), png);
    }
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  });

  it('Run to End stops at a call nothing answers, naming the tool and input; one recorded since counts', async () => {
    const { page } = s;
    const p = await send(page, 'lost.prompt.yaml');
    const since = ui.fake.requests.length;
    await p.locator('#calls .btn.run-to-end').click();
    await notification(page, 'no answer for lookup_order {"order_id":"999"} in lost.cases.yaml');
    assert.equal(messages(since).length, 0);
    // the call waits for an answer, its buttons back; an answer recorded since is read on the next try
    await runCommand(page, 'Notifications: Clear All Notifications');
    fs.writeFileSync(
      path.join(s.folder, 'lost.fixtures.yaml'),
      'tools:\n  lookup_order:\n    - when: { order_id: "999" }\n      result: "no such order"\n      is_error: true\n',
    );
    await p.locator('#calls .btn.run-to-end:not([disabled])').click();
    await p.locator('#blocks .block-text', { hasText: 'I could not finish: no such order.' }).waitFor();
    assert.equal(messages(since).length, 1);
  });

  it("Run to End stops at the case file's max-turns when the model keeps calling", async () => {
    const { page } = s;
    const p = await send(page, 'circles.prompt.yaml');
    const since = ui.fake.requests.length;
    await p.locator('#calls .btn.run-to-end').click();
    await notification(page, 'max-turns 3 (circles.cases.yaml) reached');
    // requests 2 and 3: the third still calls lookup_order, and nothing more is sent
    assert.equal(messages(since).length, 2);
    assert.equal(await p.locator('#history .turn').count(), 2);
    await runCommand(page, 'Notifications: Clear All Notifications');
  });

  it('Cancel stops Run to End mid-loop: the turn streaming ends cancelled and nothing more is sent', async () => {
    const { page } = s;
    const p = await send(page, 'slowloop.prompt.yaml');
    await p.locator('#calls .btn.run-to-end').click();
    // the second turn streams, slowly: Cancel
    await p.locator('#history .turn').first().waitFor({ timeout: 20000 });
    await runCommand(page, 'Promptwright: Cancel Request');
    await p.locator('#meta-status', { hasText: 'cancelled' }).waitFor({ timeout: 15000 });
    const sent = ui.fake.requests.length;
    await page.waitForTimeout(2000);
    assert.equal(ui.fake.requests.length, sent, 'nothing is sent after Cancel');
    assert.equal(await p.locator('#history .turn').count(), 1);
  });
});
