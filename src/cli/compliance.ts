// `promptwright compliance …`: the compliance interface (doc3 §4) from a terminal or CI, with the
// Compliance Access Key from PROMPTWRIGHT_COMPLIANCE_KEY (the Activity Feed also reads with the Admin key,
// doc3 §5 rule 4). Every request of a run waits on one client-side limiter, so a run stays inside the budget
// all keys of the organization share (doc3 §8). The contract scripts depend on: see USAGE and README.
import { ApiError, ConfigError, InputError } from '../core/api/errors';
import { Http, type HttpOptions } from '../core/api/http';
import type { CursorOptions, CursorPage } from '../core/api/paging';
import { sleep } from '../core/api/retry';
import { ComplianceClient } from '../core/compliance/client';
import { exportActivities } from '../core/compliance/export';
import { ACTIVITY_TYPES, BOUNDS, filterProblems, type ActivityFilter, type Bound } from '../core/compliance/filters';
import { COMPLIANCE_BUDGET, RateLimiter } from '../core/compliance/limiter';
import { COMPLIANCE_KEY_PREFIX, explainComplianceError } from '../core/compliance/scopes';
import {
  activityType,
  type Activity,
  type Attachment,
  type Chat,
  type ComplianceOrganization,
} from '../core/compliance/types';
import {
  all,
  formatOption,
  one,
  parseArgs,
  UsageError,
  type Command,
  type Group,
  type Option,
  type Parsed,
} from './args';
import { format, groupCommand, LIMIT, listOptions, notConfirmed, positionals, TEXT_OR_JSON, yesOption } from './common';
import { httpOptionsFromEnv } from './env';
import { confirmed, CTRL_C, EXIT, guarded } from './guard';
import type { CliIo } from './io';
import { day, printList, printOne, printPages, type Column } from './output';

const YES = yesOption('delete');
const EXITS = {
  0: 'done',
  1: 'the service answered with an error',
  2:
    'a usage error or a refused input (nothing sent), a delete without --yes in a script or not confirmed, or no ' +
    'key or address',
  130: CTRL_C,
};

/** The feed's bounds: `--created-gte TS` … `--updated-lt TS`. */
const RANGE_OPTIONS = BOUNDS.flatMap(b => [`created-${b}`, `updated-${b}`]);

const command = (name: string, args: string, summary: string, options: Option[] = []): Command => ({
  name: `compliance ${name}`,
  ...(args ? { args } : {}),
  summary,
  options: options.some(o => o.name === 'format') ? options : [...options, TEXT_OR_JSON],
  exits: EXITS,
});

export const COMPLIANCE: Group = {
  name: 'compliance',
  summary:
    'The compliance interface with the Compliance Access Key (PROMPTWRIGHT_COMPLIANCE_KEY): the Activity Feed, ' +
    'organizations, chats, project attachments, deletes. Deletes are immediate and permanent; a project with chats ' +
    'attached is not deleted (delete its chats first). TS is a full RFC 3339 timestamp with a time and a zone, e.g. ' +
    '2026-01-31T09:00:00Z.',
  notes: `environment:
  PROMPTWRIGHT_COMPLIANCE_KEY   Compliance Access Key (sk-vendor-api01…); without it, activities reads with
                                PROMPTWRIGHT_ADMIN_KEY (an Admin key reads the Activity Feed only)
  PROMPTWRIGHT_COMPLIANCE_RATE  requests the CLI allows itself per window, LIMIT/WINDOW_MS (default 600/60000,
                                the service's budget); a testing knob
`,
  commands: [
    command('activities', '', 'The Activity Feed; jsonl and csv are written page by page as they arrive.', [
      { name: 'type', value: 'T', repeatable: true, help: 'only activities of this type' },
      ...RANGE_OPTIONS.map(name => ({ name, value: 'TS', help: `a bound on ${name.replace(/-.*/, '')}_at` })),
      LIMIT,
      formatOption(['text', 'json', 'jsonl', 'csv']),
    ]),
    command('orgs', '', 'The linked organizations (at most 1,000: the list is not paged).'),
    command('chats', '', 'Chats, listed per user.', [
      {
        name: 'user',
        value: 'USER_ID',
        repeatable: true,
        required: true,
        help: 'the chats of this user (at least one)',
      },
      { name: 'project', value: 'PROJECT_ID', repeatable: true, help: 'only chats of this project' },
      LIMIT,
    ]),
    command('attachments', 'PROJECT_ID', "A project's current attachments, every page."),
    command('delete chat', 'ID', 'Deletes a chat now, for good.', [YES]),
    command('delete project', 'ID', 'Deletes a project now, for good (its chats first).', [YES]),
  ],
};

