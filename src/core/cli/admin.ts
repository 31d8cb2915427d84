// `promptwright admin …`: the administration interface (doc2 §4.2) from a terminal or CI, with the Admin
// key from PROMPTWRIGHT_ADMIN_KEY. The contract scripts depend on: see USAGE and README.
import { AdminClient } from '../admin/client';
import { parseGeos } from '../admin/rules';
import type { Invite, User, Workspace, WorkspaceCreate, WorkspaceUpdate } from '../admin/types';
import { InputError } from '../api/errors';
import { all, one, parseArgs, UsageError, type Parsed } from './args';
import { format, listOptions, notConfirmed, positionals } from './common';
import { httpFromEnv } from './env';
import { confirmed, EXIT, guarded } from './guard';
import type { CliIo } from './io';
import { day, printOne, printPages, type Column } from './output';

const ADMIN_USAGE = `usage:
  promptwright admin org
  promptwright admin workspaces list [--include-archived] [--limit N]
  promptwright admin workspaces get ID
  promptwright admin workspaces create NAME [--workspace-geo G] [--allowed-geos G1,G2|unrestricted]
                                            [--default-geo G] [--tag KEY=VALUE]...
  promptwright admin workspaces update ID [--name NAME] [--allowed-geos ...] [--default-geo G] [--tag KEY=VALUE]...
  promptwright admin workspaces archive ID [--yes]
  promptwright admin users list [--email EMAIL] [--limit N]
  promptwright admin users get ID
  promptwright admin users set-role ID ROLE
  promptwright admin users remove ID [--yes]
  promptwright admin invites list [--limit N]
  promptwright admin invites get ID
  promptwright admin invites create EMAIL ROLE
  promptwright admin invites delete ID [--yes]
every command: [--format text|json]
`;

const WORKSPACE_COLUMNS: Column<Workspace>[] = [
  ['ID', w => w.id],
  ['NAME', w => w.name],
  ['GEO', w => w.data_residency?.workspace_geo],
  ['ALLOWED', w => geos(w.data_residency?.allowed_inference_geos)],
  ['DEFAULT', w => w.data_residency?.default_inference_geo],
  ['TAGS', w => tagsText(w.tags)],
  ['CREATED', w => day(w.created_at)],
  ['ARCHIVED', w => day(w.archived_at)],
];
const USER_COLUMNS: Column<User>[] = [
  ['ID', u => u.id],
  ['NAME', u => u.name],
  ['EMAIL', u => u.email],
  ['ROLE', u => u.role],
  ['ADDED', u => day(u.added_at)],
];
const INVITE_COLUMNS: Column<Invite>[] = [
  ['ID', i => i.id],
  ['EMAIL', i => i.email],
  ['ROLE', i => i.role],
  ['STATUS', i => i.status],
  ['EXPIRES', i => day(i.expires_at)],
];

const geos = (g: string[] | 'unrestricted' | undefined) =>
  g === undefined ? '' : typeof g === 'string' ? g : g.join(',');
