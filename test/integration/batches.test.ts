// Case files as Message Batches in the real extension host, against the fake (a batch stays in_progress for a
// while, then ends; "Hello! You said: <the question>" for each request): the Test Explorer's "Run as Batch (half
// price)" profile and the grid's "Run All as Batch" (one create, no POST /v1/messages, the cells queued in batch
// until the results arrive, then the verdicts a direct run gives); the Batches view (its rows, the service's list
// a page at a time, Cancel after a modal confirmation), and a batch whose run is gone (a reload) collected into
// the grid and the Test Explorer when it ends.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Features } from '../../src/features';
import type { CellView, GridView } from '../../src/protocol/cases';
import type { BatchNode } from '../../src/vscode/batches/batchesView';
import type { FakeRequest } from '../fake/server';
import { api, endCaseRuns, scripted, useFake, waitFor, workspaceUri } from './helpers';

const DIR = 'batches-suite';
const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'cases');
const FAST = { firstMs: 100, maxMs: 300, factor: 1.5 };

const uri = (name: string) => workspaceUri(DIR, name);
const creates = (r: FakeRequest[]) => r.filter(x => x.method === 'POST' && x.path === '/v1/messages/batches');
const messages = (r: FakeRequest[]) => r.filter(x => x.method === 'POST' && x.path === '/v1/messages');

async function features(): Promise<Features> {
  return (await api()).features();
}

/** The grid's cells, `case × model: status` (a cell waiting in a batch: `queued in batch`). */
function statuses(grid: GridView | undefined): string[] {
  return (grid?.cells ?? []).map(
    (c: CellView) => `${c.caseName} × ${c.model}: ${c.status === 'queued' && c.batchId ? 'queued in batch' : c.status}`,
  );
}

