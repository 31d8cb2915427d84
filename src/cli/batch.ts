// `promptwright batch …`: the Message Batches `test --batch` submitted, from a terminal or CI. The batches this
// machine submitted are kept in PROMPTWRIGHT_CACHE_DIR/batches (core/batches/store.ts), so `list` shows them
// with the case files they run, `status` one, `cancel` one (with --yes), and `collect` waits for one and prints
// its cells as `test --batch` does.
import type { MessageBatch } from '../core/api/batches';
import type { BatchRecord, BatchStore } from '../core/batches/store';
import { age, countsText, expiry } from '../core/batches/view';
import { requireService } from './api';
import { formatOption, parseArgs, UsageError, type Command, type Group, type Parsed } from './args';
import { format, groupCommand, listOptions, notConfirmed, positionals, TEXT_OR_JSON, yesOption } from './common';
import { describeForCli } from '../core/environment';
import { confirmed, CTRL_C, EXIT, guarded, REFUSED } from './guard';
import { PRICES } from './prices';
import { TEST } from './test';
import { REPORT_OPTIONS } from './testOutputs';
import type { CliIo } from './io';
import { day, printJsonArray, printOne, printPages, table, type Column } from './output';
import { batchesFromEnv, batchStoreFromEnv, collectBatch } from './testBatch';

const ID = 'ID';

const COLLECT: Command = {
  name: 'batch collect',
  args: ID,
  summary:
    'Waits for a batch submitted from here to end (as test --batch does), then prints its cells as test prints ' +
    'them: matched by its own custom_ids and judged by the assertions it was sent with, whatever the case files ' +
    'say now. Never submits.',
  options: [formatOption(['text', 'json', 'junit', 'markdown']), ...REPORT_OPTIONS, PRICES],
  exits: { ...TEST.exits!, 2: 'a usage error, a batch not submitted from here, or no key or address' },
};

export const BATCH: Group = {
  name: 'batch',
  summary: 'The Message Batches `test --batch` submitted, from a terminal or CI (PROMPTWRIGHT_API_KEY).',
  commands: [
    {
      name: 'batch list',
      summary:
        'The batches submitted from here, newest first, with their case files, status and counts; --all: every ' +
        'batch of the workspace the key belongs to, a page at a time.',
      options: [
        { name: 'all', help: "the service's list of the workspace's batches, not only the ones submitted from here" },
        { name: 'limit', value: 'N', help: 'with --all: at most N batches, 1 to 1000 (default 20)' },
        TEXT_OR_JSON,
      ],
      exits: { 0: 'listed', 1: 'the service answered with an error', 2: REFUSED, 130: CTRL_C },
    },
    {
      name: 'batch status',
      args: ID,
      summary: "One batch's fields as the service sends them, and its case files.",
      options: [TEXT_OR_JSON],
      exits: { 0: 'shown', 1: 'the service answered with an error (an unknown id: 404)', 2: REFUSED, 130: CTRL_C },
    },
    {
      name: 'batch cancel',
      args: ID,
      summary:
        'Asks the service to cancel a batch: its requests not yet processed end as canceled; the ones done are kept.',
      options: [yesOption('cancel'), TEXT_OR_JSON],
      exits: {
        0: 'cancelling',
        1: 'the service answered with an error',
        2: 'a usage error, no --yes in a script, an answer other than yes, or no key or address',
        130: CTRL_C,
      },
    },
    COLLECT,
  ],
};

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

export async function runBatch(argv: string[], io: CliIo): Promise<number> {
  const picked = groupCommand(BATCH, argv, io);
  if (typeof picked === 'number') return picked;
  const { command, rest } = picked;
  return guarded(io, command.name, async () => {
    const p = parseArgs(rest, command);
    if (command === COLLECT) {
      const [id] = positionals(p, ['ID']);
      return collectBatch(id!, p, io);
    }
    if (command.name === 'batch list') return list(p, io);
    if (command.name === 'batch status') return status(p, io);
    return cancel(p, io);
  });
}

async function list(p: Parsed, io: CliIo): Promise<number> {
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

async function status(p: Parsed, io: CliIo): Promise<number> {
  const f = format(p);
  const [id] = positionals(p, ['ID']);
  requireService(io);
  const store = batchStoreFromEnv(io.env);
  const { batch } = await batchesFromEnv(io).retrieve(id!, io.signal ? { signal: io.signal } : {});
  const local = await store.updateBatch(batch);
  printBatch(io, f, batch, local);
  return EXIT.ok;
}

async function cancel(p: Parsed, io: CliIo): Promise<number> {
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
