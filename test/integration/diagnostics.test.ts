import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckRecord } from '../../src/core/request/records';
import type { Prompts } from '../../src/vscode/platform/prompts';
import {
  api,
  closeEditors,
  EXTENSION_ID,
  openEditor,
  removeWrittenFiles,
  restoreKeysAfterEach,
  setKey,
  setSetting,
  waitFor,
  workspaceUri,
  writeWorkspaceFile,
} from './helpers';

/** Opens a file of the workspace as the active editor. */
async function open(name: string): Promise<vscode.TextDocument> {
  return (await openEditor(name)).document;
}

const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter(d => d.source === 'Promptwright');
/** The rule name of a diagnostic (its code carries a link to RULES.md). */
const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);

describe('request file diagnostics (real extension host)', () => {
  before(async () => {
    await api();
  });
  /** files a command of the extension created */
  const created: vscode.Uri[] = [];
  // every test opens its own files; what one changed is undone (closeEditors reverts) and what it wrote removed
  afterEach(async () => {
    await closeEditors();
    await removeWrittenFiles(...created.splice(0));
  });

  it('a defective JSON file shows each problem at the expected line, with the rule name and its link', async () => {
    const doc = await open('defective.prompt.json');
    const diags = await waitFor('diagnostics', () => (ours(doc.uri).length >= 3 ? ours(doc.uri) : undefined));
    const at = (code: string) =>
      diags.filter(d => codeOf(d) === code).map(d => `${d.range.start.line + 1}:${doc.getText(d.range)}`);
    assert.deepEqual(at('temperature-with-top-p'), ['4:"temperature"', '5:"top_p"']);
    const target = (diags[0]!.code as { target: vscode.Uri }).target.toString(true);
    assert.match(target, /RULES\.md#[a-z0-9-]+$/);
    const bmp = diags.find(d => codeOf(d) === 'invalid-value')!;
    assert.equal(bmp.range.start.line + 1, 7);
    assert.equal(doc.getText(bmp.range), '"image/bmp"');
    assert.equal(bmp.severity, vscode.DiagnosticSeverity.Error);
  });

  it('the JSON language service adds no diagnostics of its own next to ours (the schema cannot fail)', async () => {
    const doc = await open('defective.prompt.json');
    await new Promise(r => setTimeout(r, 1500)); // give the JSON language server time to publish
    const others = vscode.languages.getDiagnostics(doc.uri).filter(d => d.source !== 'Promptwright');
    assert.deepEqual(
      others.map(d => `${d.source}: ${d.message}`),
      [],
    );
  });

  it('a quick fix applied through the code action changes the document (remove top_p)', async () => {
    const doc = await open('defective.prompt.json');
    const diag = await waitFor('top_p diagnostic', () =>
      ours(doc.uri).find(d => codeOf(d) === 'temperature-with-top-p' && doc.getText(d.range) === '"top_p"'),
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diag.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const remove = actions.find(a => a.title === 'Remove top_p (keep temperature)');
    assert.ok(remove?.edit, `actions: ${actions.map(a => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(remove.edit));
    assert.equal(doc.getText().includes('top_p'), false);
    assert.ok(doc.getText().includes('"temperature": 0.7'));
    await waitFor('diagnostic gone', () => !ours(doc.uri).some(d => codeOf(d) === 'temperature-with-top-p'));
    // undoable: one undo restores the file
    await vscode.commands.executeCommand('undo');
    assert.ok(doc.getText().includes('"top_p": 0.9'));
  });

  it('YAML: an effort the model lacks is fixed to the nearest supported one, keeping comments', async () => {
    const doc = await open('effort.prompt.yaml');
    const diag = await waitFor('effort diagnostic', () => ours(doc.uri).find(d => codeOf(d) === 'effort-unavailable'));
    assert.equal(diag.range.start.line + 1, 5);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diag.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find(a => a.title === 'Use effort "high"');
    assert.ok(fix?.edit);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.ok(doc.getText().includes('  effort: high\n'));
    assert.ok(doc.getText().includes('# a 1M-context model'));
  });

  it('re-validates as the author types, and clears when the problem is fixed', async () => {
    const editor = await openEditor('hello.prompt.json');
    const doc = editor.document;
    const i = doc.getText().indexOf('"user"');
    await editor.edit(e => e.replace(new vscode.Range(doc.positionAt(i), doc.positionAt(i + 6)), '"tool"'));
    const d = await waitFor('role diagnostic', () => ours(doc.uri).find(x => codeOf(x) === 'invalid-value'));
    assert.equal(doc.getText(d.range), '"tool"');
    await vscode.commands.executeCommand('undo');
    await waitFor('cleared', () => ours(doc.uri).length === 0);
  });

  it('completion inside a content block comes from the zod schema (per block type)', async () => {
    const doc = await open('defective.prompt.json');
    const line = doc.lineAt(6).text;
    const pos = new vscode.Position(6, line.indexOf('"source"'));
    const list = await waitFor('completions', async () => {
      const l = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        doc.uri,
        pos,
      );
      return l.items.length ? l : undefined;
    });
    const labels = list.items.map(i => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(
      labels.some(l => l.includes('cache_control')),
      labels.join(','),
    );
    // `citations` belongs to text blocks, not images: completion follows the block's type
    assert.ok(!labels.some(l => l.includes('citations')), labels.join(','));
  });

  it('"New Request File" writes a valid template', async () => {
    let answered: vscode.Uri | undefined | false = false;
    const p = Promise.resolve(vscode.commands.executeCommand<vscode.Uri | undefined>('promptwright.newRequestFile'));
    void p.then(u => (answered = u));
    // the name box shows when the workbench gets to it (late on a loaded machine): accept its default then
    await waitFor('the name box answered', async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise(r => setTimeout(r, 100));
      return answered !== false;
    });
    const uri = await p;
    assert.ok(uri);
    created.push(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.deepEqual(JSON.parse(doc.getText()).model, 'model-opus-4-7');
    const a = await api();
    await waitFor('its check', () => a.diagnostics.current(doc)?.version === doc.version);
    assert.deepEqual(ours(uri), []);
  });

  it('"New Request File" given "my-first" writes my-first.prompt.json, saying so before Enter', async () => {
    const a = await api();
    const said: unknown[] = [];
    const previous = a.api.prompts;
    const typing: Prompts = {
      ...previous,
      input: async options => {
        said.push(await options.validateInput?.('my-first'));
        return 'my-first';
      },
    };
    a.api.prompts = typing;
    let uri: vscode.Uri | undefined;
    try {
      uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('promptwright.newRequestFile');
      assert.ok(uri, 'a file was written');
      assert.equal(uri.path.split('/').pop(), 'my-first.prompt.json');
      assert.deepEqual(said, [
        { message: 'Creates my-first.prompt.json', severity: vscode.InputBoxValidationSeverity.Info },
      ]);
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString());
      const doc = await vscode.workspace.openTextDocument(uri);
      await waitFor('the new file checked', () => a.diagnostics.state(doc));
      assert.deepEqual(ours(uri), []);
    } finally {
      a.api.prompts = previous;
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      if (uri) await vscode.workspace.fs.delete(uri);
    }
  });

  it('"New Request File" on a name that is taken writes nothing and says so through the error display', async () => {
    const a = await api();
    const previous = a.api.prompts;
    const shown: string[] = [];
    const listening = a.api.onDidShowError(t => shown.push(t));
    // hello.prompt.json is a file of the workspace already
    const before = (await vscode.workspace.openTextDocument(workspaceUri('hello.prompt.json'))).getText();
    a.api.prompts = { ...previous, input: () => Promise.resolve('hello.prompt.json') };
    try {
      const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('promptwright.newRequestFile');
      assert.equal(uri, undefined);
      assert.deepEqual(shown, ['New Request File: hello.prompt.json already exists; choose another name.']);
      const after = (await vscode.workspace.openTextDocument(workspaceUri('hello.prompt.json'))).getText();
      assert.equal(after, before);
    } finally {
      a.api.prompts = previous;
      listening.dispose();
    }
  });

  it('a check that throws becomes one diagnostic and a log line; the extension keeps working', async () => {
    const a = await api();
    const logged: string[] = [];
    const error = a.log.error.bind(a.log);
    a.log.error = (m: string) => {
      logged.push(m);
      error(m);
    };
    const validator = a.diagnostics.validator;
    const hello = (await vscode.workspace.openTextDocument(workspaceUri('hello.prompt.json'))).getText();
    let checks = 0;
    a.diagnostics.validator = (text, format, opts) => {
      // only this file fails: another file's check that falls due meanwhile (after an earlier test's edit)
      // would otherwise fail too, and stay failed for that version
      if (text !== hello) return validator(text, format, opts);
      checks++;
      throw new Error('injected failure');
    };
    try {
      const doc = await open('hello.prompt.json');
      a.diagnostics.validateNow(doc);
      const d = await waitFor('internal-error diagnostic', () =>
        ours(doc.uri).find(x => codeOf(x) === 'internal-error'),
      );
      assert.equal(ours(doc.uri).length, 1);
      assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
      assert.match(d.message, /could not check this file \(injected failure\)/);
      assert.ok(
        logged.some(l => l.includes('injected failure')),
        logged.join('\n'),
      );
      // the token count listens to each check and asks for the state: the failed version is not checked
      // again (this looped until the stack overflowed)
      await new Promise(r => setTimeout(r, 300));
      assert.ok(checks <= 3, `${checks} checks of one version`);
    } finally {
      a.diagnostics.validator = validator;
      a.log.error = error;
    }
    // the next check of the same file works again
    const doc = await open('hello.prompt.json');
    a.diagnostics.validateNow(doc);
    await waitFor('diagnostics back to normal', () => ours(doc.uri).length === 0);
  });

  it('a file nested 100,000 levels deep gets its diagnostics and leaves the editor responsive', async () => {
    // The nesting sits in a property's `default`, a value the schema check does not read as a subschema:
    // a list where a subschema belongs is an error of its own (tool-input-schema-invalid).
    const deep =
      `{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"x"}],` +
      '"metadata":{"user_id":"u"},"tools":[{"name":"t","input_schema":{"type":"object","properties":{"a":' +
      `{"default":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}}]}`;
    const uri = await writeWorkspaceFile('deep.prompt.json', deep);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const d = await waitFor(
      'nesting-depth warning',
      () => ours(doc.uri).find(x => codeOf(x) === 'nesting-depth'),
      20000,
    );
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.deepEqual(
      ours(doc.uri).filter(x => x.severity === vscode.DiagnosticSeverity.Error),
      [],
    );
    // still serving: a normal file is checked right after
    const other = await open('defective.prompt.json');
    await waitFor('other file checked', () => ours(other.uri).length >= 3);
  });

  it('a beta feature warns; its quick fix adds the beta to promptwright.betas and the warning goes', async () => {
    const restore = await setSetting('betas', []);
    try {
      const doc = await open('beta.prompt.json');
      const diag = await waitFor('beta warning', () => ours(doc.uri).find(d => codeOf(d) === 'beta-feature'));
      assert.equal(diag.severity, vscode.DiagnosticSeverity.Warning);
      assert.equal(doc.getText(diag.range), '"mcp_servers"');
      assert.deepEqual(
        ours(doc.uri).filter(d => d.severity === vscode.DiagnosticSeverity.Error),
        [],
      );
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        diag.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const add = actions.find(x => x.title === 'Add the beta "mcp-client-2025-11-20" to promptwright.betas');
      assert.ok(add?.command, actions.map(x => x.title).join(', '));
      await vscode.commands.executeCommand(add.command.command, ...(add.command.arguments ?? []));
      assert.deepEqual(vscode.workspace.getConfiguration('promptwright').get('betas'), ['mcp-client-2025-11-20']);
      await waitFor('beta warning gone', () => !ours(doc.uri).some(d => codeOf(d) === 'beta-feature'));
    } finally {
      await restore();
    }
  });

  describe('element templates (completion)', () => {
    /** Our completion items at the end of `marker` in a new file of that name and text. */
    async function templatesAt(name: string, text: string, marker: string): Promise<string[]> {
      const uri = await writeWorkspaceFile(name, text);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      const pos = doc.positionAt(text.indexOf(marker) + marker.length);
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        uri,
        pos,
      );
      return list.items
        .filter(i => typeof i.detail === 'string' && i.detail.startsWith('Promptwright:'))
        .map(i => (typeof i.label === 'string' ? i.label : i.label.label));
    }

    it('offers content blocks in a content array, messages in messages, tools in tools', async () => {
      const content = await templatesAt(
        'tpl-content.prompt.json',
        '{"model": "model-opus-4-7", "max_tokens": 5, "messages": [{"role": "user", "content": [ pw ]}]}',
        '[ pw',
      );
      assert.ok(content.includes('pw-text') && content.includes('pw-image') && content.includes('pw-tool_result'));
      assert.ok(!content.includes('pw-user'));
      const messages = await templatesAt('tpl-messages.prompt.yaml', 'model: m\nmessages:\n  - pw\n', '- pw');
      assert.deepEqual(messages, ['pw-user', 'pw-assistant', 'pw-tool_result', 'pw-tool_use']);
      const tools = await templatesAt('tpl-tools.prompt.json', '{"tools": [ pw ]}', '[ pw');
      assert.ok(tools.includes('pw-tool') && tools.includes('pw-web_search'));
    });

    it('offers none inside a string, in a package.json, or in a YAML file that is not a request', async () => {
      const prose = await templatesAt(
        'tpl-prose.prompt.json',
        '{"messages": [{"role": "user", "content": "a burst of pw"}]}',
        'burst of pw',
      );
      assert.deepEqual(prose, []);
      assert.deepEqual(await templatesAt('package.json', '{"files": [ pw ]}', '[ pw'), []);
      assert.deepEqual(await templatesAt('ci.yaml', 'messages:\n  - pw\n', '- pw'), []);
    });

    it('the chosen template is inserted as one undoable edit that leaves the file valid', async () => {
      const text = '{"model": "model-opus-4-7", "max_tokens": 5, "messages": [{"role": "user", "content": [ pw ]}]}';
      const uri = await writeWorkspaceFile('tpl-insert.prompt.json', text);
      const doc = await vscode.workspace.openTextDocument(uri);
      const ed = await vscode.window.showTextDocument(doc);
      const pos = doc.positionAt(text.indexOf('[ pw') + 4);
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        uri,
        pos,
      );
      const item = list.items.find(i => i.label === 'pw-text' && String(i.detail).startsWith('Promptwright'))!;
      await ed.insertSnippet(item.insertText as vscode.SnippetString, item.range as vscode.Range);
      assert.deepEqual(JSON.parse(doc.getText()).messages[0].content, [{ type: 'text', text: 'text' }]);
      const a = await api();
      await waitFor('checked clean', () =>
        a.diagnostics.current(doc)?.validation.problems.filter(p => p.severity === 'error').length === 0
          ? true
          : undefined,
      );
      await vscode.commands.executeCommand('undo');
      assert.equal(doc.getText(), text);
    });
  });
});

// The parity test's twin (test/unit/lsp/parity.test.ts holds the language server to the same): the extension shows
// what `promptwright check --format json` says of every request and case file of the test corpora, without a key
// as check has none. VS Code's own JSON support reports JSON syntax in .json files, so those three codes are left
// out there (RULES.md, Notes).
describe('the extension shows what check says (real extension host)', () => {
  restoreKeysAfterEach();
  const folder = () => workspaceUri('parity');
  after(async () => {
    await Promise.resolve(vscode.workspace.fs.delete(folder(), { recursive: true })).catch(() => undefined);
  });

  it('each request and case file of the corpora and examples: same code, range, severity, message', async function () {
    this.timeout(240_000);
    const a = await api();
    await setKey('api', undefined);
    const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    // the corpora's bodies as request files (x.json → x.prompt.json); the case files' folders as they are
    const sources: [string, (name: string) => string | undefined][] = [
      ['test/fixtures/accepted', n => (n === 'manifest.json' ? undefined : n.replace(/\.json$/, '.prompt.json'))],
      ['test/fixtures/rejected', n => (n === 'manifest.json' ? undefined : n.replace(/\.json$/, '.prompt.json'))],
      ['test/fixtures/cases', n => n],
      ['test/fixtures/steered', n => n],
      ['examples', n => n],
    ];
    const files: vscode.Uri[] = [];
    for (const [dir, rename] of sources) {
      for (const name of fs.readdirSync(path.join(repo, dir)).sort()) {
        const to = /\.(json|ya?ml)$/.test(name) ? rename(name) : undefined;
        if (!to) continue;
        const uri = vscode.Uri.joinPath(folder(), path.basename(dir), to);
        await vscode.workspace.fs.writeFile(uri, fs.readFileSync(path.join(repo, dir, name)));
        files.push(uri);
      }
    }
    assert.ok(files.length > 250, `${files.length} files`);
    const check = spawnSync(
      process.execPath,
      [path.join(repo, 'dist', 'cli.js'), 'check', '--format', 'json', ...files.map(f => f.fsPath)],
      { cwd: folder().fsPath, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH } },
    );
    assert.ok(check.status === 0 || check.status === 1, check.stderr);
    const records = JSON.parse(check.stdout) as CheckRecord[];
    const line = (r: Omit<CheckRecord, 'file' | 'path'>) =>
      `${r.line}:${r.column}-${r.endLine}:${r.endColumn} ${r.severity} ${r.code}: ${r.message}`;
    const want = new Map<string, string[]>();
    for (const { file, path: _p, ...r } of records) {
      const abs = path.resolve(folder().fsPath, file);
      if (abs.endsWith('.json') && ['json-syntax', 'json-comment', 'json-trailing-comma'].includes(r.code)) continue;
      want.set(abs, [...(want.get(abs) ?? []), line(r)].sort());
    }
    assert.ok(records.filter(r => r.code === 'cache-prefix-below-minimum').length > 20);
    const SEVERITY = ['error', 'warning', 'info', 'hint'];
    const shown = (uri: vscode.Uri) =>
      vscode.languages
        .getDiagnostics(uri)
        .filter(d => d.source === 'Promptwright')
        .map(d =>
          line({
            line: d.range.start.line + 1,
            column: d.range.start.character + 1,
            endLine: d.range.end.line + 1,
            endColumn: d.range.end.character + 1,
            severity: SEVERITY[d.severity]!,
            code: String(typeof d.code === 'object' ? d.code.value : d.code),
            message: d.message,
          }),
        )
        .sort();
    const seen = new Map<string, string[]>();
    const wrong = (which: vscode.Uri[]) =>
      which.flatMap(f => {
        const got = (seen.get(f.fsPath) ?? shown(f)).join(' | ');
        const expected = (want.get(f.fsPath) ?? []).join(' | ');
        const name = path.relative(folder().fsPath, f.fsPath);
        return got === expected ? [] : [`${name}:\n  extension ${got}\n  check     ${expected}`];
      });
    // VS Code closes documents no editor shows once there are many (their diagnostics go with them): the bodies
    // are opened one at a time, each read once it was checked
    const together = files.filter(f => !/[/\\](accepted|rejected)[/\\]/.test(f.fsPath));
    for (const f of files.filter(x => !together.includes(x))) {
      const doc = await vscode.workspace.openTextDocument(f);
      await waitFor(`${f.fsPath} checked`, () => a.diagnostics.state(doc));
      seen.set(f.fsPath, shown(f));
    }
    // the case files and their requests, together: a case file speaks in its request once both are checked
    const docs = await Promise.all(together.map(f => vscode.workspace.openTextDocument(f)));
    const { caseDiagnostics } = await a.features();
    await caseDiagnostics.ready;
    await waitFor('the same diagnostics', () => wrong(together).length === 0, 60_000).catch(() => undefined);
    assert.ok(docs.every(d => !d.isClosed));
    const differ = wrong(files);
    assert.deepEqual(differ, [], differ.slice(0, 5).join('\n'));
  });
});