describe('case files as Message Batches (real extension host)', () => {
  const holder = useFake({ batchProcessingMs: 1500 });
  const support = uri('support.cases.yaml');

  before(async () => {
    fs.mkdirSync(workspaceUri(DIR).fsPath, { recursive: true });
    for (const f of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, f), uri(f).fsPath);
    const f = await features();
    f.batches.pace = FAST;
  });
  after(async () => {
    await endCaseRuns(DIR);
  });
  beforeEach(async () => {
    // what an earlier test left running (a batch the view still polls or collects) ends first
    const f = await features();
    await f.batches.idle();
    await f.cases.idle();
    holder.fake.clear();
    holder.fake.batches.processingMs = 1500;
  });

  async function fileItem(): Promise<vscode.TestItem> {
    const f = await features();
    await f.casesTests.controller.resolveHandler?.(undefined);
    if (!f.casesTests.controller.items.get(support.toString())) await f.caseDiagnostics.checkNow(support);
    return waitFor('the case file’s item', () => {
      const item = f.casesTests.controller.items.get(support.toString());
      return item?.children.size ? item : undefined;
    });
  }

  it('the Test Explorer’s "Run as Batch (half price)": one create, queued in batch, then the verdicts', async () => {
    const f = await features();
    assert.equal(f.casesTests.batchProfile.label, 'Run as Batch (half price)');
    assert.equal(f.casesTests.batchProfile.kind, vscode.TestRunProfileKind.Run);
    const item = await fileItem();
    const run = f.casesTests.batchProfile.runHandler(
      new vscode.TestRunRequest([item]),
      new vscode.CancellationTokenSource().token,
    );
    // while the batch is processing, every cell says so
    await waitFor(
      'the cells queued in batch',
      () => statuses(f.cases.grid()).every(s => s.endsWith('queued in batch')) && f.cases.grid()?.cells.length === 6,
    );
    const id = f.cases.grid()!.cells[0]!.batchId!;
    assert.match(id, /^msgbatch_/);
    await run;
    assert.equal(creates(holder.fake.requests).length, 1);
    assert.equal(messages(holder.fake.requests).length, 0, 'no cell sent on its own');
    assert.deepEqual(statuses(f.cases.grid()), [
      'greeting × model-sonnet-4-6: passed',
      'greeting × model-haiku-4-5: passed',
      'weather tool × model-sonnet-4-6: passed',
      'weather tool × model-haiku-4-5: passed',
      'refund in French × model-sonnet-4-6: failed',
      'refund in French × model-haiku-4-5: failed',
    ]);
    const cell = f.cases.grid()!.cells[0]!;
    assert.equal(cell.batchId, id);
    assert.equal(cell.usage?.service_tier, 'batch');
    const told = f.casesTests.reported();
    const prefix = `${DIR}/support.cases.yaml › `;
    assert.equal(told[`${prefix}greeting › model-haiku-4-5`]?.state, 'passed');
    assert.equal(told[`${prefix}refund in French › model-sonnet-4-6`]?.state, 'failed');
    // the Batches view has it, ended and collected
    const record = await waitFor('the batch in the Batches view', () => f.batches.batches.find(b => b.id === id));
    assert.equal(record.processingStatus, 'ended');
    assert.ok(record.collectedAt);
  });

  it('the grid’s "Run All as Batch": the cells fill when the batch ends; the cost is the batch price', async () => {
    const f = await features();
    await vscode.commands.executeCommand('promptwright.runCases', support);
    const direct = f.cases.grid()!.cells.map(c => [c.caseName, c.model, c.status, c.text, c.costUsd]);
    holder.fake.clear();
    const run = f.cases.handle({ type: 'run-batch' });
    await waitFor('the cells queued in batch', () => statuses(f.cases.grid()).some(s => s.endsWith('queued in batch')));
    await run;
    const batched = f.cases.grid()!.cells;
    assert.deepEqual(
      batched.map(c => [c.caseName, c.model, c.status, c.text]),
      direct.map(d => d.slice(0, 4)),
    );
    for (const [i, c] of batched.entries()) {
      const full = direct[i]![4] as number;
      assert.ok(Math.abs((c.costUsd ?? 0) * 2 - full) < 1e-12, `${c.caseName} × ${c.model}: half of ${full}`);
    }
    assert.equal(messages(holder.fake.requests).length, 0);
  });

  it('"Run All as Batch" on tool-use loops: a batch a round, the cells still calling tools in each', async () => {
    const f = await features();
    for (const name of ['agent.prompt.yaml', 'agent.cases.yaml'])
      fs.copyFileSync(path.resolve(FIXTURES, '..', 'agent', name), uri(name).fsPath);
    await vscode.commands.executeCommand('promptwright.runCases', uri('agent.cases.yaml'));
    const row = (c: CellView) => [c.caseName, c.status, c.text, c.toolCalls ?? [], c.error?.message ?? null];
    const direct = f.cases.grid()!.cells.map(c => [...row(c), c.costUsd]);
    assert.equal(direct.length, 5);
    holder.fake.clear();
    holder.fake.batches.processingMs = 200;
    await f.cases.handle({ type: 'run-batch' });
    const batched = f.cases.grid()!.cells;
    assert.deepEqual(
      batched.map(row),
      direct.map(d => d.slice(0, -1)),
    );
    // every cell in the first round; then those still calling tools, until the one looping to its max-turns 6
    const rounds = creates(holder.fake.requests).map(r => (r.body as { requests: unknown[] }).requests.length);
    assert.deepEqual(rounds, [5, 4, 3, 1, 1, 1]);
    assert.equal(messages(holder.fake.requests).length, 0);
    for (const [i, c] of batched.entries()) {
      const full = direct[i]!.at(-1) as number;
      assert.ok(Math.abs((c.costUsd ?? 0) * 2 - full) < 1e-12, `${c.caseName}: half of ${full}`);
    }
    // each round's batch is collected: none is left for the Batches view to collect
    await f.batches.idle();
    const ids = new Set(holder.fake.batches.all.map(b => b.id));
    const kept = f.batches.batches.filter(b => ids.has(b.id));
    assert.equal(kept.length, 6);
    assert.ok(kept.every(b => b.collectedAt));
    // the Test Explorer's output of a loop cell: its trajectory, then its final reply
    const told = f.casesTests.reported()[`${DIR}/agent.cases.yaml › shipped order › model-sonnet-4-6`];
    assert.equal(told?.state, 'passed');
    assert.equal(
      told.output,
      [
        'shipped order on model-sonnet-4-6:',
        '3 model requests, 2 tool calls',
        '  turn 1: lookup_order {"order_id":"1234"} → file: {"status":"shipped"}',
        '  turn 2: get_weather {"city":"Paris"} → file: Sunny, 21 C',
        'Here is what I found: {"status":"shipped"}; Sunny, 21 C.',
        '',
        '',
      ].join('\n'),
    );
  });

  it('a batch whose run is gone (a reload) is polled by the Batches view and collected into the grid', async () => {
    const f = await features();
    holder.fake.batches.processingMs = 2500;
    const run = f.cases.runner.run(support, { scope: 'all' }, { batch: {} });
    await waitFor('the cells queued in batch', () => statuses(f.cases.grid()).some(s => s.endsWith('queued in batch')));
    // the run goes (as a reload ends it): the cells stay queued in their batch, not cancelled
    f.cases.cancel();
    await run;
    assert.ok(
      statuses(f.cases.grid()).every(s => s.endsWith('queued in batch')),
      statuses(f.cases.grid()).join(),
    );
    const id = f.cases.grid()!.cells[0]!.batchId!;
    // activation after a reload: the view reads what it kept and polls what has not ended
    const pending = (await api()).features().then(x => x.batches);
    await (await pending).reload();
    const ended = new Promise<void>(resolve => {
      const d = f.batches.onDidEnd(r => {
        if (r.id === id) {
          d.dispose();
          resolve();
        }
      });
    });
    await ended;
    await f.cases.idle();
    assert.deepEqual(
      statuses(f.cases.grid()).map(s => s.split(': ')[1]),
      ['passed', 'passed', 'passed', 'passed', 'failed', 'failed'],
    );
    assert.equal(creates(holder.fake.requests).length, 1, 'collecting sends nothing again');
    const record = f.batches.batches.find(b => b.id === id)!;
    assert.ok(record.collectedAt);
  });

  it('the Batches view: each batch with file, status, counts, age; the service’s list a page at a time', async () => {
    const f = await features();
    holder.fake.batches.processingMs = 60_000;
    const run = f.cases.runner.run(support, { scope: 'all' }, { batch: {} });
    await waitFor('the cells queued in batch', () => statuses(f.cases.grid()).some(s => s.endsWith('queued in batch')));
    f.cases.cancel();
    await run;
    const id = f.cases.grid()!.cells[0]!.batchId!;
    const rows = await f.batches.getChildren();
    const mine = rows.find((n): n is Extract<BatchNode, { kind: 'batch' }> => n.kind === 'batch' && n.id === id)!;
    const item = f.batches.getTreeItem(mine);
    assert.equal(item.label, 'support.cases.yaml');
    assert.match(String(item.description), /^in_progress · 6 processing · \d+ s ago · expires in 2[34] h \d\d min$/);
    assert.equal(item.contextValue, 'batch.pending');
    assert.match((item.tooltip as vscode.MarkdownString).value, new RegExp(id));
    // "On the service": every batch of the workspace, newest first, a page at a time
    const service = rows.at(-1)!;
    assert.equal(service.kind, 'service');
    const listed = await f.batches.getChildren(service);
    assert.equal(listed[0]?.kind, 'remote');
    assert.ok(holder.fake.requests.some(r => r.method === 'GET' && r.path === '/v1/messages/batches'));

    // Cancel asks first (a modal confirmation): declined, nothing is sent
    const prompts = (await api()).api.prompts;
    const seen: string[] = [];
    try {
      (await api()).api.prompts = scripted([false], seen);
      assert.equal(await f.batches.cancel(mine), false);
      assert.ok(!holder.fake.requests.some(r => r.path.endsWith('/cancel')));
      (await api()).api.prompts = scripted([true], seen);
      assert.equal(await f.batches.cancel(mine), true);
    } finally {
      (await api()).api.prompts = prompts;
    }
    assert.match(seen[0]!, new RegExp(`^confirm: Cancel batch ${id} of support\\.cases\\.yaml\\? \\[Cancel Batch\\]$`));
    const cancel = holder.fake.requests.filter(r => r.path === `/v1/messages/batches/${id}/cancel`);
    assert.equal(cancel.length, 1);
    await waitFor('the batch canceled, then ended', () =>
      ['canceling', 'ended'].includes(f.batches.batches.find(b => b.id === id)?.processingStatus ?? ''),
    );
    // the collect that follows its end shows its cells cancelled: none had been processed
    await waitFor('the cells cancelled', async () => {
      await f.cases.idle();
      return statuses(f.cases.grid()).every(s => s.endsWith('cancelled'));
    });
  });
});
