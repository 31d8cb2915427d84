// Case files in VS Code's Test Explorer, in the real extension host, against the fake service (it answers
// "Hello! You said: <the question>" and calls get_weather for "#tool", so every verdict is known): the test
// items (file, case, case × model) at their lines, as the case file is edited; a run through the controller's
// Run profile with each item's verdict, the failure at its assertion's line with what was expected and what
// came, an errored request with error.type, message and request-id; Cancel through the run's token; and the
// one runner: the grid shows the Test Explorer's run, and a run from the grid is reported to the Test Explorer.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Features } from '../../src/features';
import type { FakeRequest } from '../fake/server';
import { api, endCaseRuns, setSetting, useFake, waitFor, workspaceUri } from './helpers';

const DIR = 'cases-testing-suite';
const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'cases');
const SONNET = 'model-sonnet-4-6';
const HAIKU = 'model-haiku-4-5';

const uri = (name: string) => workspaceUri(DIR, name);
const messages = (requests: FakeRequest[]) => requests.filter(r => r.method === 'POST' && r.path === '/v1/messages');

async function features(): Promise<Features> {
  return (await api()).features();
}

/** Every item under a file item, as `name@line` lines indented by depth. */
function tree(item: vscode.TestItem, depth = 0): string[] {
  const kids: vscode.TestItem[] = [];
  item.children.forEach(c => kids.push(c));
  kids.sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
  return [
    `${'  '.repeat(depth)}${item.label}@${item.range?.start.line ?? '-'}`,
    ...kids.flatMap(k => tree(k, depth + 1)),
  ];
}

/** The verdict the Test Explorer was told of each case × model of a file, `case × model: state`. */
function verdicts(f: Features, file: string): string[] {
  const prefix = `${DIR}/${file} › `;
  return Object.entries(f.casesTests.reported())
    .filter(([k]) => k.startsWith(prefix) && k.split(' › ').length === 3)
    .map(([k, v]) => `${k.slice(prefix.length).replace(' › ', ' × ')}: ${v.state}`)
    .sort();
}

