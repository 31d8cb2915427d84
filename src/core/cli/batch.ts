// `promptwright batch …`: the Message Batches `test --batch` submitted, from a terminal or CI. The batches this
// machine submitted are kept in PROMPTWRIGHT_CACHE_DIR/batches (core/batches/store.ts), so `list` shows them
// with the case files they run, `status` one, `cancel` one (with --yes), and `collect` waits for one and prints
// its cells as `test --batch` does.
import type { MessageBatch } from '../api/batches';
import type { BatchRecord, BatchStore } from '../batches/store';
import { age, countsText, expiry } from '../batches/view';
import { requireService } from './api';
import { parseArgs, UsageError } from './args';
import { format, listOptions, notConfirmed, positionals } from './common';
import { describeForCli } from './env';
import { confirmed, EXIT, guarded } from './guard';
import type { CliIo } from './io';
import { day, printJsonArray, printOne, printPages, table, type Column } from './output';
import { batchesFromEnv, batchStoreFromEnv, collectBatch } from './testBatch';

const BATCH_USAGE = `usage:
  promptwright batch list [--all] [--limit N] [--format text|json]
                 the batches submitted from here (test --batch), newest first, with their case files,
                 status and counts; --all: every batch of the workspace the key belongs to, a page at a
                 time (--limit N, default 20)
  promptwright batch status ID [--format text|json]
  promptwright batch cancel ID [--yes] [--format text|json]
                 its requests not yet processed end as canceled; the ones done are kept
  promptwright batch collect ID [--format text|json|junit]
                 waits for the batch to end (as test --batch does), then prints its cells
`;

/** How many of the service's batches `list --all` shows without --limit (the service's own page size). */
const DEFAULT_LIST = 20;

/** A batch as listed: what the service last said of it, and what this machine knows of it. */
interface Row {
  batch: Pick<MessageBatch, 'id' | 'processing_status' | 'created_at' | 'expires_at'> &
    Partial<Pick<MessageBatch, 'request_counts' | 'ended_at'>>;
  local?: BatchRecord;
  /** why the status shown is the last one known (the service could not be asked) */
  stale?: string;
}

const COLUMNS = (now: number): Column<Row>[] => [
  ['ID', r => r.batch.id],
  ['STATUS', r => `${r.batch.processing_status}${r.stale ? ' (last known)' : ''}`],
  ['REQUESTS', r => countsText(r.batch.request_counts, r.local?.requests)],
  ['CASE FILES', r => r.local?.files.join(', ') ?? '-'],
  ['CREATED', r => age(r.batch.created_at, now)],
  ['EXPIRES', r => expiry(r.batch.expires_at, r.batch.processing_status, now)],
  ['COLLECTED', r => (r.local ? day(r.local.collectedAt) || 'no' : '-')],
];

const rowJson = (r: Row) => ({
  ...r.batch,
  ...(r.local ? { promptwright: localJson(r.local) } : {}),
  ...(r.stale ? { stale: r.stale } : {}),
});
const localJson = (l: BatchRecord) => ({
  case_files: l.files,
  folder: l.cwd,
  requests: l.requests,
  collected_at: l.collectedAt ?? null,
});

export function runBatch(argv: string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  return guarded(io, `batch${verb ? ` ${verb}` : ''}`, async () => {
    if (!verb || verb === '--help' || verb === 'help') {
      io.stdout.write(BATCH_USAGE);
      return verb ? EXIT.ok : EXIT.refused;
    }
    if (verb === 'collect') {
      const [id, ...more] = rest;
      if (!id || id.startsWith('-')) throw new UsageError('expected ID (msgbatch_…)');
      return collectBatch(id, more, io);
    }
    if (verb === 'list') return list(rest, io);
    if (verb === 'status') return status(rest, io);
    if (verb === 'cancel') return cancel(rest, io);
    throw new UsageError(`unknown batch command '${verb}'\n${BATCH_USAGE}`);
  });
}

