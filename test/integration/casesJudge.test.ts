// Rubrics, samples, cost and human grades in the real extension host, against the fake service (it answers
// "Hello! You said: <the question>", declines every second request of a body that says #flaky, and its
// stand-in judge passes a rubric when the reply has every phrase the criteria quote). The grid's samples and
// the judge's reasons, a flaky cell, verdicts kept in the workspace storage (a second run asks the judge
// nothing), costs from promptwright.prices, a 👎 with a note kept after a re-run, the Test Explorer's failure
// message at the rubric's line, and the response panel's cost.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Features } from '../../src/features';
import type { CellView, GridView } from '../../src/protocol/cases';
import type { FakeRequest } from '../fake/server';
import { api, endCaseRuns, openEditor, scripted, setSetting, useFake, waitFor, workspaceUri } from './helpers';

const DIR = 'cases-judge-suite';
const SONNET = 'model-sonnet-4-6';
const HAIKU = 'model-haiku-4-5';

const REQUEST = `model: ${SONNET}
max_tokens: 100
messages:
  - role: user
    content: "{{question}}"
`;

/** Four samples a cell, three must pass: "refund" passes 4/4 one rubric and fails the other; "flaky" is 2/4. */
const CASES = `request: refund.prompt.yaml
models: [${SONNET}]
judge: { model: ${HAIKU} }
repeat: 4
min-pass: 3
cases:
  - name: refund
    vars: { question: "Puis-je être remboursé sous 30 jours ?" }
    assert:
      - rubric: 'Says a refund is possible within "30 jours"'
      - rubric: { criteria: 'Thanks the customer: "merci"', threshold: 0.5 }
  - name: flaky
    vars: { question: "Bonjour #flaky" }
    assert:
      - contains: Hello
`;

const uri = (name: string) => workspaceUri(DIR, name);
const isJudge = (r: FakeRequest) => JSON.stringify(r.body ?? null).includes('"json_schema"');
const replies = (rs: FakeRequest[]) => rs.filter(r => r.path === '/v1/messages' && !isJudge(r));

async function features(): Promise<Features> {
  return (await api()).features();
}

/**
 * Writes a file of the suite and waits until the editor has it: a case file the Test Explorer or a run opened
 * is read from its document, which follows the disk a moment later.
 */
async function write(name: string, text: string): Promise<void> {
  fs.writeFileSync(uri(name).fsPath, text);
  await waitFor(`${name} as written`, () => {
    const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri(name).toString());
    return !doc || doc.getText() === text;
  });
}

/**
 * Forgets the judges' verdicts kept in the workspace storage (beside the results, in `verdicts/`), so that a
 * test sees the judge asked whatever ran before it.
 */
async function forgetVerdicts(f: Features, cases: vscode.Uri): Promise<void> {
  if (!f.cases.grid()?.savedPath) await vscode.commands.executeCommand('promptwright.runCases', cases);
  const saved = f.cases.grid()!.savedPath!;
  const storage = saved.slice(0, saved.lastIndexOf(`${path.sep}results${path.sep}`));
  fs.rmSync(path.join(storage, 'verdicts'), { recursive: true, force: true });
}

function cell(grid: GridView | undefined, caseName: string): CellView {
  const c = grid?.cells.find(x => x.caseName === caseName);
  assert.ok(c, `no cell ${caseName}`);
  return c;
}

