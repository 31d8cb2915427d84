// The service's model list in the real extension host, against the fake (whose list has model-quill-1 and
// model-lyra-2, which the built-in table does not know): completion and hover of `model`, Choose Model… as
// one undoable edit, the request file checked against the list, the status bar's share of its window, the
// list kept for a new window (no call), and what is used when the service cannot be reached.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Features } from '../../src/features';
import { fakeModels } from '../fake/models';
import { startFake, type Fake } from '../fake/server';
import { api, scripted, setSetting, useFake, waitFor, workspaceUri } from './helpers';

const listCalls = (fake: Fake) => fake.requests.filter(r => r.path === '/v1/models').length;
const labelOf = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

async function write(name: string, text: string): Promise<vscode.TextDocument> {
  const uri = workspaceUri('models-test', name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const doc = await vscode.workspace.openTextDocument(uri);
  // a document another test left open with this name takes the new text from disk a moment later
  await waitFor(`${name} to hold what was written`, () => doc.getText() === text);
  await vscode.window.showTextDocument(doc);
  return doc;
}
const request = (model: string, extra = '') =>
  `{\n  "model": "${model}",\n  "max_tokens": 1024,${extra}\n  "messages": [{ "role": "user", "content": "Hi" }]\n}\n`;
/** The position just after `what` in the document. */
const past = (doc: vscode.TextDocument, what: string) => doc.positionAt(doc.getText().indexOf(what) + what.length);

async function complete(doc: vscode.TextDocument, at: vscode.Position): Promise<vscode.CompletionItem[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    doc.uri,
    at,
  );
  // ours only: the JSON language service and word-based suggestions offer other things
  return list.items.filter(i => typeof i.detail === 'string' && / context · max_tokens/.test(i.detail));
}
async function hoverText(doc: vscode.TextDocument, at: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
  return hovers
    .flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value)))
    .join('\n')
    .replace(/\\(.)/g, '$1');
}
const codes = (doc: vscode.TextDocument) =>
  vscode.languages
    .getDiagnostics(doc.uri)
    .map(d => (typeof d.code === 'object' ? String(d.code.value) : String(d.code)))
    .sort();