async function list(argv: string[], io: CliIo): Promise<number> {
  const p = parseArgs(argv, ['limit'], ['all']);
  const f = format(p);
  positionals(p, []);
  const store = batchStoreFromEnv(io.env);
  const now = Date.now();
  if (p.switches.has('all')) {
    requireService(io);
    // one page of the newest unless --limit asks for more: a workspace's list is never all loaded by surprise
    const o = listOptions(p, io);
    const max = o.max ?? DEFAULT_LIST;
    const known = new Map((await store.batches()).map(b => [b.id, b]));
    const pages = batchesFromEnv(io).pages({ ...o, max, pageSize: Math.min(max, o.pageSize) });
    const rows = mapPages(pages, b => ({ batch: b, ...(known.has(b.id) ? { local: known.get(b.id)! } : {}) }));
    if (f === 'json') await printPages(io, 'json', mapPages(rows, rowJson), []);
    else await printPages(io, 'text', rows, COLUMNS(now));
    if (o.max === undefined) io.stderr.write(`the newest ${DEFAULT_LIST} at most; --limit N (up to 1000) lists more\n`);
    return EXIT.ok;
  }
  if (p.values.has('limit')) throw new UsageError('--limit pages the service list: give --all with it');
  const records = await store.batches();
  const rows = await Promise.all(records.map(r => refreshed(r, io, store)));
  if (f === 'json') await printJsonArray(io, rows, rowJson);
  else if (!rows.length)
    io.stdout.write(`no batches submitted from here (${store.dir}); \`promptwright test FILE --batch\`\n`);
  else io.stdout.write(table(rows, COLUMNS(now)));
  return EXIT.ok;
}

/** Each page's records turned into rows, as the pages come (a list printed lazily stays lazy). */
async function* mapPages<T, U>(pages: AsyncIterable<{ data: T[] }>, f: (t: T) => U): AsyncGenerator<{ data: U[] }> {
  for await (const page of pages) yield { data: page.data.map(f) };
}

/** A kept batch with what the service says of it now (an ended and collected one is not asked again). */
async function refreshed(local: BatchRecord, io: CliIo, store: BatchStore): Promise<Row> {
  const lastKnown: Row['batch'] = {
    id: local.id,
    processing_status: local.processingStatus,
    created_at: local.createdAt,
    expires_at: local.expiresAt,
    ...(local.requestCounts ? { request_counts: local.requestCounts } : {}),
    ...(local.endedAt !== undefined ? { ended_at: local.endedAt } : {}),
  };
  if (local.processingStatus === 'ended' && local.collectedAt) return { batch: lastKnown, local };
  try {
    requireService(io);
    const { batch } = await batchesFromEnv(io).retrieve(local.id, io.signal ? { signal: io.signal } : {});
    return { batch, local: (await store.updateBatch(batch)) ?? local };
  } catch (e) {
    if (io.signal?.aborted) throw e;
    // one batch the service cannot say anything of costs the others nothing: its last known status is shown
    return { batch: lastKnown, local, stale: describeForCli(e) };
  }
}

async function status(argv: string[], io: CliIo): Promise<number> {
  const p = parseArgs(argv, []);
  const f = format(p);
  const [id] = positionals(p, ['ID']);
  requireService(io);
  const store = batchStoreFromEnv(io.env);
  const { batch } = await batchesFromEnv(io).retrieve(id!, io.signal ? { signal: io.signal } : {});
  const local = await store.updateBatch(batch);
  printBatch(io, f, batch, local);
  return EXIT.ok;
}

async function cancel(argv: string[], io: CliIo): Promise<number> {
  const p = parseArgs(argv, [], ['yes']);
  const f = format(p);
  const [id] = positionals(p, ['ID']);
  requireService(io);
  if (!(await confirmed(io, p.switches.has('yes'), `Cancel batch ${id}?`))) return notConfirmed(io);
  const store = batchStoreFromEnv(io.env);
  const { batch } = await batchesFromEnv(io).cancel(id!, io.signal ? { signal: io.signal } : {});
  const local = await store.updateBatch(batch);
  printBatch(io, f, batch, local);
  if (f === 'text')
    io.stderr.write(
      `${batch.id}: ${batch.processing_status}. Requests not yet processed end as canceled; ` +
        (local ? `\`promptwright batch collect ${batch.id}\` prints the cells it did process.\n` : '\n'),
    );
  return EXIT.ok;
}

function printBatch(io: CliIo, f: 'text' | 'json', batch: MessageBatch, local: BatchRecord | undefined): void {
  if (f === 'json') {
    printOne(io, 'json', rowJson({ batch, ...(local ? { local } : {}) }));
    return;
  }
  const now = Date.now();
  const expires = expiry(batch.expires_at, batch.processing_status, now);
  printOne(io, 'text', {
    id: batch.id,
    processing_status: batch.processing_status,
    request_counts: countsText(batch.request_counts),
    created_at: `${batch.created_at} (${age(batch.created_at, now)})`,
    expires_at: `${batch.expires_at}${expires ? ` (${expires})` : ''}`,
    ended_at: batch.ended_at,
    cancel_initiated_at: batch.cancel_initiated_at,
    results_url: batch.results_url,
    case_files: local ? local.files.join(', ') : '(not submitted from here)',
    ...(local ? { collected: local.collectedAt ?? 'no' } : {}),
  });
}
