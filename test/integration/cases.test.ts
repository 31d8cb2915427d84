// Prompt test cases in the real extension host, against the fake service (it answers "Hello! You said: <the
// question>" and calls get_weather for "#tool", so every cell's verdict is known): the diagnostics of a case
// file and of the request file it names, the hover and completion of placeholders, the CodeLenses, and the
// Cases grid driven through `handle`, the entry every webview message goes through (a test cannot click in
// the webview; test/ui/cases.test.mjs does that). The suite writes its files into a folder of the workspace.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CellView, GridView } from '../../src/protocol/cases';
import type { Features } from '../../src/features';
import type { FakeRequest } from '../fake/server';
import { api, endCaseRuns, scripted, setSetting, useFake, waitFor, workspaceUri } from './helpers';

const DIR = 'cases-suite';
const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'cases');
const SONNET = 'model-sonnet-4-6';
const HAIKU = 'model-haiku-4-5';

const uri = (name: string) => workspaceUri(DIR, name);
const write = (name: string, text: string) => fs.writeFileSync(uri(name).fsPath, text);
const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);
const withCode = (u: vscode.Uri, code: string) => vscode.languages.getDiagnostics(u).filter(d => codeOf(d) === code);

async function features(): Promise<Features> {
  return (await api()).features();
}

/** The text a diagnostic's range covers, in the file as it is on disk. */
function textAt(u: vscode.Uri, r: vscode.Range): string {
  const lines = fs.readFileSync(u.fsPath, 'utf8').split('\n');
  assert.equal(r.start.line, r.end.line, 'a one-line range');
  return lines[r.start.line]!.slice(r.start.character, r.end.character);
}

const messages = (requests: FakeRequest[]) => requests.filter(r => r.method === 'POST' && r.path === '/v1/messages');

function cell(grid: GridView | undefined, caseName: string, model: string): CellView {
  const c = grid?.cells.find(x => x.caseName === caseName && x.model === model);
  assert.ok(c, `no cell ${caseName} × ${model}`);
  return c;
}

/** The grid's verdicts, row by row: `case: status status`. */
function verdicts(grid: GridView | undefined): string[] {
  assert.ok(grid);
  return grid.cases.map(c => `${c}: ${grid.models.map(m => cell(grid, c, m).status).join(' ')}`);
}

/**
 * A copy of the fixtures in a folder of its own (`cases-suite/<name>/`): its results are its own, so a test
 * that runs cases depends on no other test's run, in any order.
 */
function freshCopy(name: string): { cases: vscode.Uri; request: vscode.Uri; at: (file: string) => vscode.Uri } {
  const at = (file: string) => workspaceUri(DIR, name, file);
  fs.mkdirSync(workspaceUri(DIR, name).fsPath, { recursive: true });
  for (const f of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, f), at(f).fsPath);
  return { cases: at('support.cases.yaml'), request: at('support.prompt.yaml'), at };
}

function changes(grid: GridView | undefined): string[] {
  assert.ok(grid);
  return grid.cases.map(c => `${c}: ${grid.models.map(m => cell(grid, c, m).change ?? '-').join(' ')}`);
}

