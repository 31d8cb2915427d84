// Cache-aware authoring in the real extension host, against the fake: the breakpoint CodeLenses (exact titles,
// counted with count_tokens), the hover on a marker, the warning for a prefix under the model's minimum with
// counting on (counted) and off (an estimate, said to be one), and the response panel's cache line after a run
// (writes) and a re-run (reads).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MessageAccumulator } from '../../src/core/api/accumulator';
import { ApiClient } from '../../src/core/api/client';
import { usageWords } from '../../src/core/api/usage';
import type { ToResponseWebview } from '../../src/protocol/response';
import { api, setSetting, useFake, waitFor, workspaceUri } from './helpers';

const LONG = 'The handbook says the office opens at nine and closes at five. '.repeat(80);
const request = {
  model: 'model-sonnet-4-5',
  max_tokens: 50,
  tools: [
    {
      name: 'opening_hours',
      description: 'The opening hours of an office.',
      input_schema: { type: 'object', properties: { office: { type: 'string' } } },
      cache_control: { type: 'ephemeral', ttl: '1h' },
    },
  ],
  system: [{ type: 'text', text: LONG, cache_control: { type: 'ephemeral' } }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Notes: the Lisbon office moved.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'When does the office open?' },
      ],
    },
  ],
  cache_control: { type: 'ephemeral' },
};