describe('models from the service (real extension host)', () => {
  const env = useFake({ apiKey: 'sk-models-test' });
  let fake: Fake;
  let f: Features;
  before(async () => {
    fake = env.fake;
    f = await (await api()).features();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceUri('models-test'), { recursive: true, useTrash: false });
  });

  it('completion of `model` in JSON lists the service’s models: name, context window, max_tokens', async () => {
    // a new window's first need, whichever test ran before: nothing in memory and nothing kept
    const state = (f.models as unknown as { state: vscode.Memento }).state;
    for (const k of state.keys()) if (k.startsWith('promptwright.models.')) await state.update(k, undefined);
    f.models.reset();
    fake.clear();
    const doc = await write('complete.prompt.json', request('model-opus-4-7'));
    const items = await complete(doc, past(doc, '"model": "model-op'));
    const quill = items.find(i => labelOf(i) === 'model-quill-1-20261101');
    assert.ok(quill, items.map(labelOf).join(', '));
    assert.equal((quill.label as vscode.CompletionItemLabel).description, 'Quill 1');
    assert.equal(quill.detail, '400,000 context · max_tokens up to 32,000');
    assert.equal(quill.insertText, '"model-quill-1-20261101"');
    // the range is the whole string, quotes included: the choice replaces the value
    const range = quill.range as vscode.Range;
    assert.equal(doc.getText(range), '"model-opus-4-7"');
    assert.ok(
      items.some(i => labelOf(i) === 'model-haiku-4-5'),
      'the table’s aliases of listed models',
    );
    assert.ok(listCalls(fake) >= 1, 'the list came from the service');
  });

  it('completion in YAML, at a value being typed', async () => {
    const doc = await write(
      'complete.prompt.yaml',
      'model: model-l\nmax_tokens: 1024\nmessages:\n  - role: user\n    content: Hi\n',
    );
    const items = await complete(doc, new vscode.Position(0, 'model: model-l'.length));
    const lyra = items.find(i => labelOf(i) === 'model-lyra-2-20261015');
    assert.ok(lyra);
    assert.equal(lyra.insertText, 'model-lyra-2-20261015');
    assert.equal(doc.getText(lyra.range as vscode.Range), 'model-l');
    assert.equal((await complete(doc, new vscode.Position(1, 'max_tokens: 10'.length))).length, 0, 'only at model');
  });

  it('hover on `model` shows the model’s limits and capabilities, and where they come from', async () => {
    const doc = await write('hover.prompt.json', request('model-lyra-2'));
    const text = await hoverText(doc, past(doc, '"model": "model-ly'));
    assert.match(text, /\*\*Lyra 2\*\* `model-lyra-2` — alias of `model-lyra-2-20261015`/);
    assert.match(text, /Context window: \*\*2,000,000\*\* tokens · max_tokens up to 256,000/);
    assert.match(text, /- thinking: adaptive/);
    assert.match(text, /- effort: low, medium, high/);
    assert.match(text, /- PDF input: no/);
    assert.match(text, /From the service's model list/);
    assert.doesNotMatch(await hoverText(doc, past(doc, '"max_tok')), /Context window/, 'nothing of ours elsewhere');
  });

  it('the request file is checked against the list: model-quill-1 is known, and does not think', async () => {
    const doc = await write('quill.prompt.json', request('model-quill-1', '\n  "thinking": { "type": "adaptive" },'));
    const found = await waitFor('the list’s rules', () => {
      const c = codes(doc);
      return c.includes('thinking-unsupported') ? c : undefined;
    });
    assert.ok(!found.includes('unknown-model'), found.join(', '));
  });

  it('the status bar’s share of the context window is the list’s max_input_tokens', async () => {
    const a = await api();
    await write('window.prompt.json', request('model-quill-1'));
    const tip = await waitFor('a count with the list’s window', () => {
      const t = a.tokens.item.tooltip;
      const value = t instanceof vscode.MarkdownString ? t.value : '';
      return a.tokens.state.kind === 'count' && /of the 400k context window/.test(value) ? value : undefined;
    });
    assert.match(tip, /Model: `model-quill-1`/);
  });

  it('Choose Model… replaces `model` with one undoable edit', async () => {
    const doc = await write('choose.prompt.json', request('model-opus-4-7'));
    const before = doc.getText();
    const seen: string[] = [];
    const original = f.modelEditing.prompts;
    f.modelEditing.prompts = scripted(['model-lyra-2-20261015'], seen);
    try {
      await vscode.commands.executeCommand('promptwright.chooseModel');
    } finally {
      f.modelEditing.prompts = original;
    }
    assert.match(seen[0]!, /^pick: Choose Model: model-quill-1-20261101\|model-lyra-2-20261015\|/);
    assert.equal(doc.getText(), before.replace('"model-opus-4-7"', '"model-lyra-2-20261015"'));
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), before);
  });

  it('Choose Model… in YAML keeps the rest of the file; a file with no model gets one', async () => {
    const yaml = await write(
      'choose.prompt.yaml',
      '# support bot\nmodel: model-opus-4-7 # the default\nmax_tokens: 10\n',
    );
    const original = f.modelEditing.prompts;
    try {
      f.modelEditing.prompts = scripted(['model-sonnet-5']);
      await vscode.commands.executeCommand('promptwright.chooseModel');
      assert.equal(yaml.getText(), '# support bot\nmodel: model-sonnet-5 # the default\nmax_tokens: 10\n');
      const none = await write('nomodel.prompt.json', '{\n  "max_tokens": 10,\n  "messages": []\n}\n');
      f.modelEditing.prompts = scripted(['model-quill-1-20261101']);
      await vscode.commands.executeCommand('promptwright.chooseModel');
      assert.deepEqual(JSON.parse(none.getText()), { model: 'model-quill-1-20261101', max_tokens: 10, messages: [] });
    } finally {
      f.modelEditing.prompts = original;
    }
  });

  it('kept 24 hours: a new window of the same address and key asks nothing; the key is never kept', async () => {
    await f.models.load({ network: true });
    fake.clear();
    f.models.reset(); // what a new window starts with: nothing in memory, the global state as it is
    const doc = await write('again.prompt.json', request('model-quill-1'));
    const items = await complete(doc, past(doc, '"model": "model-q'));
    assert.ok(items.some(i => labelOf(i) === 'model-quill-1-20261101'));
    assert.match(await hoverText(doc, past(doc, '"model": "model-q')), /From the service's model list, kept from/);
    const original = f.modelEditing.prompts;
    f.modelEditing.prompts = scripted([undefined]); // Choose Model…, then Escape
    try {
      await vscode.commands.executeCommand('promptwright.chooseModel');
    } finally {
      f.modelEditing.prompts = original;
    }
    assert.equal(listCalls(fake), 0, fake.requests.map(r => r.path).join(', '));
    // the global state holds the list under a hash: neither its keys nor its values hold the API key
    const state = (f.models as unknown as { state: vscode.Memento }).state;
    const kept = state.keys().filter(k => k.startsWith('promptwright.models.'));
    assert.ok(kept.length >= 1);
    for (const k of kept) {
      assert.ok(!k.includes(fake.apiKey));
      assert.ok(!JSON.stringify(state.get(k)).includes(fake.apiKey));
    }
  });

  it('Refresh Models asks again; with the service down, the list kept last stays in use', async () => {
    fake.clear();
    await vscode.commands.executeCommand('promptwright.refreshModels');
    assert.equal(listCalls(fake), 1);
    assert.equal(f.models.current?.source, 'service');
    const a = await api();
    const shown: string[] = [];
    const sub = a.api.onDidShowError(t => shown.push(t));
    const restore = await setSetting('maxRetries', 0);
    fake.fail({ path: '/v1/models', status: 529 });
    try {
      await vscode.commands.executeCommand('promptwright.refreshModels');
    } finally {
      sub.dispose();
      fake.clear();
      await restore();
    }
    assert.match(shown[0] ?? '', /^Refresh Models: overloaded_error \(529\): injected 529 \[request-id req_fake_/);
    assert.equal(f.models.current?.source, 'kept');
    const doc = await write('offline.prompt.json', request('model-quill-1'));
    assert.ok((await complete(doc, past(doc, '"model": "model-q'))).some(i => labelOf(i) === 'model-quill-1-20261101'));
    assert.match(await hoverText(doc, past(doc, '"model": "model-q')), /the service cannot be reached/);
  });

  it('with nothing kept and the service unreachable: the built-in table', async () => {
    const gone = await startFake({ apiKey: 'sk-models-test' });
    const url = gone.url;
    await gone.close();
    const restoreRetries = await setSetting('maxRetries', 0);
    const restoreUrl = await setSetting('baseUrl', url);
    try {
      const doc = await write('table.prompt.json', request('model-opus-4-7'));
      const items = await complete(doc, past(doc, '"model": "model-op'));
      const ids = items.map(labelOf);
      assert.ok(ids.includes('model-opus-4-7') && ids.includes('model-sonnet-5'), ids.join(', '));
      assert.ok(!ids.some(i => i.startsWith('model-quill')), 'nothing of the fake’s list');
      assert.equal(f.models.current?.source, 'builtin');
      assert.match(await hoverText(doc, past(doc, '"model": "model-op')), /From the built-in table \(no model list/);
    } finally {
      await restoreUrl();
      await restoreRetries();
    }
  });
});

/**
 * A model id meant to make a hover run a command and fetch a remote image, were it read as Markdown (its backticks
 * would end a code span it is set in).
 */
const HOSTILE = 'x` [run](command:workbench.action.terminal.new) ![](https://evil.example/x.png) `';

/** Markdown as VS Code's own Markdown extension renders it (markdown-it, as the preview does). */
async function rendered(md: vscode.MarkdownString): Promise<string> {
  return vscode.commands.executeCommand<string>('markdown.api.render', md.value);
}

/** A rendered page shows `HOSTILE` as text: no image, no link but to the commands `allowed`. */
function assertText(html: string, allowed: readonly string[] = []): void {
  assert.doesNotMatch(html, /<img/i, html);
  const links = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map(m => m[1]!);
  const commands = links.filter(l => l.startsWith('command:')).map(l => l.slice('command:'.length).split('?')[0]);
  assert.deepEqual(
    commands.filter(c => !allowed.includes(c!)),
    [],
    html,
  );
  assert.ok(html.includes('](command:workbench.action.terminal.new)'), `the id shown as it is: ${html}`);
}

describe('text from files and the service in hovers and tooltips (real extension host)', () => {
  const [quill, ...rest] = fakeModels();
  useFake({
    apiKey: 'sk-models-test',
    models: [{ ...quill!, id: `model-evil-1-${HOSTILE}`, display_name: `Evil ${HOSTILE}` }, ...rest],
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceUri('models-test'), { recursive: true, useTrash: false });
  });

  it('a model id like x](command:…) ![](https://…) shows as text in the hover and the status bar', async () => {
    const doc = await write('hostile.prompt.json', request(HOSTILE));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      past(doc, '"model": "x'),
    );
    const ours = hovers
      .flatMap(h => h.contents)
      .filter((c): c is vscode.MarkdownString => c instanceof vscode.MarkdownString && /is in neither/.test(c.value));
    assert.equal(ours.length, 1, 'the model hover');
    assert.ok(!ours[0]!.isTrusted, 'a hover runs no command');
    assertText(await rendered(ours[0]!));
    // the status bar's tooltip is trusted, with its own commands only
    const a = await api();
    const tip = await waitFor('the status bar naming the model', () => {
      const t = a.tokens.item.tooltip;
      return t instanceof vscode.MarkdownString && t.value.includes('terminal.new') ? t : undefined;
    });
    const enabled = (tip.isTrusted as { enabledCommands: string[] }).enabledCommands;
    assert.ok(!enabled.includes('workbench.action.terminal.new'));
    assertText(await rendered(tip), enabled);
  });

  it("a model's id and name from the service show as text in the completion's details", async () => {
    const doc = await write('complete.prompt.json', request('model-evil'));
    const items = await complete(doc, past(doc, '"model": "model-evil'));
    const evil = items.find(i => labelOf(i).startsWith('model-evil-1'));
    assert.ok(evil?.documentation instanceof vscode.MarkdownString, 'its details');
    assert.ok(!evil.documentation.isTrusted);
    assertText(await rendered(evil.documentation));
  });
});
