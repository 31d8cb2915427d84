// A case run made ready the same way for every front end (core/cases/session.ts): the case file opened from a
// source with its dataset's rows, usable only without errors; each cell filled, ready or with why not; a version
// that cannot run says why; rubrics with no judge model found; a batch's requests named as the CLI and the grid
// name them.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { customIds } from '../../../src/core/batches/requests';
import { sampleJobs } from '../../../src/core/cases/engine';
import type { FileSource } from '../../../src/core/cases/load';
import {
  batchJobsOf,
  filledCells,
  NO_MODEL,
  openCaseFile,
  rubricsWithoutJudge,
  versionCells,
} from '../../../src/core/cases/session';

const root = path.resolve('/repo');
const CASES = path.join(root, 'prompts', 'support.cases.yaml');
const REQUEST = path.join(root, 'prompts', 'support.prompt.json');
const DATA = path.join(root, 'prompts', 'rows.csv');

const request = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ max_tokens: 100, messages: [{ role: 'user', content: '{{question}}' }], ...extra });
const caseFile = (lines: string[]) => ['request: support.prompt.json', ...lines].join('\n') + '\n';
const LISTED = ['cases:', '  - name: greeting', '    vars: { question: Hi }', '    assert: [{ contains: Hi }]'];

/** In-memory texts by path; what it does not hold is missing. */
const sourceOf =
  (files: Record<string, string>): FileSource =>
  abs =>
    files[abs] === undefined ? undefined : { text: files[abs] };

const open = (files: Record<string, string>, o: { choice?: { limit: number } } = {}) =>
  openCaseFile(CASES, root, sourceOf(files), { display: 'support.cases.yaml', ...o });