describe('prompt test cases (real extension host)', () => {
  const holder = useFake({}, { 'cases.concurrency': 2 });
  const support = uri('support.cases.yaml');
  const request = uri('support.prompt.yaml');

  before(async () => {
    fs.mkdirSync(workspaceUri(DIR).fsPath, { recursive: true });
    for (const f of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, f), uri(f).fsPath);
    const f = await features();
    // the workspace's case files are found on disk: a file created later by a watcher, or when opened
    await vscode.workspace.openTextDocument(support);
    await waitFor('the case file checked', () => f.caseDiagnostics.get(support)?.requestText !== undefined);
  });

  after(async () => {
    // the panel closes; the runner stays (the Test Explorer's suite shares it)
    await endCaseRuns(DIR, '.promptwright');
  });

  it('diagnostics in both files: an undefined placeholder, an unused var; checked as either changes', async () => {
    const requestText = (content: string) =>
      `model: model-haiku-4-5\nmax_tokens: 100\nmessages:\n  - role: user\n    content: "${content}"\n`;
    write('diag.prompt.yaml', requestText('Answer {{question}} for {{audience}}'));
    write(
      'diag.cases.yaml',
      'request: diag.prompt.yaml\ncases:\n  - name: one\n    vars:\n      question: why?\n      colour: blue\n',
    );
    const caseUri = uri('diag.cases.yaml');
    const requestUri = uri('diag.prompt.yaml');
    const doc = await vscode.workspace.openTextDocument(caseUri);
    await vscode.window.showTextDocument(doc);

    // the request file is not open: its problem is still shown, at the placeholder itself
    const [undef] = await waitFor('the request file diagnostic', () => {
      const d = withCode(requestUri, 'undefined-placeholder');
      return d.length ? d : undefined;
    });
    assert.equal(withCode(requestUri, 'undefined-placeholder').length, 1);
    assert.equal(textAt(requestUri, undef!.range), '{{audience}}');
    assert.equal(undef!.range.start.line, 4);
    assert.equal(undef!.severity, vscode.DiagnosticSeverity.Error);
    assert.match(undef!.message, /audience/);
    assert.match((undef!.code as { target: vscode.Uri }).target.toString(true), /RULES\.md#undefined-placeholder$/);
    assert.equal(undef!.relatedInformation?.[0]?.location.uri.toString(), caseUri.toString());
    // in a collection of its own: the request file's own diagnostics are untouched
    const a = await api();
    assert.ok(!(a.diagnostics.collection.get(requestUri) ?? []).some(d => codeOf(d) === 'undefined-placeholder'));
    assert.equal((await features()).caseDiagnostics.collection.get(requestUri)?.length, 1);

    const [unused] = withCode(caseUri, 'unused-var');
    assert.ok(unused, 'an unused var');
    assert.equal(unused.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(textAt(caseUri, unused.range), 'colour');
    const inCase = withCode(caseUri, 'undefined-placeholder');
    assert.equal(inCase.length, 1);
    assert.equal(inCase[0]!.severity, vscode.DiagnosticSeverity.Error);

    // typing in the case file: the var renamed, both problems go, in both files
    const edit = new vscode.WorkspaceEdit();
    const at = doc.getText().indexOf('colour');
    edit.replace(caseUri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 'colour'.length)), 'audience');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('problems gone', () => !withCode(requestUri, 'undefined-placeholder').length);
    await waitFor('unused var gone', () => !withCode(caseUri, 'unused-var').length);
    assert.equal(withCode(caseUri, 'undefined-placeholder').length, 0);

    // the request file changed on disk (not open in an editor): checked again
    write('diag.prompt.yaml', requestText('{{question}} {{audience}} in {{season}}'));
    const [season] = await waitFor('the new placeholder', () => {
      const d = withCode(requestUri, 'undefined-placeholder');
      return d.length ? d : undefined;
    });
    assert.equal(textAt(requestUri, season!.range), '{{season}}');

    // completion of the request's placeholder names at a key of the vars map (the ones it lacks)
    const line = doc
      .getText()
      .split('\n')
      .findIndex(l => l.includes('audience:'));
    const insert = new vscode.WorkspaceEdit();
    insert.insert(caseUri, new vscode.Position(line + 1, 0), '      \n');
    assert.ok(await vscode.workspace.applyEdit(insert));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      caseUri,
      new vscode.Position(line + 1, 6),
    );
    // ours only (the editor's word-based suggestions would offer every word of the file)
    const labels = list.items
      .filter(i => i.detail?.startsWith('{{'))
      .map(i => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('season'), labels.join(', '));
    assert.ok(!labels.includes('question') && !labels.includes('audience'), 'not the keys the map has');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('hover on {{question}} shows its value in each case; CodeLenses run the case file from both files', async () => {
    const doc = await vscode.workspace.openTextDocument(request);
    const line = doc
      .getText()
      .split('\n')
      .findIndex(l => l.includes('{{question}}'));
    const character = doc.lineAt(line).text.indexOf('{{question}}') + 3;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      request,
      new vscode.Position(line, character),
    );
    const text = hovers
      .flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value)))
      .join('\n')
      .replace(/\\(.)/g, '$1');
    assert.match(text, /\{\{question\}\}/);
    assert.match(text, /support\.cases\.yaml/);
    assert.match(text, /\| greeting \| Hi there, are you open on Sunday\? \|/);
    assert.match(text, /\| refund in French \| Puis-je être remboursé \? \|/);
    assert.match(text, /\| weather tool \| Will it rain on the terrace today\? #tool \|/);

    const lensesOf = async (u: vscode.Uri) =>
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', u))
        .map(l => l.command)
        .filter(c => c?.command === 'promptwright.runCases');
    const onCase = await lensesOf(support);
    assert.deepEqual(
      onCase.map(c => c?.title),
      ['$(run-all) Run Cases (3 cases × 2 models)'],
    );
    assert.equal((onCase[0]?.arguments?.[0] as vscode.Uri).toString(), support.toString());
    const onRequest = await lensesOf(request);
    assert.deepEqual(
      onRequest.map(c => c?.title),
      ['$(run-all) Run Cases: support.cases.yaml'],
    );
  });

  it('a JSON case file: completion and hover from the zod schema, placeholder names in vars', async () => {
    const jsonCopy = freshCopy('json');
    fs.writeFileSync(
      jsonCopy.at('json.cases.json').fsPath,
      '{\n  "request": "support.prompt.yaml",\n  \n  "cases": [\n' +
        '    { "name": "a", "vars": { "question": "q",  }, "assert": [{  }] }\n  ]\n}\n',
    );
    const jsonUri = jsonCopy.at('json.cases.json');
    const doc = await vscode.workspace.openTextDocument(jsonUri);
    await vscode.window.showTextDocument(doc);
    const f = await features();
    await waitFor('the JSON case file checked', () => f.caseDiagnostics.get(jsonUri)?.requestText !== undefined);
    const labelsAt = async (pos: vscode.Position, ours = false) => {
      const list = await waitFor('completions', async () => {
        const l = await vscode.commands.executeCommand<vscode.CompletionList>(
          'vscode.executeCompletionItemProvider',
          jsonUri,
          pos,
        );
        return l.items.length ? l : undefined;
      });
      return list.items
        .filter(i => !ours || i.detail?.startsWith('{{'))
        .map(i => (typeof i.label === 'string' ? i.label : i.label.label));
    };
    const text = doc.getText();
    // the file's own fields (from the zod schema, vscode/request/schemaAssist.ts)
    assert.ok((await labelsAt(new vscode.Position(2, 2))).some(l => l.includes('models')));
    const inAssertion = await labelsAt(doc.positionAt(text.indexOf('[{  }]') + 3));
    for (const kind of ['contains', 'regex', 'tool-call'])
      assert.ok(
        inAssertion.some(l => l.includes(kind)),
        kind,
      );
    // the request's placeholders the vars map lacks (ours)
    const inVars = doc.positionAt(text.indexOf('"q",') + 5);
    assert.deepEqual(await labelsAt(inVars, true), ['tone'], (await labelsAt(inVars)).join(', '));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      jsonUri,
      new vscode.Position(1, 5),
    );
    const said = hovers.flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(said, /relative to this file/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('runs the 3 × 2 grid: exact pass/fail per cell, the failing assertion says why, results saved', async () => {
    const fake = holder.fake;
    const copy = freshCopy('grid');
    fake.clear();
    await vscode.commands.executeCommand('promptwright.runCases', copy.cases);
    const f = await features();
    const grid = f.cases.grid();
    assert.deepEqual(grid?.models, [SONNET, HAIKU]);
    assert.deepEqual(verdicts(grid), [
      'greeting: passed passed',
      'weather tool: passed passed',
      'refund in French: failed failed',
    ]);
    const refund = cell(grid, 'refund in French', SONNET);
    assert.deepEqual(
      refund.assertions.map(a => [a.type, a.pass]),
      [
        ['icontains', true],
        ['regex', false],
      ],
    );
    assert.match(refund.assertions[1]!.message, /^regex \/\^Bonjour\/: /);
    assert.match(refund.assertions[1]!.message, /Hello! You said: Puis-je/);
    assert.equal(refund.text, 'Hello! You said: Puis-je être remboursé ?');
    assert.deepEqual(cell(grid, 'weather tool', HAIKU).toolCalls, ['get_weather']);
    for (const c of grid?.cells ?? []) {
      assert.match(c.requestId ?? '', /^req_fake_/, `${c.caseName} × ${c.model} has its request-id`);
      assert.ok(c.latencyMs !== undefined && c.outputTokens !== undefined && c.inputTokens !== undefined);
    }
    assert.equal(grid?.running, false);

    // six requests, each the request with its case's values filled in and its model
    const sent = messages(fake.requests);
    assert.equal(sent.length, 6);
    for (const r of sent) assert.ok(!JSON.stringify(r.body).includes('{{'), 'no placeholder left');
    const bodies = sent.map(r => r.body as { model: string; system: string; stream: boolean });
    assert.deepEqual(bodies.map(b => b.model).sort(), [HAIKU, HAIKU, HAIKU, SONNET, SONNET, SONNET]);
    assert.ok(bodies.every(b => b.stream === true));
    assert.ok(bodies.some(b => b.system === 'You answer customers of a bakery in a formal tone.'));
    // at most `promptwright.cases.concurrency` (2) in flight at once
    const spans = sent.map(r => [r.at, r.closedAt ?? Date.now()] as const);
    const overlap = Math.max(...spans.map(([t]) => spans.filter(([a, b]) => a <= t && t < b).length));
    assert.ok(overlap <= 2, `${overlap} requests in flight at once`);

    // the results, saved in the workspace storage (nothing written into the repository unasked); every cell
    // new the first time
    assert.equal(grid?.savedTo, 'the workspace storage');
    const saved = grid?.savedPath ?? '';
    assert.ok(saved.endsWith(path.join('results', DIR, 'grid', 'support.cases.yaml.json')), saved);
    assert.ok(!saved.startsWith(workspaceUri().fsPath), `${saved} is outside the workspace`);
    const file = JSON.parse(fs.readFileSync(saved, 'utf8'));
    assert.equal(file.results.length, 6);
    assert.equal(fs.existsSync(workspaceUri('.promptwright').fsPath), false, 'no .promptwright/ in the repository');
    assert.deepEqual(changes(grid), ['greeting: new new', 'weather tool: new new', 'refund in French: new new']);
    assert.equal(f.cases.status.item.text, '$(error) Cases: 6/6 · 2 failed');
  });

  it('re-runs one cell with one request, then one row; marks each against the saved run', async () => {
    const fake = holder.fake;
    const f = await features();
    await vscode.commands.executeCommand('promptwright.runCases', freshCopy('rerun').cases);
    fake.clear();
    await f.cases.handle({ type: 'rerun', target: { scope: 'cell', caseName: 'refund in French', model: HAIKU } });
    const sent = messages(fake.requests);
    assert.equal(sent.length, 1);
    assert.equal((sent[0]!.body as { model: string }).model, HAIKU);
    assert.match(JSON.stringify(sent[0]!.body), /Puis-je/);
    let grid = f.cases.grid();
    assert.equal(cell(grid, 'refund in French', HAIKU).change, 'same');
    assert.equal(cell(grid, 'refund in French', SONNET).change, 'new', 'the other cells keep their marks');

    fake.clear();
    await f.cases.handle({ type: 'rerun', target: { scope: 'row', caseName: 'greeting' } });
    assert.deepEqual(
      messages(fake.requests)
        .map(r => (r.body as { model: string }).model)
        .sort(),
      [HAIKU, SONNET],
    );
    grid = f.cases.grid();
    assert.deepEqual(verdicts(grid)[0], 'greeting: passed passed');
    assert.deepEqual(changes(grid)[0], 'greeting: same same');
  });

  it('a second run marks what changed since the last: the fixed regex makes a row "fixed"', async () => {
    const second = freshCopy('second').cases;
    await vscode.commands.executeCommand('promptwright.runCases', second);
    const text = fs.readFileSync(second.fsPath, 'utf8');
    const doc = await vscode.workspace.openTextDocument(second);
    // the case file as the editor holds it (unsaved edits count)
    const edit = new vscode.WorkspaceEdit();
    const at = text.indexOf('^Bonjour');
    edit.replace(second, new vscode.Range(doc.positionAt(at), doc.positionAt(at + '^Bonjour'.length)), '^Hello');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await vscode.commands.executeCommand('promptwright.runCases', second);
    const grid = (await features()).cases.grid();
    assert.deepEqual(verdicts(grid), [
      'greeting: passed passed',
      'weather tool: passed passed',
      'refund in French: passed passed',
    ]);
    assert.deepEqual(changes(grid), [
      'greeting: same same',
      'weather tool: same same',
      'refund in French: fixed fixed',
    ]);
    assert.equal((await features()).cases.status.item.text, '$(pass) Cases: 6/6');
    await doc.save();
  });

  it('a panel restored after a reload shows the saved results and sends nothing', async () => {
    const f = await features();
    const restored = freshCopy('restored').cases;
    await vscode.commands.executeCommand('promptwright.runCases', restored);
    const tab = vscode.window.tabGroups.all.flatMap(g => g.tabs).find(t => t.label === 'Cases: support.cases.yaml');
    assert.ok(tab, 'the grid is an editor tab named after its case file');
    await vscode.window.tabGroups.close(tab);
    await waitFor('the grid closed', () => !f.cases.grid());
    holder.fake.clear();
    // what VS Code's serializer hands over after a reload: a panel of the view type, the webview's saved state
    const panel = vscode.window.createWebviewPanel('promptwright.cases', 'Cases', vscode.ViewColumn.One);
    f.cases.adopt(panel, { caseFile: restored.toString() });
    const grid = await waitFor('the restored grid', () => f.cases.grid());
    assert.equal(grid.restored, true);
    assert.deepEqual(verdicts(grid), [
      'greeting: passed passed',
      'weather tool: passed passed',
      'refund in French: failed failed',
    ]);
    assert.equal(cell(grid, 'greeting', HAIKU).text, 'Hello! You said: Hi there, are you open on Sunday?');
    assert.equal(messages(holder.fake.requests).length, 0);
    assert.equal(panel.title, 'Cases: support.cases.yaml');
  });

  it('Cancel All: no more requests, the running cell aborted, the queued ones cancelled', async () => {
    const restore = await setSetting('cases.concurrency', 1);
    try {
      const slowCopy = freshCopy('slow');
      fs.writeFileSync(
        slowCopy.at('slow.cases.yaml').fsPath,
        [
          'request: support.prompt.yaml',
          `models: [${HAIKU}]`,
          'cases:',
          ...[1, 2, 3].map(i => `  - name: slow ${i}\n    vars: { question: "#slow=200 number ${i}", tone: calm }`),
          '',
        ].join('\n'),
      );
      const slow = slowCopy.at('slow.cases.yaml');
      const fake = holder.fake;
      fake.clear();
      const done = vscode.commands.executeCommand('promptwright.runCases', slow);
      await waitFor('the first request', () => messages(fake.requests).length === 1);
      // the reply streams into its cell as it comes
      const f = await features();
      const streamed = await waitFor('some text', () => f.cases.grid()?.cells[0]?.text);
      const reply = 'Hello! You said: number 1';
      assert.ok(reply.startsWith(streamed) && streamed.length < reply.length, streamed);
      assert.equal(f.cases.grid()?.cells[0]?.status, 'running');
      await vscode.commands.executeCommand('promptwright.cancelCases');
      await done;
      const grid = f.cases.grid();
      assert.deepEqual(
        grid?.cells.map(c => c.status),
        ['cancelled', 'cancelled', 'cancelled'],
      );
      const kept = grid?.cells[0]?.text ?? '';
      assert.ok(kept.startsWith(streamed) && reply.startsWith(kept), `what arrived is kept: ${kept}`);
      await waitFor('the aborted request closed', () => messages(fake.requests)[0]?.closedAt !== undefined);
      await new Promise(r => setTimeout(r, 600));
      assert.equal(messages(fake.requests).length, 1, 'nothing sent after Cancel All');
      assert.equal(grid?.running, false);
      assert.ok(
        grid?.cells.every(c => c.change === undefined),
        'a cancelled cell says nothing about the prompt',
      );
    } finally {
      await restore();
    }
  });

  it('promptwright.cases.resultsInRepository: the results go to the repository’s .promptwright/results/', async () => {
    const restore = await setSetting('cases.resultsInRepository', true);
    try {
      const f = await features();
      await vscode.commands.executeCommand('promptwright.runCases', freshCopy('repository').cases);
      const grid = f.cases.grid();
      const inRepository = workspaceUri('.promptwright', 'results', DIR, 'repository', 'support.cases.yaml.json');
      assert.equal(
        grid?.savedTo,
        path.posix.join('.promptwright', 'results', DIR, 'repository', 'support.cases.yaml.json'),
      );
      assert.equal(grid?.savedPath, inRepository.fsPath);
      const file = JSON.parse(fs.readFileSync(inRepository.fsPath, 'utf8'));
      assert.equal(file.results.length, 6);
      assert.equal(file.caseFile, path.posix.join(DIR, 'repository', 'support.cases.yaml'));
    } finally {
      await restore();
      fs.rmSync(workspaceUri('.promptwright').fsPath, { recursive: true, force: true });
    }
  });

  it('promptwright.cases.maxRequests: a run over it asks first, saying how many; no sends nothing', async () => {
    const fake = holder.fake;
    const f = await features();
    const copy = freshCopy('limit');
    const restore = await setSetting('cases.maxRequests', 5);
    const prompts = f.cases.prompts;
    const seen: string[] = [];
    try {
      fake.clear();
      f.cases.prompts = scripted([false], seen);
      await vscode.commands.executeCommand('promptwright.runCases', copy.cases);
      assert.deepEqual(seen, ['confirm: Send 6 requests? [Send 6 Requests]']);
      assert.equal(messages(fake.requests).length, 0, 'nothing sent');
      assert.notEqual(f.cases.runner.current?.caseUri.toString(), copy.cases.toString(), 'no grid of this run');
      f.cases.prompts = scripted([true], seen);
      await vscode.commands.executeCommand('promptwright.runCases', copy.cases);
      assert.equal(messages(fake.requests).length, 6);
      assert.equal(seen.length, 2);
      // within the limit nothing is asked: one row is two requests
      fake.clear();
      f.cases.prompts = scripted([], seen);
      await f.cases.handle({ type: 'rerun', target: { scope: 'row', caseName: 'greeting' } });
      assert.equal(messages(fake.requests).length, 2);
      assert.equal(seen.length, 2);
    } finally {
      f.cases.prompts = prompts;
      await restore();
    }
  });

  it('a request or judge prompt out of the repository: an error at its line; Run Cases sends nothing', async () => {
    const fake = holder.fake;
    const copy = freshCopy('outside');
    const secret = workspaceUri('secret.prompt.yaml');
    fs.writeFileSync(secret.fsPath, fs.readFileSync(copy.request.fsPath, 'utf8'));
    // a link inside the case file's folder that points out of it
    fs.symlinkSync(secret.fsPath, copy.at('linked.prompt.yaml').fsPath);
    const check = async (name: string, text: string, line: number) => {
      const u = copy.at(name);
      fs.writeFileSync(u.fsPath, text);
      // opened, so checked now: a file only written waits for the file watcher, which a loaded machine delays
      await vscode.workspace.openTextDocument(u);
      const [d] = await waitFor(`${name}: path-outside-repository`, () => {
        const found = withCode(u, 'path-outside-repository');
        return found.length ? found : undefined;
      });
      assert.equal(d!.range.start.line, line);
      assert.equal(d!.severity, vscode.DiagnosticSeverity.Error);
      assert.match(d!.message, /is outside the repository/);
      return u;
    };
    const rest = fs.readFileSync(copy.cases.fsPath, 'utf8').replace(/^request: .*\n/m, '');
    try {
      const up = await check('up.cases.yaml', `request: ../../secret.prompt.yaml\n${rest}`, 0);
      await check('link.cases.yaml', `request: linked.prompt.yaml\n${rest}`, 0);
      await check(
        'judge.cases.yaml',
        `request: support.prompt.yaml\njudge:\n  model: ${HAIKU}\n  prompt: ../../secret.prompt.yaml\n${rest}`,
        3,
      );
      fake.clear();
      await vscode.commands.executeCommand('promptwright.runCases', up);
      assert.equal(messages(fake.requests).length, 0, 'nothing sent');
    } finally {
      fs.rmSync(secret.fsPath, { force: true });
    }
  });

  it('a regex that backtracks without end is stopped at its time limit: an ERROR that names it', async () => {
    const copy = freshCopy('redos');
    // the reply is `Hello! You said: "aaa…a` (34 a): the pattern tries every way to split the a's
    fs.writeFileSync(
      copy.at('redos.cases.yaml').fsPath,
      'request: support.prompt.yaml\nmodels: [model-sonnet-4-6]\ncases:\n' +
        `  - name: evil\n    vars: { question: '"${'a'.repeat(34)}', tone: calm }\n` +
        `    assert: [{ regex: '^.*"(a+)+!' }, { contains: aaa }]\n`,
    );
    const t0 = Date.now();
    await vscode.commands.executeCommand('promptwright.runCases', copy.at('redos.cases.yaml'));
    assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms`);
    const evil = cell((await features()).cases.grid(), 'evil', SONNET);
    assert.equal(evil.status, 'error');
    assert.deepEqual(
      evil.assertions.map(a => [a.type, a.pass]),
      [
        ['regex', false],
        ['contains', true],
      ],
    );
    assert.match(evil.assertions[0]!.message, /The regex \/\^\.\*"\(a\+\)\+!\/ ran for more than 1,000 ms/);
  });

  it('a failed request shows error.type, message and request-id; a request with errors is not sent', async () => {
    const fake = holder.fake;
    const f = await features();
    const copy = freshCopy('failed');
    await vscode.commands.executeCommand('promptwright.runCases', copy.cases);
    fake.clear();
    fake.fail({
      path: '/v1/messages',
      status: 400,
      errorType: 'invalid_request_error',
      message: 'max_tokens: too big',
    });
    await f.cases.handle({ type: 'rerun', target: { scope: 'cell', caseName: 'greeting', model: SONNET } });
    const failed = cell(f.cases.grid(), 'greeting', SONNET);
    assert.equal(failed.status, 'error');
    assert.deepEqual(failed.error && { ...failed.error, requestId: failed.error.requestId?.slice(0, 9) }, {
      type: 'invalid_request_error',
      message: 'max_tokens: too big',
      requestId: 'req_fake_',
    });
    assert.equal(failed.change, 'broke');

    fs.writeFileSync(
      copy.at('retired.cases.yaml').fsPath,
      'request: support.prompt.yaml\nmodels: [model-3-haiku-20240307]\ncases:\n' +
        '  - name: old model\n    vars: { question: hi, tone: calm }\n',
    );
    fake.clear();
    await vscode.commands.executeCommand('promptwright.runCases', copy.at('retired.cases.yaml'));
    const notSent = cell(f.cases.grid(), 'old model', 'model-3-haiku-20240307');
    assert.equal(notSent.status, 'error');
    assert.match(notSent.problems?.[0] ?? '', /retired-model/);
    assert.equal(messages(fake.requests).length, 0, 'nothing with errors is sent');
  });
});