const ACTIVITY_COLUMNS: Column<Activity>[] = [
  ['ID', a => a.id],
  ['TYPE', a => activityType(a)],
  ['CREATED', a => day(text(a.created_at))],
  ['ACTOR', a => actorOf(a)],
];
const ORG_COLUMNS: Column<ComplianceOrganization>[] = [
  ['ID', o => o.id],
  ['NAME', o => text(o.name)],
  ['PARENT', o => text(o.parent_id)],
];
const CHAT_COLUMNS: Column<Chat>[] = [
  ['ID', c => c.id],
  ['USER', c => text(c.user_id)],
  ['PROJECT', c => text(c.project_id)],
  ['NAME', c => text(c.name)],
  ['CREATED', c => day(text(c.created_at))],
  ['DELETED', c => day(text(c.deleted_at))],
];
const ATTACHMENT_COLUMNS: Column<Attachment>[] = [
  ['ID', a => a.id],
  ['TYPE', a => text(a.type)],
  ['NAME', a => text(a.name)],
  ['CREATED', a => day(text(a.created_at))],
];

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Who acted: the actor's e-mail, else its id. */
function actorOf(a: Activity): string | undefined {
  const actor = a.actor;
  if (!actor || typeof actor !== 'object') return text(actor);
  const { email, id } = actor as Record<string, unknown>;
  return text(email) ?? text(id);
}

/** The feed's filters from `--type` and `--created-gte` …; a bound that is not full RFC 3339 is refused. */
function activityFilter(p: Parsed, io: CliIo): ActivityFilter {
  const range = (field: 'created' | 'updated') => {
    const r: Partial<Record<Bound, string>> = {};
    for (const b of BOUNDS) {
      const v = one(p, `${field}-${b}`);
      if (v !== undefined) r[b] = v;
    }
    return Object.keys(r).length ? r : undefined;
  };
  const types = all(p, 'type');
  const created = range('created');
  const updated = range('updated');
  const filter: ActivityFilter = {
    ...(types.length ? { types } : {}),
    ...(created ? { created } : {}),
    ...(updated ? { updated } : {}),
  };
  const problems = filterProblems(filter);
  if (problems.length) throw new InputError(problems.join(' '));
  // the list of types is open (doc3 §6 rule 3): an unknown one is sent, with a note in case of a typo
  for (const t of types.filter(x => !(ACTIVITY_TYPES as readonly string[]).includes(x))) {
    io.stderr.write(`promptwright compliance activities: note: "${t}" is not a type the spec names; sent as given.\n`);
  }
  return filter;
}

/** The budget a run keeps to: doc3 §8's, or PROMPTWRIGHT_COMPLIANCE_RATE=LIMIT/WINDOW_MS (for tests). */
function budgetFromEnv(env: CliIo['env']): { limit: number; windowMs: number } {
  const raw = env.PROMPTWRIGHT_COMPLIANCE_RATE?.trim();
  if (!raw) return COMPLIANCE_BUDGET;
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) {
    throw new UsageError(`PROMPTWRIGHT_COMPLIANCE_RATE must be LIMIT/WINDOW_MS (e.g. 600/60000), got "${raw}"`);
  }
  return { limit: Number(m[1]), windowMs: Number(m[2]) };
}

/**
 * The feed with a cap on the total: each page asks only for what is left and is cut to it, and the last
 * one says there is no more, so an export (which pages with activityPage) stops exactly at `max`.
 */