describe('rubrics, samples, cost and grades in the Cases grid (real extension host)', () => {
  const holder = useFake({}, { 'cases.concurrency': 4 });
  const cases = uri('refund.cases.yaml');

  before(() => {
    fs.mkdirSync(workspaceUri(DIR).fsPath, { recursive: true });
    fs.writeFileSync(uri('refund.prompt.yaml').fsPath, REQUEST);
    fs.writeFileSync(cases.fsPath, CASES);
  });
  after(async () => {
    await endCaseRuns(DIR);
  });

  it('each cell’s samples with the judge’s reasons; a flaky cell; cost and the judge’s apart', async () => {
    const fake = holder.fake;
    const f = await features();
    await forgetVerdicts(f, cases);
    fake.clear();
    await vscode.commands.executeCommand('promptwright.runCases', cases);
    const grid = f.cases.grid();
    assert.equal(replies(fake.requests).length, 8, 'four samples a cell');
    const refund = cell(grid, 'refund');
    assert.deepEqual(
      [refund.status, refund.passedSamples, refund.minPass, refund.repeat, refund.flaky],
      ['failed', 0, 3, 4, false],
    );
    assert.equal(refund.samples?.length, 4);
    for (const s of refund.samples ?? []) {
      assert.deepEqual(
        s.assertions.map(a => [a.type, a.pass]),
        [
          ['rubric', true],
          ['rubric', false],
        ],
      );
      assert.match(s.assertions[0]!.message, /The reply has "30 jours"\. \(score 1\)$/);
      assert.match(s.assertions[1]!.message, /The reply lacks "merci"\. \(score 0, below 0\.5\)$/);
    }
    // the four samples said the same: the judge was asked once per rubric, on the judge model
    const judged = fake.requests.filter(isJudge);
    assert.equal(judged.length, 2);
    assert.ok(judged.every(r => (r.body as { model: string }).model === HAIKU));
    const flaky = cell(grid, 'flaky');
    assert.deepEqual([flaky.status, flaky.passedSamples, flaky.flaky], ['failed', 2, true]);
    assert.match(f.cases.status.item.text, /2\/2 · 2 failed · 1 flaky/);
    // what it cost: the replies at sonnet's prices, the judge at haiku's, apart
    assert.ok(refund.costUsd! > 0 && refund.judgeCostUsd! > 0);
    const u = refund.samples[0]!.usage!;
    const one = (u.input_tokens! * 3 + u.output_tokens! * 15) / 1e6;
    assert.ok(Math.abs(refund.costUsd! - 4 * one) < 1e-12, `${refund.costUsd} is four samples of ${one}`);
  });

  it('a second run asks the judge nothing: its verdicts are kept beside the results', async () => {
    const fake = holder.fake;
    await vscode.commands.executeCommand('promptwright.runCases', cases);
    fake.clear();
    await vscode.commands.executeCommand('promptwright.runCases', cases);
    assert.equal(fake.requests.filter(isJudge).length, 0);
    assert.equal(replies(fake.requests).length, 8);
    const refund = cell((await features()).cases.grid(), 'refund');
    assert.ok(
      refund.samples![0]!.assertions.every(a => a.cached),
      'the verdicts came from the cache',
    );
    assert.equal(refund.judgeCostUsd, 0, 'no judge call, no judge cost');
  });

  it('a 👎 with a note on a sample is kept with the results by the reply’s text, and after a re-run', async () => {
    const f = await features();
    await vscode.commands.executeCommand('promptwright.runCases', cases);
    const before = f.cases.prompts;
    f.cases.prompts = scripted(['Too curt for a refund question']);
    try {
      await f.cases.handle({ type: 'grade', caseName: 'refund', model: SONNET, sample: 1, grade: 'down' });
      await f.cases.handle({ type: 'grade', caseName: 'refund', model: SONNET, sample: 1, grade: 'none', note: true });
    } finally {
      f.cases.prompts = before;
    }
    const grade = { grade: 'down', note: 'Too curt for a refund question' };
    // every sample with the same reply shows it
    let refund = cell(f.cases.grid(), 'refund');
    assert.deepEqual(
      refund.samples!.map(s => s.humanGrade),
      [grade, grade, grade, grade],
    );
    const saved = JSON.parse(fs.readFileSync(f.cases.grid()!.savedPath!, 'utf8')) as { grades: unknown[] };
    assert.equal(saved.grades.length, 1);
    // a re-run of the cell: the same reply keeps its grade
    await f.cases.handle({ type: 'rerun', target: { scope: 'cell', caseName: 'refund', model: SONNET } });
    refund = cell(f.cases.grid(), 'refund');
    assert.deepEqual(refund.samples![0]!.humanGrade, grade);
    // taken back
    await f.cases.handle({ type: 'grade', caseName: 'refund', model: SONNET, sample: 0, grade: 'none' });
    assert.equal(cell(f.cases.grid(), 'refund').samples![2]!.humanGrade, undefined);
  });

  it('promptwright.prices: a model’s own price; a model with no price has no cost, and says why', async () => {
    const f = await features();
    const restore = await setSetting('prices', {
      [SONNET]: { input: 1000, output: 0, cache_write_5m: 0, cache_write_1h: 0, cache_read: 0 },
    });
    try {
      // the grid of this case file, whichever test ran before (a re-run needs one)
      if (f.cases.grid()?.caseFileUri !== cases.toString())
        await vscode.commands.executeCommand('promptwright.runCases', cases);
      await f.cases.handle({ type: 'rerun', target: { scope: 'cell', caseName: 'flaky', model: SONNET } });
      const flaky = cell(f.cases.grid(), 'flaky');
      const inputs = flaky.samples!.reduce((n, s) => n + s.usage!.input_tokens!, 0);
      assert.ok(Math.abs(flaky.costUsd! - (inputs * 1000) / 1e6) < 1e-9, String(flaky.costUsd));
    } finally {
      await restore();
    }
    await write('refund.cases.yaml', CASES.replace(`models: [${SONNET}]`, 'models: [model-quill-1]'));
    try {
      await vscode.commands.executeCommand('promptwright.runCases', cases);
      const flaky = cell(f.cases.grid(), 'flaky');
      assert.equal(flaky.costUsd, null);
      assert.match(flaky.samples![0]!.costNote!, /^no price for model-quill-1/);
    } finally {
      await write('refund.cases.yaml', CASES);
    }
  });

  it('the Test Explorer: below min-pass it fails at the rubric’s line, with the samples and reasons', async () => {
    const f = await features();
    await f.casesTests.controller.resolveHandler?.(undefined);
    await f.caseDiagnostics.checkNow(cases);
    const item = await waitFor('the case file’s item', () => f.casesTests.controller.items.get(cases.toString()));
    await f.casesTests.runProfile.runHandler(
      new vscode.TestRunRequest([item]),
      new vscode.CancellationTokenSource().token,
    );
    const said = f.casesTests.reported()[`${DIR}/refund.cases.yaml › refund › ${SONNET}`];
    assert.equal(said?.state, 'failed');
    assert.equal(said?.messages.length, 1, 'one message: the rubric that failed');
    const m = said.messages[0]!;
    assert.equal(m.line, 10, 'at `- rubric: { criteria: …merci… }`');
    assert.match(fs.readFileSync(cases.fsPath, 'utf8').split('\n')[10]!, /- rubric: \{ criteria: 'Thanks the customer/);
    assert.match(m.message, /^0 of 4 samples passed \(3 needed\); this assertion failed in 4:\n/);
    assert.match(m.message, /\nsample 1: rubric “Thanks the customer: "merci"”: The reply lacks "merci"\./);
    assert.match(m.message, /\nsample 4: /);
  });

  it('a rubric with no judge model runs nothing and says where to set one', async () => {
    const f = await features();
    await write('refund.cases.yaml', CASES.replace(`judge: { model: ${HAIKU} }\n`, ''));
    holder.fake.clear();
    try {
      await vscode.commands.executeCommand('promptwright.runCases', cases);
      assert.equal(holder.fake.requests.length, 0);
      assert.match(
        f.cases.grid()?.notice ?? '',
        /no judge model: add "judge: \{ model: … \}".*promptwright\.cases\.judgeModel/,
      );
      const restore = await setSetting('cases.judgeModel', HAIKU);
      try {
        await vscode.commands.executeCommand('promptwright.runCases', cases);
        assert.equal(replies(holder.fake.requests).length, 8);
        // graded by the setting's model (its verdicts may have been kept by an earlier run)
        const refund = cell(f.cases.grid(), 'refund');
        assert.match(refund.assertions[0]!.message, /The reply has "30 jours"/);
      } finally {
        await restore();
      }
    } finally {
      await write('refund.cases.yaml', CASES);
    }
  });

  it('a judge prompt file: checked in the case file (a missing {{reply}}), then used', async () => {
    const f = await features();
    const codes = async () => {
      await f.caseDiagnostics.checkNow(cases);
      return vscode.languages.getDiagnostics(cases).map(d => (typeof d.code === 'object' ? d.code.value : d.code));
    };
    await write('grade.txt', 'Grade against {{criteria}}.');
    await write(
      'refund.cases.yaml',
      CASES.replace(`judge: { model: ${HAIKU} }`, `judge: { model: ${HAIKU}, prompt: grade.txt }`),
    );
    try {
      await waitFor('judge-prompt-placeholder', async () => (await codes()).includes('judge-prompt-placeholder'));
      await write('grade.txt', 'Reply: <reply>{{reply}}</reply> Criteria: <criteria>{{criteria}}</criteria>');
      await waitFor('a clean check', async () => !(await codes()).includes('judge-prompt-placeholder'));
      holder.fake.clear();
      // a re-run of the cell in this case file's grid; with no such grid (whichever test ran before), a run
      if (f.cases.grid()?.caseFileUri === cases.toString())
        await f.cases.handle({ type: 'rerun', target: { scope: 'cell', caseName: 'refund', model: SONNET } });
      else await vscode.commands.executeCommand('promptwright.runCases', cases);
      const judged = holder.fake.requests.filter(isJudge).map(r => JSON.stringify(r.body));
      assert.ok(judged.length && judged.every(b => b.includes('Reply: <reply>Hello! You said:')), judged[0]);
    } finally {
      await write('refund.cases.yaml', CASES);
      fs.rmSync(uri('grade.txt').fsPath, { force: true });
    }
  });

  it('the response panel says what a reply cost', async () => {
    const f = await features();
    await openEditor(DIR, 'refund.prompt.yaml');
    await vscode.commands.executeCommand('promptwright.sendRequest');
    const cost = f.runner.current?.view.cost;
    const usage = f.runner.current?.view.message?.usage;
    assert.ok(cost && usage, 'a cost once the reply ended');
    assert.equal(cost.usd, (usage.input_tokens! * 3 + usage.output_tokens! * 15) / 1e6);
  });
});