async function open(name: string, body: object): Promise<vscode.TextDocument> {
  const uri = workspaceUri(name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(body, null, 2)}\n`));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  return doc;
}

const cacheLenses = async (doc: vscode.TextDocument) =>
  (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)).filter(
    l => l.command?.command === 'promptwright.countCacheBreakpoints',
  );
const belowMinimum = (doc: vscode.TextDocument) =>
  vscode.languages
    .getDiagnostics(doc.uri)
    .filter(d => (d.code as { value?: string } | undefined)?.value === 'cache-prefix-below-minimum');
const lineOf = (doc: vscode.TextDocument, needle: string, n = 0) => {
  let i = -1;
  for (let k = 0; k <= n; k++) i = doc.getText().indexOf(needle, i + 1);
  return doc.positionAt(i).line;
};

describe('cache breakpoints (real extension host)', () => {
  const env = useFake({ apiKey: 'sk-cache-test' }, { 'tokenCount.debounceMs': 300 });

  it("a CodeLens on each cache_control with its counted prefix, ttl and the model's minimum", async () => {
    const a = await api();
    const doc = await open('cache-lenses.prompt.json', request);
    const lenses = await waitFor('counted lenses', async () => {
      const l = await cacheLenses(doc);
      return l.length === 4 && l.every(x => /prefix [\d,]+ tokens/.test(x.command!.title)) ? l : undefined;
    });
    // what the fake counts for each prefix: tools and system as the difference they make to a minimal request
    const c = new ApiClient({ baseUrl: env.fake.url, apiKey: env.fake.apiKey, maxRetries: 0 });
    const n = async (b: object) => (await c.countTokens(b as Record<string, unknown>)).input_tokens;
    const base = { model: request.model, messages: [{ role: 'user', content: 'x' }] };
    const tools = (await n({ ...base, tools: request.tools })) - (await n(base));
    const system = (await n({ ...base, tools: request.tools, system: request.system })) - (await n(base));
    const note = await n({
      ...request,
      messages: [{ role: 'user', content: request.messages[0]!.content.slice(0, 1) }],
    });
    const whole = await n(request);
    const f = (v: number) => v.toLocaleString('en-US');
    assert.deepEqual(
      lenses.map(l => [l.range.start.line, l.command!.title]),
      [
        [
          lineOf(doc, '"cache_control"', 0),
          `cache breakpoint 1 of 4 · prefix ${f(tools)} tokens · ttl 1h · caches from 1,024 ✗`,
        ],
        [
          lineOf(doc, '"cache_control"', 1),
          `cache breakpoint 2 of 4 · prefix ${f(system)} tokens · ttl 5m · caches from 1,024 ✓`,
        ],
        [
          lineOf(doc, '"cache_control"', 2),
          `cache breakpoint 3 of 4 · prefix ${f(note)} tokens · ttl 5m · caches from 1,024 ✓`,
        ],
        // the top-level marker: at the block it applies to, the last one
        [
          lineOf(doc, '"type": "text"', 2) - 1,
          `cache breakpoint 4 of 4 (automatic) · prefix ${f(whole)} tokens · ttl 5m · caches from 1,024 ✓`,
        ],
      ],
    );
    // the last prefix is the whole request: the status bar's count
    // (the status bar may still show the file active before this one for a moment)
    const counted = () => (a.tokens.state.kind === 'count' ? (a.tokens.state as { tokens: number }).tokens : -1);
    await waitFor(`the status bar's count of ${whole}`, () => counted() === whole).catch(() => undefined);
    assert.equal(counted(), whole);
    // a second look at the unchanged file, and an edit after the breakpoints and its undo, cost no call
    const calls = a.cache.calls;
    const ed = vscode.window.activeTextEditor!;
    await ed.edit(e => e.insert(doc.positionAt(doc.getText().indexOf('When does')), 'So: '));
    await waitFor('recounted', async () => (await cacheLenses(doc))[3]?.command?.title.includes(f(whole + 1)));
    assert.equal(a.cache.calls, calls + 1, 'only the automatic prefix changed');
    await vscode.commands.executeCommand('undo');
    await new Promise(r => setTimeout(r, 800));
    assert.equal(a.cache.calls, calls + 1);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('the hover on a marker says what will be cached, for how long, and against which minimum', async () => {
    const doc = await open('cache-hover.prompt.json', request);
    await waitFor('counted', async () => (await cacheLenses(doc)).every(l => !/estimate/.test(l.command!.title)));
    const key = doc.getText().indexOf('"cache_control"', doc.getText().indexOf('"system"'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      doc.positionAt(key + 3),
    );
    const text = hovers
      .flatMap(h => h.contents)
      .map(c => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /\*\*Cache breakpoint 2 of 4\*\*/);
    assert.match(text, /caches the request up to and including system\[0\]: 1 tool definition, the system prompt's/);
    assert.match(text, /Kept for \*\*5 minutes\*\* after its last use/);
    assert.match(text, /Prefix: [\d,]+ tokens, counted by the service\./);
    assert.match(text, /`model-sonnet-4-5` caches prefixes of at least 1,024 tokens .*: this one is long enough ✓/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a prefix under the minimum: a warning at its marker, counted (counting on) or estimated (off)', async () => {
    const short = {
      model: 'model-haiku-4-5',
      max_tokens: 50,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'Hi' }],
    };
    const doc = await open('cache-short.prompt.json', short);
    const [counted] = await waitFor('a counted warning', () => {
      const d = belowMinimum(doc);
      return d.length && /counted by the service/.test(d[0]!.message) ? d : undefined;
    });
    assert.equal(counted!.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(counted!.range.start.line, lineOf(doc, '"cache_control"'));
    assert.match(
      counted!.message,
      /^Nothing will be cached at this breakpoint, and the service returns no error: its prefix is \d+ tokens \(counted by the service\), under the 4,096 tokens model-haiku-4-5 caches from\. Move the breakpoint/,
    );
    const restore = await setSetting('tokenCount.live', false);
    try {
      const [estimated] = await waitFor('an estimated warning', () => {
        const d = belowMinimum(doc);
        return d.length && /local estimate/.test(d[0]!.message) ? d : undefined;
      });
      assert.match(
        estimated!.message,
        /its prefix is about \d+ tokens \(a local estimate, about four characters a token\)/,
      );
      const [lens] = await cacheLenses(doc);
      assert.match(
        lens!.command!.title,
        /^cache breakpoint 1 of 1 · prefix ≈ \d+ tokens \(estimate\) · ttl 5m · caches from 4,096 ✗$/,
      );
      // the setting raises or lowers the minimum
      const restoreMin = await setSetting('cache.minimumTokens', { 'model-haiku-4-5': 1 });
      try {
        await waitFor('no warning', () => belowMinimum(doc).length === 0);
        assert.match((await cacheLenses(doc))[0]!.command!.title, /caches from 1 ✓$/);
      } finally {
        await restoreMin();
      }
    } finally {
      await restore();
    }
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('the response panel: cache writes on a run, reads on a re-run, in words', async () => {
    const a = await api();
    const f = await a.features();
    const posts: ToResponseWebview[] = [];
    const post = f.panel.post.bind(f.panel);
    f.panel.post = m => {
      posts.push(structuredClone(m));
      post(m);
    };
    try {
      env.fake.clear();
      await open('cache-run.prompt.json', request);
      await vscode.commands.executeCommand('promptwright.sendRequest');
      await vscode.commands.executeCommand('promptwright.rerunRequest');
      const ends = posts.filter((m): m is Extract<ToResponseWebview, { type: 'end' }> => m.type === 'end');
      assert.equal(ends.length, 2);
      // the usage the page shows: of the reply it was streamed (the end carries no second copy of it)
      const [first, second] = ends.map(e => {
        const reply = new MessageAccumulator();
        for (const m of posts)
          if (m.type === 'events' && m.runId === e.runId) for (const ev of m.events) reply.apply(ev);
        assert.equal(e.message, undefined, 'the reply is posted once, as its events');
        return reply.message!.usage;
      });
      assert.ok(first!.cache_creation_input_tokens! > 1024 && first!.cache_read_input_tokens === 0);
      assert.equal(second!.cache_read_input_tokens, first!.cache_creation_input_tokens);
      // the panel's line (webview/response/meta.ts renders usageWords of the message it is sent)
      assert.match(usageWords(first), /input tokens \([\d,]+ written to it, [\d,]+ for 5 minutes and 0 for 1 hour\)/);
      assert.match(usageWords(second), /input tokens \([\d,]+ read from the cache: \d+% of the input\)/);
      const sent = env.fake.requests.filter(r => r.path === '/v1/messages').map(r => JSON.stringify(r.body));
      assert.equal(sent.length, 2);
      assert.equal(sent[0], sent[1], 'the re-run sends the same request');
    } finally {
      f.panel.post = post;
    }
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
