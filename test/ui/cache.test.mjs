// UI suite: cache breakpoints as a person sees them. A request file with four breakpoints shows a CodeLens
// above each (the prefix it caches, counted; its ttl; the model's minimum, ✓ or ✗), the README's picture is
// taken; then Send Request and Re-run Request: the panel's usage line says the first run wrote the cache and the
// second read it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ui } from './context.mjs';
import { runCommand, workbenchSession } from './drive.mjs';

const FILE = 'support-cached.prompt.yaml';
const RULE =
  'Orders ship within two working days; returns are free for thirty days; refunds reach the card within five ' +
  'working days; a damaged parcel is replaced at once, without sending it back. ';
const HANDBOOK =
  'You are the support assistant of a small online shop. Answer from the handbook below; when it does not say, ' +
  `say so and offer to hand the question to a person. Handbook: ${RULE.repeat(30)}`;
const REQUEST = `# The support assistant: tools and handbook cached for an hour, the conversation for five minutes.
model: model-sonnet-4-5
max_tokens: 1024
tools:
  - name: lookup_order
    description: Look up an order by its number.
    input_schema:
      type: object
      properties:
        order: { type: string }
    cache_control: { type: ephemeral, ttl: 1h }
system:
  - type: text
    text: ${JSON.stringify(HANDBOOK)}
    cache_control: { type: ephemeral, ttl: 1h }
messages:
  - role: user
    content:
      - type: text
        text: "Earlier: my order 1234 left the warehouse on Monday."
        cache_control: { type: ephemeral }
      - type: text
        text: Where is my order now?
cache_control: { type: ephemeral }
`;

const panel = page => page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');

describe('cache breakpoints (DOM)', function () {
  // the README's picture is taken at a common laptop size
  const s = workbenchSession(FILE, {
    withApiKey: true,
    size: { width: 1280, height: 800 },
    folder: () => {
      const folder = ui.freshWorkspace();
      fs.writeFileSync(path.join(folder, FILE), REQUEST);
      return folder;
    },
  });

  it('a CodeLens above each breakpoint: its counted prefix, ttl and minimum; the picture', async () => {
    const { page } = s;
    await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'View: Hide Secondary Side Bar');
    const lenses = page.locator('.editor-group-container .monaco-editor .codelens-decoration a', {
      hasText: /^cache breakpoint/,
    });
    // counted by the service: no "≈" left
    await page.waitForFunction(
      () => {
        const all = [...document.querySelectorAll('.monaco-editor .codelens-decoration a')]
          .map(a => a.textContent ?? '')
          .filter(t => t.startsWith('cache breakpoint'));
        return all.length === 4 && all.every(t => /prefix [\d,]+ tokens/.test(t));
      },
      null,
      { timeout: 60000 },
    );
    const titles = await lenses.allInnerTexts();
    assert.match(titles[0], /^cache breakpoint 1 of 4 · prefix \d+ tokens · ttl 1h · caches from 1,024 ✗$/);
    assert.match(titles[1], /^cache breakpoint 2 of 4 · prefix [\d,]+ tokens · ttl 1h · caches from 1,024 ✓$/);
    assert.match(titles[2], /^cache breakpoint 3 of 4 · prefix [\d,]+ tokens · ttl 5m · caches from 1,024 ✓$/);
    assert.match(
      titles[3],
      /^cache breakpoint 4 of 4 \(automatic\) · prefix [\d,]+ tokens · ttl 5m · caches from 1,024 ✓$/,
    );
    // the tool alone is under the minimum: a warning squiggle at its cache_control
    await page.locator('.editor-group-container .monaco-editor .squiggly-warning').first().waitFor({ timeout: 20000 });
    await page.screenshot({ path: path.join(ui.results, 'cache.png') });
  });

  it('Send, then Re-run: the panel says the first run wrote the cache and the second read it', async () => {
    const { page } = s;
    await runCommand(page, 'Promptwright: Send Request');
    const p = panel(page);
    await p.locator(`#meta[data-file="${FILE}"]`).waitFor({ timeout: 30000 });
    await p.locator('#meta-status', { hasText: 'done' }).waitFor({ timeout: 30000 });
    assert.match(
      await p.locator('#usage .usage-words').innerText(),
      /^[\d,]+ input tokens \([\d,]+ written to it, [\d,]+ for 5 minutes and [\d,]+ for 1 hour\) and \d+ output tokens\.$/,
    );
    const runs = ui.fake.requests.filter(r => r.path === '/v1/messages').length;
    await runCommand(page, 'Promptwright: Re-run Request');
    await p.locator('#usage .usage-words', { hasText: 'read from the cache' }).waitFor({ timeout: 30000 });
    assert.equal(ui.fake.requests.filter(r => r.path === '/v1/messages').length, runs + 1);
    assert.match(
      await p.locator('#usage .usage-words').innerText(),
      /^[\d,]+ input tokens \([\d,]+ read from the cache: \d+% of the input\) and \d+ output tokens\.$/,
    );
    assert.match(await p.locator('#meta .strip-item.cache').innerText(), /^\d+% from cache$/);
    await page.screenshot({ path: path.join(ui.results, 'cache-rerun.png') });
  });
});