describe('cases: a run made ready (session)', () => {
  it('opens a case file with its dataset rows (from the source), ids on every case, nothing to fix', async () => {
    const opened = await open({
      [CASES]: caseFile(['models: [model-haiku-4-5]', 'dataset: rows.csv', ...LISTED]),
      [REQUEST]: request(),
      [DATA]: 'question,__expected\nWhere?,contains: there\nWhen?,contains: now\n',
    });
    assert.deepEqual(opened.records, []);
    assert.deepEqual(
      opened.loaded?.file.cases.map(c => c.name),
      ['greeting', 'row 2', 'row 3'],
    );
    assert.deepEqual(opened.cases, { chosen: 3, of: 3 });
    for (const c of opened.loaded.file.cases) assert.match((c as { id?: string }).id ?? '', /^[0-9a-f]{16}$/);
  });

  it('takes the cases a choice chooses, and says of how many', async () => {
    const opened = await open(
      {
        [CASES]: caseFile(['models: [model-haiku-4-5]', 'dataset: rows.csv', ...LISTED]),
        [REQUEST]: request(),
        [DATA]: 'question\nA\nB\nC\n',
      },
      { choice: { limit: 2 } },
    );
    assert.deepEqual(opened.cases, { chosen: 2, of: 4 });
    assert.equal(opened.loaded?.file.cases.length, 2);
  });

  it('streams the chosen cases to onChosen as they are read, a sample once all are; none kept', async () => {
    const files = {
      [CASES]: caseFile(['models: [model-haiku-4-5]', 'dataset: rows.csv', ...LISTED]),
      [REQUEST]: request(),
      [DATA]: 'question\nA\nB\nC\n',
    };
    const seen: string[] = [];
    const all = await openCaseFile(CASES, root, sourceOf(files), {
      display: 'support.cases.yaml',
      onChosen: (c, loaded) => seen.push(`${c.name} of ${loaded.display}`),
    });
    assert.deepEqual(seen, [
      'greeting of support.cases.yaml',
      'row 2 of support.cases.yaml',
      'row 3 of support.cases.yaml',
      'row 4 of support.cases.yaml',
    ]);
    assert.deepEqual(all.cases, { chosen: 4, of: 4 });
    assert.deepEqual(
      all.loaded?.file.cases.map(c => c.name),
      ['greeting'],
      'the listed cases only: the rows went on',
    );
    seen.length = 0;
    const sample = await openCaseFile(CASES, root, sourceOf(files), {
      display: 'support.cases.yaml',
      choice: { sample: 2, seed: 1 },
      onChosen: c => seen.push(c.name),
    });
    assert.equal(seen.length, 2);
    assert.deepEqual(sample.cases, { chosen: 2, of: 4 });
  });

  it('is not usable when any record is an error: in the case file, its dataset or a missing request', async () => {
    const bad = await open({ [CASES]: caseFile(['cases:', '  - name: a', '  - name: a']), [REQUEST]: request() });
    assert.equal(bad.loaded, undefined);
    assert.ok(bad.records.some(r => r.severity === 'error' && r.code === 'duplicate-case-name'));
    // its own errors first: the cases it means are not checked against the request yet (`check` does that)
    assert.ok(!bad.records.some(r => r.code === 'undefined-placeholder'), JSON.stringify(bad.records));

    const ragged = await open({
      [CASES]: caseFile(['dataset: rows.csv', 'cases: []']),
      [REQUEST]: request({ model: 'model-haiku-4-5' }),
      [DATA]: 'question\nA\nB,extra\n',
    });
    assert.equal(ragged.loaded, undefined);
    assert.ok(ragged.records.some(r => r.file === path.relative(root, DATA) && r.severity === 'error'));

    const lost = await open({ [CASES]: caseFile(LISTED) });
    assert.equal(lost.loaded, undefined);
    assert.ok(lost.records.some(r => r.severity === 'error'));
  });

  it('opens 5,000 listed cases in time linear in the file (each case placed in one walk, not one a case)', async () => {
    const cases = Array.from({ length: 5000 }, (_, i) => ({ name: `c${i}`, vars: { question: `q${i}` } }));
    const json = path.join(root, 'prompts', 'many.cases.json');
    const t0 = performance.now();
    const opened = await openCaseFile(
      json,
      root,
      sourceOf({
        [json]: JSON.stringify({ request: 'support.prompt.json', models: ['model-haiku-4-5'], cases }, null, 2),
        [REQUEST]: request(),
      }),
      { display: 'many.cases.json' },
    );
    const ms = performance.now() - t0;
    assert.equal(opened.loaded?.file.cases.length, 5000);
    // each case's line: the last one's is where it is in the file
    assert.equal((opened.loaded.file.cases[4999] as { line?: number }).line, 7 + 4999 * 6);
    // a place found by a walk from the start for each case took 36 s here; one walk, about 0.3 s
    assert.ok(ms < 5000, `${Math.round(ms)} ms`);
  });

  it('fills each cell: ready for the engine with its assertions, or with why it cannot be sent', async () => {
    const opened = await open({
      [CASES]: caseFile([
        'models: [model-haiku-4-5]',
        'repeat: 2',
        ...LISTED,
        '  - name: no question',
        '    vars: { other: x }',
      ]),
      [REQUEST]: request(),
    });
    // a case without the placeholder's value is an error of the file: the loader says so, nothing is usable
    assert.equal(opened.loaded, undefined);
    assert.ok(opened.records.some(r => r.code === 'undefined-placeholder'));

    const ok = await open({ [CASES]: caseFile(['models: [model-haiku-4-5]', ...LISTED]), [REQUEST]: request() });
    const cells = filledCells(
      ok.loaded!,
      [
        { caseName: 'greeting', model: 'model-haiku-4-5' },
        { caseName: 'nobody', model: 'model-haiku-4-5' },
      ],
      { betas: [], sampling: { repeat: 3 } },
    );
    assert.equal(cells[0]!.cell?.body.model, 'model-haiku-4-5');
    assert.deepEqual(cells[0]!.cell?.assertions, [{ contains: 'Hi' }]);
    assert.equal(cells[0]!.cell?.repeat, 3);
    assert.equal(cells[1]!.cell, undefined);
    assert.match(cells[1]!.problems[0]!, /no case named "nobody"/);
  });

  it('a version that cannot run says why: its errors as lines, or that it names no model', async () => {
    const noModel = await open({ [CASES]: caseFile(LISTED), [REQUEST]: request() });
    assert.deepEqual(versionCells(noModel, { betas: [] }), { problems: [NO_MODEL] });
    assert.deepEqual(
      versionCells(noModel, { betas: [], models: ['model-sonnet-4-6'] }).cells?.map(c => [c.caseName, c.model]),
      [['greeting', 'model-sonnet-4-6']],
    );
    const broken = await open({ [CASES]: caseFile(['cases:', '  - name: a', '  - name: a']), [REQUEST]: request() });
    const said = versionCells(broken, { betas: [] }).problems ?? [];
    assert.match(said[0] ?? '', /^support\.cases\.yaml:\d+:\d+: error duplicate-case-name: /);
  });

  it('finds the rubrics no judge model grades, unless the run has a default judge', () => {
    const cell = (assertions: object[], judge?: { model: string }) => ({ assertions, ...(judge ? { judge } : {}) });
    const cells = [
      cell([{ rubric: 'polite' }]),
      cell([{ rubric: 'polite' }], { model: 'model-haiku-4-5' }),
      cell([{ contains: 'x' }]),
    ] as Parameters<typeof rubricsWithoutJudge>[0];
    assert.deepEqual(rubricsWithoutJudge(cells, undefined), [cells[0]]);
    assert.deepEqual(rubricsWithoutJudge(cells, 'model-haiku-4-5'), []);
  });

  it("names a batch's requests as customIds does, or takes the ids a batch holds", async () => {
    const opened = await open({
      [CASES]: caseFile(['models: [model-haiku-4-5]', 'repeat: 2', ...LISTED]),
      [REQUEST]: request(),
    });
    const cells = filledCells(opened.loaded!, [{ caseName: 'greeting', model: 'model-haiku-4-5' }], { betas: [] }).map(
      c => c.cell!,
    );
    const { jobs, idOf } = batchJobsOf(cells, () => 'support.cases.yaml');
    const samples = sampleJobs(cells);
    const expected = customIds(
      samples.map(j => ({
        file: 'support.cases.yaml',
        caseName: 'greeting',
        model: 'model-haiku-4-5',
        sample: j.sample,
        body: j.body,
      })),
    );
    assert.deepEqual(
      jobs.map(j => j.customId),
      expected,
    );
    assert.deepEqual(
      jobs.map(j => j.ref),
      [
        { file: 'support.cases.yaml', caseName: 'greeting', model: 'model-haiku-4-5', sample: 0, cell: 0 },
        { file: 'support.cases.yaml', caseName: 'greeting', model: 'model-haiku-4-5', sample: 1, cell: 0 },
      ],
    );
    assert.equal(idOf({ cell: 0, sample: 1 }), expected[1]);

    // collecting: only the jobs the batch holds, by cell:sample
    const held = batchJobsOf(cells, () => 'support.cases.yaml', new Map([['0:1', 'held-id']]));
    assert.deepEqual(
      held.jobs.map(j => j.customId),
      ['held-id'],
    );
    assert.equal(held.idOf({ cell: 0, sample: 0 }), undefined);
  });
});