class CappedFeed extends ComplianceClient {
  constructor(
    http: Http,
    kind: 'compliance' | 'admin',
    private left: number,
  ) {
    super(http, kind);
  }

  override async activityPage(filter: ActivityFilter, o: CursorOptions = {}): Promise<CursorPage<Activity>> {
    const page = await super.activityPage(filter, { ...o, pageSize: Math.min(o.pageSize ?? this.left, this.left) });
    const data = page.data.slice(0, this.left);
    this.left -= data.length;
    return { ...page, data, has_more: page.has_more && this.left > 0 };
  }
}

/** The reader of stdout went away (`… | head`): the export stops, quietly, rather than fetch pages nobody reads. */
class ReaderGone extends Error {}

type Stream = CliIo['stdout'] & {
  on?(e: string, f: (x?: unknown) => void): unknown;
  once?(e: string, f: () => void): unknown;
  removeListener?(e: string, f: () => void): unknown;
  destroyed?: boolean;
};

/**
 * stdout for an export: each chunk is written as it comes and, when a slow reader makes the stream ask for
 * it, the next page waits for the stream to drain (constant memory). A failed write stops the export: a
 * reader that went away (EPIPE) quietly, anything else (a full disk) as an error.
 */
function sink(io: CliIo): (chunk: string) => Promise<void> {
  const s = io.stdout as Stream;
  let failure: Error | undefined;
  // kept for the rest of the run: the EPIPE of the last write can come after the export returned
  s.on?.('error', e => (failure ??= e instanceof Error ? e : new Error(String(e))));
  const check = () => {
    if (failure) throw (failure as { code?: unknown }).code === 'EPIPE' ? new ReaderGone() : failure;
    if (s.destroyed) throw new ReaderGone();
  };
  return async chunk => {
    check();
    if (!chunk || s.write(chunk) !== false || !s.once || !s.removeListener) return;
    await new Promise<void>(resolve => {
      const done = () => {
        for (const e of ['drain', 'close', 'error']) s.removeListener!(e, done);
        io.signal?.removeEventListener('abort', done);
        resolve();
      };
      for (const e of ['drain', 'close', 'error']) s.once!(e, done);
      io.signal?.addEventListener('abort', done, { once: true });
    });
    check();
  };
}

/** What a refusal means here, said under the service's status line. */
function explain(e: unknown, command: string, id: string | undefined, kind: 'compliance' | 'admin', env: CliIo['env']) {
  if (!(e instanceof ApiError)) return undefined;
  if (e.status === 409 && command === 'delete project') {
    return (
      `Project ${id} still has chats attached. Delete each of them first (soft-deleted ones too), then the project:\n` +
      `  promptwright compliance chats --user USER_ID [--user USER_ID]... --project ${id}\n` +
      '  promptwright compliance delete chat CHAT_ID --yes      (for each chat listed)\n' +
      `  promptwright compliance delete project ${id}`
    );
  }
  if (e.status === 500 && command === 'orgs') {
    return e.headers['x-should-retry'] === 'false'
      ? 'More than 1,000 linked organizations: the organizations list is not paginated and the service ' +
          'refuses it over its cap of 1,000 records, so it cannot be listed in one call (retrying will not help).'
      : 'The organizations list fails with a 500 when there are more than 1,000 linked organizations (its cap; ' +
          'it is not paginated); otherwise this is an internal failure: retry later.';
  }
  // the key's prefix tells a standard API key from a deleted Compliance Access Key (the key is never shown)
  return explainComplianceError(
    e,
    kind,
    env.PROMPTWRIGHT_COMPLIANCE_KEY?.trim().slice(0, COMPLIANCE_KEY_PREFIX.length),
  );
}