const tagsText = (t: Record<string, string> | undefined) =>
  Object.entries(t ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

function tags(p: Parsed): Record<string, string> | undefined {
  const given = all(p, 'tag');
  if (!given.length) return undefined;
  const out: Record<string, string> = {};
  for (const t of given) {
    const eq = t.indexOf('=');
    if (eq <= 0) throw new UsageError(`--tag takes KEY=VALUE, got "${t}"`);
    out[t.slice(0, eq)] = t.slice(eq + 1);
  }
  return out;
}

export function runAdmin(argv: string[], io: CliIo): Promise<number> {
  const [noun, verb, ...rest] = argv;
  return guarded(io, `admin ${[noun, verb].filter(Boolean).join(' ')}`, async () => {
    if (!noun || noun === '--help' || noun === 'help') {
      io.stdout.write(ADMIN_USAGE);
      return noun ? EXIT.ok : EXIT.refused;
    }
    const admin = () => new AdminClient(httpFromEnv(io.env));
    const c = io.signal ? { signal: io.signal } : {};
    if (noun === 'org') {
      const p = parseArgs(
        [verb, ...rest].filter((x): x is string => x !== undefined),
        [],
      );
      positionals(p, []);
      printOne(io, format(p), await admin().org(c));
      return EXIT.ok;
    }
    const key = `${noun} ${verb ?? ''}`;
    switch (key) {
      case 'workspaces list': {
        const p = parseArgs(rest, ['limit'], ['include-archived']);
        positionals(p, []);
        const o = { ...listOptions(p, io), includeArchived: p.switches.has('include-archived') };
        await printPages(io, format(p), admin().workspaces(o), WORKSPACE_COLUMNS, o.max);
        return EXIT.ok;
      }
      case 'workspaces get': {
        const p = parseArgs(rest, []);
        printOne(io, format(p), await admin().workspace(positionals(p, ['ID'])[0]!, c));
        return EXIT.ok;
      }
      case 'workspaces create': {
        const p = parseArgs(rest, ['workspace-geo', 'allowed-geos', 'default-geo', 'tag']);
        const [name] = positionals(p, ['NAME']);
        const residency = {
          ...(one(p, 'workspace-geo') ? { workspace_geo: one(p, 'workspace-geo')! } : {}),
          ...(one(p, 'allowed-geos') ? { allowed_inference_geos: parseGeos(one(p, 'allowed-geos')!) } : {}),
          ...(one(p, 'default-geo') ? { default_inference_geo: one(p, 'default-geo')! } : {}),
        };
        const body: WorkspaceCreate = {
          name: name!,
          ...(Object.keys(residency).length ? { data_residency: residency } : {}),
          ...(tags(p) ? { tags: tags(p)! } : {}),
        };
        printOne(io, format(p), await admin().createWorkspace(body, c));
        return EXIT.ok;
      }
      case 'workspaces update': {
        const p = parseArgs(rest, ['name', 'allowed-geos', 'default-geo', 'tag', 'workspace-geo']);
        const [id] = positionals(p, ['ID']);
        if (one(p, 'workspace-geo') !== undefined) {
          throw new InputError('workspace_geo cannot be changed after a workspace is created.');
        }
        const residency = {
          ...(one(p, 'allowed-geos') ? { allowed_inference_geos: parseGeos(one(p, 'allowed-geos')!) } : {}),
          ...(one(p, 'default-geo') ? { default_inference_geo: one(p, 'default-geo')! } : {}),
        };
        const body: WorkspaceUpdate = {
          ...(one(p, 'name') !== undefined ? { name: one(p, 'name')! } : {}),
          ...(Object.keys(residency).length ? { data_residency: residency } : {}),
          ...(tags(p) ? { tags: tags(p)! } : {}),
        };
        if (!Object.keys(body).length)
          throw new UsageError('nothing to update: give --name, --allowed-geos, --default-geo or --tag');
        printOne(io, format(p), await admin().updateWorkspace(id!, body, c));
        return EXIT.ok;
      }
      case 'workspaces archive': {
        const p = parseArgs(rest, [], ['yes']);
        const [id] = positionals(p, ['ID']);
        if (!(await confirmed(io, p.switches.has('yes'), `Archive workspace ${id}?`))) return notConfirmed(io);
        printOne(io, format(p), await admin().archiveWorkspace(id!, c));
        return EXIT.ok;
      }
      case 'users list': {
        const p = parseArgs(rest, ['limit', 'email']);
        positionals(p, []);
        const email = one(p, 'email');
        const o = { ...listOptions(p, io), ...(email ? { email } : {}) };
        await printPages(io, format(p), admin().users(o), USER_COLUMNS, o.max);
        return EXIT.ok;
      }
      case 'users get': {
        const p = parseArgs(rest, []);
        printOne(io, format(p), await admin().user(positionals(p, ['ID'])[0]!, c));
        return EXIT.ok;
      }
      case 'users set-role': {
        const p = parseArgs(rest, []);
        const [id, role] = positionals(p, ['ID', 'ROLE']);
        printOne(io, format(p), await admin().setRole(id!, role!, c));
        return EXIT.ok;
      }
      case 'users remove': {
        const p = parseArgs(rest, [], ['yes']);
        const [id] = positionals(p, ['ID']);
        if (!(await confirmed(io, p.switches.has('yes'), `Remove user ${id} from the organization?`))) {
          return notConfirmed(io);
        }
        printOne(io, format(p), await admin().removeUser(id!, c));
        return EXIT.ok;
      }
      case 'invites list': {
        const p = parseArgs(rest, ['limit']);
        positionals(p, []);
        const o = listOptions(p, io);
        await printPages(io, format(p), admin().invites(o), INVITE_COLUMNS, o.max);
        return EXIT.ok;
      }
      case 'invites get': {
        const p = parseArgs(rest, []);
        printOne(io, format(p), await admin().invite(positionals(p, ['ID'])[0]!, c));
        return EXIT.ok;
      }
      case 'invites create': {
        const p = parseArgs(rest, []);
        const [email, role] = positionals(p, ['EMAIL', 'ROLE']);
        printOne(io, format(p), await admin().createInvite(email!, role!, c));
        return EXIT.ok;
      }
      case 'invites delete': {
        const p = parseArgs(rest, [], ['yes']);
        const [id] = positionals(p, ['ID']);
        if (!(await confirmed(io, p.switches.has('yes'), `Delete invite ${id}?`))) return notConfirmed(io);
        printOne(io, format(p), await admin().deleteInvite(id!, c));
        return EXIT.ok;
      }
      default:
        throw new UsageError(`unknown command "admin ${key.trim()}"\n${ADMIN_USAGE}`);
    }
  });
}
