// Completion and hover in the real extension host, in JSON and YAML request, count and case files: Promptwright's
// own, from the zod schema (the language server's too), whose Markdown descriptions render (no literal backticks).
// The files are Promptwright's by the settings' patterns, and nothing else answers there: no generated JSON Schema.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, setSetting, waitFor, workspaceUri } from './helpers';

async function write(name: string, text: string): Promise<vscode.TextDocument> {
  const uri = workspaceUri('assist-suite', name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** The completion items at a position (waits for the providers to answer). */
async function labelsAt(doc: vscode.TextDocument, at: vscode.Position): Promise<vscode.CompletionItem[]> {
  return waitFor('completions', async () => {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      at,
    );
    return list.items.length ? list.items : undefined;
  });
}

const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

/** The hover's Markdown at a position. */
async function hoverAt(doc: vscode.TextDocument, at: vscode.Position): Promise<string> {
  return waitFor('a hover', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    const text = hovers
      .flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
      .join('\n');
    return text || undefined;
  });
}

const endOf = (doc: vscode.TextDocument, text: string) => doc.positionAt(doc.getText().indexOf(text) + text.length);
const inside = (doc: vscode.TextDocument, text: string) => doc.positionAt(doc.getText().indexOf(text) + 1);

describe('completion and hover from the schema (real extension host)', () => {
  before(async () => {
    await api();
    await vscode.workspace.fs.createDirectory(workspaceUri('assist-suite'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceUri('assist-suite'), { recursive: true });
  });

  it('the settings say which files are served: a request of any name gets completion, other JSON none', async () => {
    const text = '{\n  "model": "model-opus-4-7",\n  \n}\n';
    const plain = await write('settings.json', text);
    const inObject = new vscode.Position(2, 2);
    const none = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      plain.uri,
      inObject,
    );
    assert.ok(!none.items.some(i => label(i) === 'max_tokens'), none.items.map(label).join(','));
    const restore = await setSetting('requestFilePatterns', ['**/assist-suite/*.body.json']);
    try {
      const doc = await write('greeting.body.json', text);
      // VS Code's JSON service offers `$schema` in any JSON object: the rest are ours, required fields first
      const fields = (await labelsAt(doc, inObject)).map(label).filter(l => l !== '$schema');
      assert.deepEqual(fields.slice(0, 2), ['max_tokens', 'messages'], fields.join(','));
      assert.ok(!fields.includes('model'), 'a field already there is not offered again');
    } finally {
      await restore();
    }
  });

  it("YAML: a field's values, and the fields a content block of its type takes", async () => {
    const doc = await write(
      'assist.prompt.yaml',
      'model: model-opus-4-7\nmax_tokens: 100\nmessages:\n  - role: us\n    content:\n      - type: text\n' +
        '        text: Hi\n        \n',
    );
    const values = await labelsAt(doc, endOf(doc, 'role: us'));
    const user = values.find(i => label(i) === 'user');
    assert.ok(user && values.some(i => label(i) === 'assistant'), values.map(label).join(','));
    assert.equal(user.kind, vscode.CompletionItemKind.Value);
    assert.equal(doc.getText(user.range as vscode.Range), 'us', 'what was typed is replaced');
    const fields = await labelsAt(doc, new vscode.Position(7, 8));
    const names = fields.filter(i => i.kind === vscode.CompletionItemKind.Property).map(label);
    assert.deepEqual(names.sort(), ['cache_control', 'citations']);
  });

  it('YAML: hover shows the field description as Markdown (code spans, no literal backticks)', async () => {
    const doc = await write('hover.prompt.yaml', 'model: model-opus-4-7\nmax_tokens: 100\nmessages:\n  - role: user\n');
    const md = await hoverAt(doc, inside(doc, 'role'));
    assert.match(md, /`user` or `assistant`/);
    assert.doesNotMatch(md, /\\`/, 'no escaped backtick, which would show as a literal one');
  });

  it('YAML case files: the assertion kinds', async () => {
    await write(
      'ask.prompt.yaml',
      'model: model-opus-4-7\nmax_tokens: 64\nmessages:\n  - role: user\n    content: Hi\n',
    );
    const doc = await write(
      'ask.cases.yaml',
      'request: ask.prompt.yaml\ncases:\n  - name: one\n    assert:\n      - \n',
    );
    const kinds = (await labelsAt(doc, new vscode.Position(4, 8))).map(label);
    assert.ok(kinds.includes('contains') && kinds.includes('stop_reason'), kinds.join(','));
  });

  it('JSON: hover renders the Markdown description, no literal backticks', async () => {
    const doc = await write(
      'hover.prompt.json',
      '{\n  "model": "model-opus-4-7",\n  "max_tokens": 100,\n  "messages": [{ "role": "user", "content": "Hi" }]\n}\n',
    );
    const md = await hoverAt(doc, inside(doc, '"role"'));
    assert.match(md, /`user` or `assistant`/);
    assert.doesNotMatch(md, /\\`/);
  });

  it('JSON count files: the fields a content block takes, and no max_tokens (count_tokens takes none)', async () => {
    const doc = await write(
      'assist.count.json',
      '{\n  "model": "model-opus-4-7",\n  "messages": [\n' +
        '    { "role": "user", "content": [{ "type": "text", "text": "Hi" }] }\n  ]\n}\n',
    );
    const fields = (await labelsAt(doc, doc.positionAt(doc.getText().indexOf('"text": "Hi"')))).map(label);
    assert.ok(
      fields.some(l => l.includes('cache_control')),
      fields.join(','),
    );
    const top = (await labelsAt(doc, new vscode.Position(2, 2))).map(label);
    assert.ok(top.includes('system') && !top.includes('max_tokens'), top.join(','));
  });
});