export async function runCompliance(argv: string[], io: CliIo): Promise<number> {
  const picked = groupCommand(COMPLIANCE, argv, io);
  if (typeof picked === 'number') return picked;
  const { command: spec, rest } = picked;
  const command = spec.name.slice('compliance '.length);
  let kind: 'compliance' | 'admin' = 'compliance';
  let target: string | undefined;
  let why: string | undefined;

  /** The service for this run: one limiter for all its requests; the key checked before anything is sent. */
  const connect = (feed = false): { http: Http; kind: 'compliance' | 'admin'; limiter: RateLimiter } => {
    const budget = budgetFromEnv(io.env);
    const limiter = new RateLimiter(budget.limit, budget.windowMs, { now: () => Date.now(), sleep });
    const o: HttpOptions = httpOptionsFromEnv(io.env, {
      beforeAttempt: signal => limiter.acquire(signal),
      onRetry: e => {
        if (e.error instanceof ApiError && e.error.status === 429) limiter.pause(e.delayMs);
      },
    });
    if (!o.baseUrl.trim()) throw new ConfigError('No service address.', 'set-base-url');
    kind = feed && !o.complianceKey && o.adminKey ? 'admin' : 'compliance';
    if (kind === 'compliance' && !o.complianceKey)
      throw new ConfigError('No Compliance Access Key.', 'set-compliance-key');
    return { http: new Http(o), kind, limiter };
  };
  const client = () => new ComplianceClient(connect().http);
  const c = io.signal ? { signal: io.signal } : {};

  const run = async (): Promise<number> => {
    const p = parseArgs(rest, spec);
    switch (command) {
      case 'activities': {
        positionals(p, []);
        const f = format<'text' | 'json' | 'jsonl' | 'csv'>(p);
        const o = listOptions(p, io);
        const filter = activityFilter(p, io);
        const s = connect(true);
        if (f === 'jsonl' || f === 'csv') {
          // written page by page as the pages arrive; a page refused with a 429 is asked for again
          const feed =
            o.max !== undefined ? new CappedFeed(s.http, s.kind, o.max) : new ComplianceClient(s.http, s.kind);
          try {
            await exportActivities(feed, filter, sink(io), {
              ...c,
              format: f,
              pageSize: o.pageSize,
              onRateLimited: ms => s.limiter.pause(ms),
            });
          } catch (e) {
            if (!(e instanceof ReaderGone)) throw e;
          }
        } else {
          await printPages(io, f, new ComplianceClient(s.http, s.kind).activities(filter, o), ACTIVITY_COLUMNS, o.max);
        }
        return EXIT.ok;
      }
      case 'orgs': {
        positionals(p, []);
        await printList(io, format(p), await client().organizations(c), ORG_COLUMNS);
        return EXIT.ok;
      }
      case 'chats': {
        positionals(p, []);
        const f = format(p);
        const users = all(p, 'user');
        if (!users.some(u => u.trim()))
          throw new UsageError('chats are listed per user: give at least one --user USER_ID');
        const o = listOptions(p, io);
        await printPages(io, f, client().chats(users, all(p, 'project'), o), CHAT_COLUMNS, o.max);
        return EXIT.ok;
      }
      case 'attachments': {
        const [id] = positionals(p, ['PROJECT_ID']);
        const f = format(p);
        await printPages(io, f, client().attachments(id!, c), ATTACHMENT_COLUMNS);
        return EXIT.ok;
      }
      case 'delete chat':
      case 'delete project': {
        const [id] = positionals(p, ['ID']);
        const f = format(p);
        target = id;
        const what = command.slice('delete '.length);
        const question = `Delete ${what} ${id} now (immediate and permanent: it cannot be undone)?`;
        const compliance = client();
        if (!(await confirmed(io, p.switches.has('yes'), question))) return notConfirmed(io);
        printOne(io, f, await (what === 'chat' ? compliance.deleteChat(id!, c) : compliance.deleteProject(id!, c)));
        return EXIT.ok;
      }
      default:
        throw new UsageError(`no such command: ${spec.name}`);
    }
  };

  const code = await guarded(io, spec.name, async () => {
    try {
      return await run();
    } catch (e) {
      why = explain(e, command, target, kind, io.env);
      throw e;
    }
  });
  if (why && code === EXIT.service) io.stderr.write(`${why}\n`);
  return code;
}