describe('prompt test cases in the Test Explorer (real extension host)', () => {
  const holder = useFake({}, { 'cases.concurrency': 2 });
  const support = uri('support.cases.yaml');

  before(async () => {
    fs.mkdirSync(workspaceUri(DIR).fsPath, { recursive: true });
    for (const f of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, f), uri(f).fsPath);
  });

  after(async () => {
    await endCaseRuns(DIR);
  });

  /** The file's item, once the Test Explorer has asked for the tests (as opening the Testing view does). */
  async function fileItem(u = support): Promise<vscode.TestItem> {
    const f = await features();
    await f.casesTests.controller.resolveHandler?.(undefined);
    // a file just written may not have been seen by the watcher yet
    if (!f.casesTests.controller.items.get(u.toString())) await f.caseDiagnostics.checkNow(u);
    return waitFor(`the item of ${u.path}`, () => {
      const item = f.casesTests.controller.items.get(u.toString());
      return item?.children.size ? item : undefined;
    });
  }

  /** Runs items through the controller's Run profile (what the Test Explorer's and the gutter's buttons do). */
  async function runItems(items: vscode.TestItem[] | undefined, token = new vscode.CancellationTokenSource().token) {
    const f = await features();
    await f.casesTests.runProfile.runHandler(new vscode.TestRunRequest(items), token);
  }

  it('items: the file at "cases:", each case at its line, each model under it; after an edit', async () => {
    const item = await fileItem();
    assert.equal(item.uri?.toString(), support.toString());
    assert.deepEqual(tree(item), [
      'support.cases.yaml@4',
      '  greeting@5',
      `    ${SONNET}@5`,
      `    ${HAIKU}@5`,
      '  weather tool@10',
      `    ${SONNET}@10`,
      `    ${HAIKU}@10`,
      '  refund in French@15',
      `    ${SONNET}@15`,
      `    ${HAIKU}@15`,
    ]);
    assert.equal(item.children.get('greeting')?.description, '2 assertions');

    // an edit in the editor (not saved): a case renamed, one added at the end, one model fewer
    const doc = await vscode.workspace.openTextDocument(support);
    await vscode.window.showTextDocument(doc);
    const text = doc.getText();
    const edit = new vscode.WorkspaceEdit();
    const at = text.indexOf('name: greeting') + 'name: '.length;
    edit.replace(support, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 'greeting'.length)), 'hello');
    const models = text.indexOf(`, ${HAIKU}]`);
    edit.delete(support, new vscode.Range(doc.positionAt(models), doc.positionAt(models + HAIKU.length + 2)));
    edit.insert(support, doc.positionAt(text.length), '  - name: added\n    vars: { question: "x", tone: calm }\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('the items follow the edit', () => item.children.get('added') && !item.children.get('greeting'));
    // the same item: what the Test Explorer shows of it (its results) stays
    assert.equal((await features()).casesTests.controller.items.get(support.toString()), item);
    assert.deepEqual(tree(item), [
      'support.cases.yaml@4',
      '  hello@5',
      `    ${SONNET}@5`,
      '  weather tool@10',
      `    ${SONNET}@10`,
      '  refund in French@15',
      `    ${SONNET}@15`,
      '  added@20',
      `    ${SONNET}@20`,
    ]);
    // the edit undone by another (the editor's text is what counts, saved or not)
    const undo = new vscode.WorkspaceEdit();
    undo.replace(support, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    assert.ok(await vscode.workspace.applyEdit(undo));
    const f = await features();
    const now = () => f.casesTests.controller.items.get(support.toString());
    await waitFor('the items as before', () => now()?.children.get('greeting') && !now()?.children.get('added'));
    assert.equal(tree(now()!).length, 10);
    await doc.save();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a run from the Run profile: each item passes or fails; a failure at its assertion, with both sides', async () => {
    const f = await features();
    const item = await fileItem();
    // a grid another test opened would hide whether this run opened one
    const open = vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => t.label.startsWith('Cases'));
    await vscode.window.tabGroups.close(open);
    holder.fake.clear();
    await runItems([item]);
    assert.equal(messages(holder.fake.requests).length, 6);
    assert.deepEqual(verdicts(f, 'support.cases.yaml'), [
      `greeting × ${HAIKU}: passed`,
      `greeting × ${SONNET}: passed`,
      `refund in French × ${HAIKU}: failed`,
      `refund in French × ${SONNET}: failed`,
      `weather tool × ${HAIKU}: passed`,
      `weather tool × ${SONNET}: passed`,
    ]);
    const failed = f.casesTests.reported()[`${DIR}/support.cases.yaml › refund in French › ${SONNET}`];
    assert.deepEqual(failed?.messages, [
      {
        message: 'regex /^Bonjour/: no match in the reply (the reply: "Hello! You said: Puis-je être remboursé ?")',
        // `      - regex: "^Bonjour"`, the assertion that failed, not the case
        line: 19,
        expected: '/^Bonjour/',
        actual: 'Hello! You said: Puis-je être remboursé ?',
      },
    ]);
    assert.match(fs.readFileSync(support.fsPath, 'utf8').split('\n')[19]!, /regex: "\^Bonjour"/);

    // the same run in the grid: one runner, two views (the grid is not opened for a Test Explorer run)
    const grid = f.cases.grid();
    assert.equal(grid?.caseFileUri, support.toString());
    assert.deepEqual(
      grid?.cells.map(c => `${c.caseName} × ${c.model}: ${c.status}`),
      [
        `greeting × ${SONNET}: passed`,
        `greeting × ${HAIKU}: passed`,
        `weather tool × ${SONNET}: passed`,
        `weather tool × ${HAIKU}: passed`,
        `refund in French × ${SONNET}: failed`,
        `refund in French × ${HAIKU}: failed`,
      ],
    );
    assert.ok(
      !vscode.window.tabGroups.all.flatMap(g => g.tabs).some(t => t.label.startsWith('Cases')),
      'no grid opened',
    );
    // "Show Cases Grid" in a test item's menu: that run's grid, in the main area
    await vscode.commands.executeCommand('promptwright.showCases', item.children.get('greeting'));
    const tab = await waitFor('the grid', () =>
      vscode.window.tabGroups.all.flatMap(g => g.tabs).find(t => t.label === 'Cases: support.cases.yaml'),
    );
    assert.equal(tab.group.viewColumn, vscode.ViewColumn.One);
    await vscode.window.tabGroups.close(tab);
  });

  it('one case × model from the gutter or the tree: one request, that item only', async () => {
    const f = await features();
    const cell = (await fileItem()).children.get('weather tool')!.children.get(HAIKU)!;
    holder.fake.clear();
    await runItems([cell]);
    const sent = messages(holder.fake.requests);
    assert.equal(sent.length, 1);
    assert.equal((sent[0]!.body as { model: string }).model, HAIKU);
    assert.match(JSON.stringify(sent[0]!.body), /#tool/);
    assert.equal(f.casesTests.reported()[`${DIR}/support.cases.yaml › weather tool › ${HAIKU}`]?.state, 'passed');
  });

  it('an errored request: error.type, message and request-id; a case file with errors runs nothing', async () => {
    const f = await features();
    const cell = (await fileItem()).children.get('greeting')!.children.get(SONNET)!;
    holder.fake.clear();
    holder.fake.fail({ path: '/v1/messages', status: 400, errorType: 'invalid_request_error', message: 'no' });
    await runItems([cell]);
    const errored = f.casesTests.reported()[`${DIR}/support.cases.yaml › greeting › ${SONNET}`];
    assert.equal(errored?.state, 'errored');
    assert.match(errored?.messages[0]?.message ?? '', /^invalid_request_error: no \(request-id req_fake_\w+\)$/);
    assert.equal(errored?.messages[0]?.line, 5);

    // two cases of the same name: an error (duplicate-case-name)
    const text = 'request: support.prompt.yaml\ncases:\n  - name: a\n  - name: a\n';
    fs.writeFileSync(uri('broken.cases.yaml').fsPath, text);
    const broken = await fileItem(uri('broken.cases.yaml'));
    assert.match(
      typeof broken.error === 'string' ? broken.error : (broken.error?.value ?? ''),
      /error.* in this case file: nothing runs until it is fixed/,
    );
    holder.fake.clear();
    await runItems([broken]);
    assert.equal(messages(holder.fake.requests).length, 0);
    const said = f.casesTests.reported()[`${DIR}/broken.cases.yaml`];
    assert.equal(said?.state, 'errored');
    assert.match(said?.messages[0]?.message ?? '', /broken\.cases\.yaml has 1 error .*nothing was sent/);
  });

  it('Cancel through the run’s token: the running cell stops, the others never start', async () => {
    const restore = await setSetting('cases.concurrency', 1);
    try {
      const f = await features();
      const slow = uri('slow.cases.yaml');
      fs.writeFileSync(
        slow.fsPath,
        [
          'request: support.prompt.yaml',
          `models: [${HAIKU}]`,
          'cases:',
          ...[1, 2, 3].map(i => `  - name: slow ${i}\n    vars: { question: "#slow=200 n${i}", tone: calm }`),
          '',
        ].join('\n'),
      );
      const item = await fileItem(slow);
      holder.fake.clear();
      const source = new vscode.CancellationTokenSource();
      const done = runItems([item], source.token);
      await waitFor('the first request', () => messages(holder.fake.requests).length === 1);
      source.cancel();
      await done;
      assert.deepEqual(verdicts(f, 'slow.cases.yaml'), [
        `slow 1 × ${HAIKU}: skipped`,
        `slow 2 × ${HAIKU}: skipped`,
        `slow 3 × ${HAIKU}: skipped`,
      ]);
      await new Promise(r => setTimeout(r, 500));
      assert.equal(messages(holder.fake.requests).length, 1, 'nothing sent after the cancel');
      assert.equal(f.cases.grid()?.running, false);
    } finally {
      await restore();
    }
  });

  it('a run from the grid (Run Cases) is reported to the Test Explorer too', async () => {
    const f = await features();
    await fileItem();
    const before = f.casesTests.reported();
    holder.fake.clear();
    await vscode.commands.executeCommand('promptwright.runCases', support);
    const after = f.casesTests.reported();
    const key = `${DIR}/support.cases.yaml › refund in French › ${HAIKU}`;
    assert.notEqual(after[key], before[key], 'reported anew');
    assert.equal(after[key]?.state, 'failed');
    assert.equal(after[`${DIR}/support.cases.yaml › greeting › ${HAIKU}`]?.state, 'passed');
    assert.equal(messages(holder.fake.requests).length, 6);
  });
});
