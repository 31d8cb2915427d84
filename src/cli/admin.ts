// `promptwright admin …`: the administration interface (doc2 §4.2) from a terminal or CI, with the Admin
// key from PROMPTWRIGHT_ADMIN_KEY. The contract scripts depend on: see USAGE and README.
import { AdminClient } from '../core/admin/client';
import { parseGeos } from '../core/admin/rules';
import type { Invite, User, Workspace, WorkspaceCreate, WorkspaceUpdate } from '../core/admin/types';
import { InputError } from '../core/api/errors';
import { all, one, parseArgs, UsageError, type Command, type Group, type Option, type Parsed } from './args';
import { format, groupCommand, LIMIT, listOptions, notConfirmed, positionals, TEXT_OR_JSON, yesOption } from './common';
import { httpFromEnv } from './env';
import { confirmed, CTRL_C, EXIT, guarded } from './guard';
import type { CliIo } from './io';
import { day, printOne, printPages, type Column } from './output';

const YES = yesOption('do it');
const GEOS: Option = {
  name: 'allowed-geos',
  value: 'G1,G2|unrestricted',
  help: 'data_residency.allowed_inference_geos',
};
const DEFAULT_GEO: Option = { name: 'default-geo', value: 'G', help: 'data_residency.default_inference_geo' };
const TAG: Option = {
  name: 'tag',
  value: 'KEY=VALUE',
  repeatable: true,
  help: 'a tag (a key may not begin with vendor)',
};

const EXITS = {
  0: 'done',
  1: 'the service answered with an error (stderr: status, error.type, message, request-id)',
  2:
    'a usage error or a refused input (nothing sent), a destructive command without --yes in a script or not ' +
    'confirmed, or no key or address',
  130: CTRL_C,
};

/** An admin command: its words, its arguments, what it does, its options (with --format, as every one has). */
const command = (name: string, args: string, summary: string, options: Option[] = []): Command => ({
  name: `admin ${name}`,
  ...(args ? { args } : {}),
  summary,
  options: [...options, TEXT_OR_JSON],
  exits: EXITS,
});

export const ADMIN: Group = {
  name: 'admin',
  summary:
    'The administration interface with the Admin key (PROMPTWRIGHT_ADMIN_KEY): the organization, workspaces, ' +
    'users and invites. Destructive commands (archive, remove, delete) ask first, or need --yes.',
  commands: [
    command('org', '', 'The organization the Admin key belongs to.'),
    command('workspaces list', '', 'The workspaces, every page.', [
      { name: 'include-archived', help: 'archived workspaces too' },
      LIMIT,
    ]),
    command('workspaces get', 'ID', 'One workspace.'),
    command('workspaces create', 'NAME', 'A new workspace (the service fills what is not given).', [
      { name: 'workspace-geo', value: 'G', help: 'data_residency.workspace_geo (fixed once the workspace exists)' },
      GEOS,
      DEFAULT_GEO,
      TAG,
    ]),
    command('workspaces update', 'ID', "A workspace's name, geos or tags.", [
      { name: 'name', value: 'NAME', help: 'the new name' },
      GEOS,
      DEFAULT_GEO,
      TAG,
    ]),
    command('workspaces archive', 'ID', 'Archives a workspace.', [YES]),
    command('users list', '', 'The users of the organization, every page.', [
      { name: 'email', value: 'EMAIL', help: 'only the user with this e-mail' },
      LIMIT,
    ]),
    command('users get', 'ID', 'One user.'),
    command('users set-role', 'ID ROLE', "A user's role: user, developer, billing or model_code_user."),
    command('users remove', 'ID', 'Removes a user from the organization.', [YES]),
    command('invites list', '', 'The invites, every page.', [LIMIT]),
    command('invites get', 'ID', 'One invite.'),
    command('invites create', 'EMAIL ROLE', 'Invites a person with a role (not admin).'),
    command('invites delete', 'ID', 'Deletes an invite.', [YES]),
  ],
};

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
  const picked = groupCommand(ADMIN, argv, io);
  if (typeof picked === 'number') return Promise.resolve(picked);
  const { command: spec, rest } = picked;
  return guarded(io, spec.name, async () => {
    // a workspace's geo is fixed once it exists: said as the service would say it, before anything is sent
    if (spec.name === 'admin workspaces update' && rest.some(a => /^--workspace-geo(=|$)/.test(a)))
      throw new InputError('workspace_geo cannot be changed after a workspace is created.');
    const p = parseArgs(rest, spec);
    const admin = () => new AdminClient(httpFromEnv(io.env));
    const c = io.signal ? { signal: io.signal } : {};
    switch (spec.name.slice('admin '.length)) {
      case 'org': {
        positionals(p, []);
        printOne(io, format(p), await admin().org(c));
        return EXIT.ok;
      }
      case 'workspaces list': {
        positionals(p, []);
        const o = { ...listOptions(p, io), includeArchived: p.switches.has('include-archived') };
        await printPages(io, format(p), admin().workspaces(o), WORKSPACE_COLUMNS, o.max);
        return EXIT.ok;
      }
      case 'workspaces get': {
        printOne(io, format(p), await admin().workspace(positionals(p, ['ID'])[0]!, c));
        return EXIT.ok;
      }
      case 'workspaces create': {
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
        const [id] = positionals(p, ['ID']);
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
        const [id] = positionals(p, ['ID']);
        if (!(await confirmed(io, p.switches.has('yes'), `Archive workspace ${id}?`))) return notConfirmed(io);
        printOne(io, format(p), await admin().archiveWorkspace(id!, c));
        return EXIT.ok;
      }
      case 'users list': {
        positionals(p, []);
        const email = one(p, 'email');
        const o = { ...listOptions(p, io), ...(email ? { email } : {}) };
        await printPages(io, format(p), admin().users(o), USER_COLUMNS, o.max);
        return EXIT.ok;
      }
      case 'users get': {
        printOne(io, format(p), await admin().user(positionals(p, ['ID'])[0]!, c));
        return EXIT.ok;
      }
      case 'users set-role': {
        const [id, role] = positionals(p, ['ID', 'ROLE']);
        printOne(io, format(p), await admin().setRole(id!, role!, c));
        return EXIT.ok;
      }
      case 'users remove': {
        const [id] = positionals(p, ['ID']);
        if (!(await confirmed(io, p.switches.has('yes'), `Remove user ${id} from the organization?`))) {
          return notConfirmed(io);
        }
        printOne(io, format(p), await admin().removeUser(id!, c));
        return EXIT.ok;
      }
      case 'invites list': {
        positionals(p, []);
        const o = listOptions(p, io);
        await printPages(io, format(p), admin().invites(o), INVITE_COLUMNS, o.max);
        return EXIT.ok;
      }
      case 'invites get': {
        printOne(io, format(p), await admin().invite(positionals(p, ['ID'])[0]!, c));
        return EXIT.ok;
      }
      case 'invites create': {
        const [email, role] = positionals(p, ['EMAIL', 'ROLE']);
        printOne(io, format(p), await admin().createInvite(email!, role!, c));
        return EXIT.ok;
      }
      case 'invites delete': {
        const [id] = positionals(p, ['ID']);
        if (!(await confirmed(io, p.switches.has('yes'), `Delete invite ${id}?`))) return notConfirmed(io);
        printOne(io, format(p), await admin().deleteInvite(id!, c));
        return EXIT.ok;
      }
      default:
        throw new UsageError(`no such command: ${spec.name}`);
    }
  });
}
