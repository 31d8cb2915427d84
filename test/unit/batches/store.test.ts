import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MessageBatch } from '../../../src/core/api/batches';
import { BatchStore, recordOf, runKeyOf } from '../../../src/core/batches/store';

const batch = (id: string, o: Partial<MessageBatch> = {}): MessageBatch => ({
  id,
  type: 'message_batch',
  processing_status: 'in_progress',
  request_counts: { processing: 2, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
  created_at: '2026-05-01T10:00:00Z',
  expires_at: '2026-05-02T10:00:00Z',
  ended_at: null,
  archived_at: null,
  cancel_initiated_at: null,
  results_url: null,
  ...o,
});

describe('batch resume state', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-batches-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a run key is the same for the same requests in any order, and differs when one changes', () => {
    assert.equal(runKeyOf(['a', 'b', 'c']), runKeyOf(['c', 'a', 'b']));
    assert.notEqual(runKeyOf(['a', 'b', 'c']), runKeyOf(['a', 'b', 'd']));
    assert.match(runKeyOf(['a']), /^[0-9a-f]{24}$/);
  });

  it('keeps a batch, its cell map and its run; another store on the same folder reads them back', async () => {
    const store = new BatchStore(dir);
    const run = BatchStore.newRun('k1', { cwd: '/repo', files: ['a.cases.yaml'], args: { repeat: 3 } });
    run.batchIds.push('msgbatch_1');
    await store.saveRun(run);
    const cells = { c0: { file: 'a.cases.yaml', caseName: 'one', model: 'm', sample: 0 } };
    await store.addBatch(recordOf(batch('msgbatch_1'), { key: 'k1', cwd: '/repo', files: ['a.cases.yaml'] }, 2), cells);

    const again = new BatchStore(dir);
    assert.deepEqual(await again.run('k1'), run);
    assert.deepEqual(await again.cells('msgbatch_1'), cells);
    const r = (await again.batch('msgbatch_1'))!;
    assert.equal(r.run, 'k1');
    assert.equal(r.requests, 2);
    assert.equal(r.processingStatus, 'in_progress');
    assert.deepEqual(
      fs.readdirSync(dir).sort(),
      ['msgbatch_1.cells.json', 'msgbatch_1.json', 'runs'],
      'the layout docs/cli.md describes; no temporary file left',
    );
  });

  it('updates what the service said, marks batches collected, and lists them newest first', async () => {
    const store = new BatchStore(dir);
    const run = { key: 'k', cwd: '/r', files: [] };
    await store.addBatch(recordOf(batch('msgbatch_old', { created_at: '2026-05-01T09:00:00Z' }), run, 1), {});
    await store.addBatch(recordOf(batch('msgbatch_new'), run, 2), {});
    const counts = { processing: 0, succeeded: 1, errored: 1, canceled: 0, expired: 0 };
    const ended = batch('msgbatch_new', { processing_status: 'ended', request_counts: counts, ended_at: 'x' });
    assert.equal((await store.updateBatch(ended))!.processingStatus, 'ended');
    assert.equal(await store.updateBatch(batch('msgbatch_unknown')), undefined);
    await store.markCollected(['msgbatch_new'], new Date('2026-05-01T12:00:00Z'));
    const list = await store.batches();
    assert.deepEqual(
      list.map(b => [b.id, b.processingStatus, b.collectedAt]),
      [
        ['msgbatch_new', 'ended', '2026-05-01T12:00:00.000Z'],
        ['msgbatch_old', 'in_progress', undefined],
      ],
    );
    assert.deepEqual(list[0]!.requestCounts, counts);
  });

  it('what is not there, or not readable, is as if never kept; ids that are not ids are refused', async () => {
    const store = new BatchStore(dir);
    assert.deepEqual(await new BatchStore(path.join(dir, 'none')).batches(), []);
    assert.equal(await store.run('nope'), undefined);
    fs.writeFileSync(path.join(dir, 'msgbatch_bad.json'), '{"truncated');
    assert.equal(await store.batch('msgbatch_bad'), undefined);
    assert.deepEqual(await store.batches(), []);
    await assert.rejects(store.batch('../etc/passwd'), RangeError);
  });

  it('a write that fails says so (the state of a paid batch is never silently lost)', async () => {
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, '');
    const store = new BatchStore(file);
    await assert.rejects(store.saveRun(BatchStore.newRun('k', { cwd: '/', files: [], args: {} })));
  });
});
