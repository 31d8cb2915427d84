// A simulated administration interface (doc2 §2.2–§2.6, §3, §4.2): the organization, workspaces, users and
// invites, seeded deterministically and editable in memory. The offline demo (server.ts) and the tests' fake
// of the service both serve it: they check the Admin key and the version header first, then hand
// `/v1/organizations/{me,workspaces,users,invites}…` here.
// The cursor-list helpers at the top are shared with compliance.ts: doc3 §2.2 puts the Activity Feed in the
// same family as these lists.

import type { DataResidency, Invite, Organization, Role, User, Workspace } from '../admin/types';

/** What a route answers; server.ts adds request-id and the other common headers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** a JSON Lines body instead of `body`: each line as it is, written a chunk at a time */
  lines?: readonly string[];
}

export function problem(status: number, type: string, message: string, headers?: Record<string, string>): Reply {
  return { status, body: { type: 'error', error: { type, message } }, ...(headers ? { headers } : {}) };
}
export const ok = (body: unknown): Reply => ({ status: 200, body });
export const badRequest = (message: string): Reply => problem(400, 'invalid_request_error', message);
export const notFound = (message: string): Reply => problem(404, 'not_found_error', message);
export function wrongMethod(method: string, path: string, allow: string[]): Reply {
  return problem(405, 'invalid_request_error', `${method} is not allowed on ${path} (allowed: ${allow.join(', ')})`, {
    allow: allow.join(', '),
  });
}

/** RFC 3339 without the `.000` a whole-second toISOString() carries. */
export const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** A path segment; a malformed %-escape stays as it came rather than throwing (it then names no record). */
export function segment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---- cursor lists (doc2 §4.2, doc3 §2.2) ---------------------------------------------------------------
// A cursor names a position in one list by a stable key (a creation sequence number, or an activity's
// index), never an object id: the spec says clients take cursors unchanged and never build them from ids,
// so a client that does gets a 400 here. Keys survive deletions, so paging stays exact while records go.

const CURSOR = /^pw1\|([^|]+)\|(\d{1,15})$/;

export function encodeCursor(kind: string, key: number): string {
  return Buffer.from(`pw1|${kind}|${key}`).toString('base64url');
}

/** The key in a cursor of this list, or undefined when it is not one (another list's cursor included). */
export function decodeCursor(kind: string, token: string): number | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const m = CURSOR.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m || m[1] !== kind) return undefined;
  const key = Number(m[2]);
  // only the canonical spelling decodes, so a hand-edited token is refused rather than half-read
  return encodeCursor(kind, key) === token ? key : undefined;
}

/** `limit` as a whole number in 1..max, or the 400 that names the range. */
function parseLimit(q: URLSearchParams, dflt: number, max: number): number | Reply {
  const raw = q.get('limit');
  if (raw === null) return dflt;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) return badRequest(`limit: must be between 1 and ${max}, got ${raw}`);
  return n;
}

/** How a list is walked from a cursor; T is whatever is cheap to test (a record, or an index). */
export interface Walk<T> {
  key(item: T): number;
  /** the items after the cursor in list order (all of them without a cursor) */
  forward(after: number | undefined): Iterable<T>;
  /** the items before the cursor, nearest first */
  backward(before: number): Iterable<T>;
}

export interface CursorSpec<T> {
  kind: string;
  defaultLimit: number;
  maxLimit: number;
  match?: (item: T) => boolean;
  render?: (item: T) => unknown;
}

/** One page of a cursor list: `{data, first_id, has_more, last_id}`; `has_more` looks in the direction asked. */
export function cursorPage<T>(walk: Walk<T>, q: URLSearchParams, spec: CursorSpec<T>): Reply {
  const limit = parseLimit(q, spec.defaultLimit, spec.maxLimit);
  if (typeof limit !== 'number') return limit;
  const after = q.get('after_id');
  const before = q.get('before_id');
  // the spec gives each its own direction; both at once has no meaning, so it is refused rather than guessed
  if (after !== null && before !== null) return badRequest('after_id and before_id: give one of them, not both');
  let key: number | undefined;
  for (const [name, token] of [
    ['after_id', after],
    ['before_id', before],
  ] as const) {
    if (token === null) continue;
    key = decodeCursor(spec.kind, token);
    if (key === undefined)
      return badRequest(
        `${name}: cannot be decoded (${JSON.stringify(token.slice(0, 80))}); pass first_id or last_id unchanged`,
      );
  }
  const got: T[] = [];
  const source = before !== null ? walk.backward(key ?? 0) : walk.forward(key);
  for (const item of source) {
    if (spec.match && !spec.match(item)) continue;
    got.push(item);
    if (got.length > limit) break;
  }
  const hasMore = got.length > limit;
  got.length = Math.min(got.length, limit);
  if (before !== null) got.reverse();
  const first = got[0];
  const last = got[got.length - 1];
  return ok({
    data: got.map(x => (spec.render ? spec.render(x) : x)),
    first_id: first === undefined ? null : encodeCursor(spec.kind, walk.key(first)),
    has_more: hasMore,
    last_id: last === undefined ? null : encodeCursor(spec.kind, walk.key(last)),
  });
}

/** Records in creation order, each with a sequence number that outlives its deletion (for cursors). */
export class Ordered<T extends { id: string }> {
  readonly items: T[] = [];
  private readonly seq = new Map<string, number>();
  private next = 1;

  add(item: T): T {
    this.seq.set(item.id, this.next++);
    this.items.push(item);
    return item;
  }
  get(id: string): T | undefined {
    return this.items.find(x => x.id === id);
  }
  remove(id: string): T | undefined {
    const i = this.items.findIndex(x => x.id === id);
    return i < 0 ? undefined : this.items.splice(i, 1)[0];
  }
  private keyOf(item: T): number {
    return this.seq.get(item.id) ?? 0;
  }
  /** index of the first item whose key is greater than k (items are kept in key order) */
  private firstAbove(k: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keyOf(this.items[mid]!) > k) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
  private *from(after: number | undefined): Generator<T> {
    for (let i = after === undefined ? 0 : this.firstAbove(after); i < this.items.length; i++) yield this.items[i]!;
  }
  private *downFrom(before: number): Generator<T> {
    for (let i = this.firstAbove(before - 1) - 1; i >= 0; i--) yield this.items[i]!;
  }
  walk(): Walk<T> {
    return { key: item => this.keyOf(item), forward: after => this.from(after), backward: b => this.downFrom(b) };
  }
}

// ---- records (doc2 §2.2–§2.6) --------------------------------------------------------------------------

// The records' shapes are the client's own (types only: the wire format is written down once); what the fake
// accepts and refuses (roles, geos, tags) it decides by its own reading of the spec, so a client that got a
// rule wrong still meets the service's 400 here.
export type { Invite, Organization, User, Workspace } from '../admin/types';
type InviteStatus = Invite['status'];
const ASSIGNABLE_ROLES = ['user', 'developer', 'billing', 'model_code_user'] as const;

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** How long a new invite stays valid. */
const INVITE_DAYS = 21;

// Computing pioneers; past the sixteenth, first names pair with a shifted surname so every e-mail is unique.
const FIRST = 'Ada Alan Grace Edsger Donald Barbara John Margaret Dennis Ken Frances Tony Niklaus Radia Leslie Shafi';
const LAST =
  'Lovelace Turing Hopper Dijkstra Knuth Liskov McCarthy Hamilton Ritchie Thompson Allen Hoare Wirth Perlman ' +
  'Lamport Goldwasser';
const FIRSTS = FIRST.split(' ');
const LASTS = LAST.split(' ');

/** The i-th seeded person (0: Ada Lovelace); compliance.ts uses the first few as its users. */
export function person(i: number): { id: string; name: string; email: string } {
  const f = FIRSTS[i % FIRSTS.length]!;
  const l = LASTS[(i + Math.floor(i / FIRSTS.length)) % LASTS.length]!;
  return {
    id: `user_${String(i + 1).padStart(2, '0')}`,
    name: `${f} ${l}`,
    email: `${f}.${l}@example.com`.toLowerCase(),
  };
}

const WORKSPACE_NAMES = [
  'Demo',
  'Research',
  'Support Bots',
  'Data Platform',
  'Marketing Copy',
  'Legal Review',
  'Search Quality',
  'Internal Tools',
  'Mobile App',
  'Sales Assist',
  'Analytics',
  'Onboarding',
  'Security Ops',
  'Finance Reports',
  'Docs Writer',
  'EU Customers',
  'EU Research',
  'Prototype Lab',
  'Evaluation',
  'Translation',
  'Code Review',
  'Customer Success',
  'HR Helpdesk',
  'Archive 2024',
  'Sandbox',
];
const COLORS = ['#6C5BB3', '#D97757', '#2F80ED', '#27AE60', '#C9A227', '#EB5757', '#9B51E0', '#219653'];
const ARCHIVED = new Set([5, 12, 19, 23]);
const TEAMS = ['research', 'platform', 'growth', 'support', 'legal'];
const USER_ROLES: Role[] = ['developer', 'user', 'developer', 'billing', 'model_code_user', 'user'];

function seedWorkspace(i: number): Workspace {
  const name = WORKSPACE_NAMES[i] ?? `Workspace ${i}`;
  const geo = name.startsWith('EU') || i % 4 === 3 ? 'eu' : 'us';
  const created = Date.UTC(2024, 0, 15) + i * 9 * DAY + i * HOUR;
  const residency: DataResidency =
    i % 3 === 0
      ? { workspace_geo: geo, allowed_inference_geos: 'unrestricted', default_inference_geo: 'global' }
      : i % 3 === 1
        ? { workspace_geo: geo, allowed_inference_geos: [geo], default_inference_geo: geo }
        : { workspace_geo: geo, allowed_inference_geos: ['eu', 'us'], default_inference_geo: geo };
  const team = TEAMS[i % TEAMS.length]!;
  const tags: Record<string, string> = i % 5 === 1 ? {} : i % 2 === 0 ? { team, env: 'prod' } : { team };
  return {
    id: i === 0 ? 'wrkspc_demo' : `wrkspc_${String(i).padStart(2, '0')}`,
    type: 'workspace',
    name,
    created_at: iso(created),
    archived_at: ARCHIVED.has(i) ? iso(created + 30 * DAY) : null,
    display_color: COLORS[i % COLORS.length]!,
    data_residency: residency,
    tags,
  };
}

// invites, oldest first: [days before now, status, e-mail, role]; expired ones expired before now
const INVITE_SEEDS: [number, InviteStatus, string, Role][] = [
  [120, 'accepted', 'marie.curie', 'developer'],
  [110, 'accepted', 'rosalind.franklin', 'admin'],
  [95, 'accepted', 'katherine.johnson', 'user'],
  [80, 'deleted', 'hedy.lamarr', 'billing'],
  [70, 'deleted', 'dorothy.vaughan', 'developer'],
  [60, 'expired', 'mary.jackson', 'user'],
  [45, 'expired', 'annie.easley', 'model_code_user'],
  [20, 'pending', 'emmy.noether', 'developer'],
  [14, 'pending', 'sophie.germain', 'user'],
  [9, 'pending', 'carl.gauss', 'billing'],
  [4, 'pending', 'srinivasa.ramanujan', 'model_code_user'],
  [1, 'pending', 'john.neumann', 'developer'],
];

// ---- the interface -------------------------------------------------------------------------------------

const LIST = { defaultLimit: 20, maxLimit: 1000 };
const WORKSPACE_FIELDS = new Set(['name', 'data_residency', 'tags']);
const RESIDENCY_FIELDS = new Set(['allowed_inference_geos', 'default_inference_geo', 'workspace_geo']);

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);

export class SimulatedAdmin {
  readonly organization: Organization = { id: 'org_fake', name: 'Example Corp', type: 'organization' };
  private readonly ws = new Ordered<Workspace>();
  private readonly us = new Ordered<User>();
  private readonly inv = new Ordered<Invite>();

  constructor(now = Date.now()) {
    for (let i = 0; i < WORKSPACE_NAMES.length; i++) this.ws.add(seedWorkspace(i));
    for (let i = 0; i < 48; i++) {
      const role: Role = i === 0 || i === 2 ? 'admin' : USER_ROLES[i % USER_ROLES.length]!;
      const added = Date.UTC(2023, 5, 1) + i * 4 * DAY + ((i * 37) % 24) * HOUR;
      this.us.add({ ...person(i), type: 'user', role, added_at: iso(added) });
    }
    INVITE_SEEDS.forEach(([ago, status, who, role], i) => {
      const invited = now - ago * DAY - i * 1000;
      this.inv.add({
        id: `invite_${String(i + 1).padStart(2, '0')}`,
        type: 'invite',
        email: `${who}@example.com`,
        role,
        status,
        invited_at: iso(invited),
        expires_at: iso(invited + INVITE_DAYS * DAY),
      });
    });
  }

  /** every workspace, archived ones included, in creation order */
  get workspaces(): Workspace[] {
    return this.ws.items;
  }
  get users(): User[] {
    return this.us.items;
  }
  get invites(): Invite[] {
    return this.inv.items;
  }

  /** The reply for an administration route, or undefined when the path is not one of them. */
  handle(method: string, url: URL, body: unknown, now = Date.now()): Reply | undefined {
    const parts = url.pathname.split('/').slice(3).map(segment);
    const [what, id, sub, ...rest] = parts;
    const q = url.searchParams;
    const path = url.pathname;
    if (url.pathname.split('/').slice(0, 3).join('/') !== '/v1/organizations' || rest.length) return undefined;
    if (what === 'me' && id === undefined)
      return method === 'GET' ? ok(this.organization) : wrongMethod(method, path, ['GET']);

    if (what === 'workspaces') {
      if (id === undefined) {
        if (method === 'GET') {
          const all = q.get('include_archived');
          if (all !== null && all !== 'true' && all !== 'false')
            return badRequest(`include_archived: must be true or false, got ${all}`);
          return cursorPage(this.ws.walk(), q, {
            kind: 'workspaces',
            ...LIST,
            ...(all === 'true' ? {} : { match: (w: Workspace) => w.archived_at === null }),
          });
        }
        if (method === 'POST') return this.createWorkspace(body, now);
        return wrongMethod(method, path, ['GET', 'POST']);
      }
      // rate_limits stays with server.ts; members has no shown body, so it is no route here
      if (sub !== undefined && sub !== 'archive') return undefined;
      const w = this.ws.get(id);
      if (sub === 'archive') {
        if (method !== 'POST') return wrongMethod(method, path, ['POST']);
        if (!w) return notFound(`workspace ${id} not found`);
        // archiving is one-way; a second archive keeps the first time (doc2 §3 gives no other transition)
        w.archived_at ??= iso(now);
        return ok(w);
      }
      if (method !== 'GET' && method !== 'POST') return wrongMethod(method, path, ['GET', 'POST']);
      if (!w) return notFound(`workspace ${id} not found`);
      return method === 'GET' ? ok(w) : this.updateWorkspace(w, body);
    }

    if (what === 'users' && sub === undefined) {
      if (id === undefined) {
        if (method !== 'GET') return wrongMethod(method, path, ['GET']);
        const email = q.get('email')?.toLowerCase();
        return cursorPage(this.us.walk(), q, {
          kind: 'users',
          ...LIST,
          ...(email !== undefined ? { match: (u: User) => u.email.toLowerCase() === email } : {}),
        });
      }
      if (!['GET', 'POST', 'DELETE'].includes(method)) return wrongMethod(method, path, ['GET', 'POST', 'DELETE']);
      const u = this.us.get(id);
      if (!u) return notFound(`user ${id} not found`);
      if (method === 'GET') return ok(u);
      if (method === 'DELETE') {
        this.us.remove(id);
        return ok({ id, type: 'user_deleted' });
      }
      if (!isObject(body)) return badRequest('body: must be a JSON object with role');
      const extra = Object.keys(body).find(k => k !== 'role');
      if (extra) return badRequest(`${extra}: Extra inputs are not permitted`);
      const bad = roleProblem(body.role);
      if (bad) return bad;
      u.role = body.role as Role;
      return ok(u);
    }

    if (what === 'invites' && sub === undefined) {
      if (id === undefined) {
        if (method === 'GET') return cursorPage(this.inv.walk(), q, { kind: 'invites', ...LIST });
        if (method === 'POST') return this.createInvite(body, now);
        return wrongMethod(method, path, ['GET', 'POST']);
      }
      if (method !== 'GET' && method !== 'DELETE') return wrongMethod(method, path, ['GET', 'DELETE']);
      const inv = this.inv.get(id);
      if (!inv) return notFound(`invite ${id} not found`);
      if (method === 'GET') return ok(inv);
      // the status enum has `deleted` (doc2 §2.3), so a deleted invite stays readable with that status
      inv.status = 'deleted';
      return ok({ id, type: 'invite_deleted' });
    }
    return undefined;
  }

  private createWorkspace(body: unknown, now: number): Reply {
    if (!isObject(body)) return badRequest('body: must be a JSON object with name');
    const extra = Object.keys(body).find(k => !WORKSPACE_FIELDS.has(k));
    if (extra) return badRequest(`${extra}: Extra inputs are not permitted`);
    if (body.name === undefined) return badRequest('name: Field required');
    const bad = nameProblem(body.name) ?? tagsProblem(body.tags);
    if (bad) return bad;
    const given = body.data_residency;
    if (given !== undefined && !isObject(given)) return badRequest('data_residency: must be an object');
    const shape = given ? residencyShapeProblem(given) : undefined;
    if (shape) return shape;
    // the defaults of doc2 §4.2, field by field when only part of data_residency is given
    const residency: DataResidency = {
      workspace_geo: (given?.workspace_geo as string | undefined) ?? 'us',
      allowed_inference_geos:
        (given?.allowed_inference_geos as string[] | 'unrestricted' | undefined) ?? 'unrestricted',
      default_inference_geo: (given?.default_inference_geo as string | undefined) ?? 'global',
    };
    const rule = residencyRuleProblem(residency);
    if (rule) return rule;
    // workspaces are archived, never removed, so the count makes a fresh id
    const n = this.ws.items.length;
    return ok(
      this.ws.add({
        id: `wrkspc_${String(n).padStart(2, '0')}`,
        type: 'workspace',
        name: body.name as string,
        created_at: iso(now),
        archived_at: null,
        display_color: COLORS[n % COLORS.length]!,
        data_residency: residency,
        tags: { ...((body.tags as Record<string, string> | undefined) ?? {}) },
      }),
    );
  }

  private updateWorkspace(w: Workspace, body: unknown): Reply {
    if (!isObject(body)) return badRequest('body: must be a JSON object');
    const extra = Object.keys(body).find(k => !WORKSPACE_FIELDS.has(k));
    if (extra) return badRequest(`${extra}: Extra inputs are not permitted`);
    const bad = (body.name !== undefined ? nameProblem(body.name) : undefined) ?? tagsProblem(body.tags);
    if (bad) return bad;
    const given = body.data_residency;
    if (given !== undefined && !isObject(given)) return badRequest('data_residency: must be an object');
    if (given && 'workspace_geo' in given)
      return badRequest('data_residency.workspace_geo: cannot be changed after the workspace is created');
    const shape = given ? residencyShapeProblem(given) : undefined;
    if (shape) return shape;
    const residency: DataResidency = { ...w.data_residency, ...(given as Partial<DataResidency> | undefined) };
    const rule = residencyRuleProblem(residency);
    if (rule) return rule;
    if (body.name !== undefined) w.name = body.name as string;
    // tags are replaced as a whole: the spec shows a map, not a patch
    if (body.tags !== undefined) w.tags = { ...(body.tags as Record<string, string>) };
    w.data_residency = residency;
    return ok(w);
  }

  private createInvite(body: unknown, now: number): Reply {
    if (!isObject(body)) return badRequest('body: must be a JSON object with email and role');
    const extra = Object.keys(body).find(k => k !== 'email' && k !== 'role');
    if (extra) return badRequest(`${extra}: Extra inputs are not permitted`);
    if (body.email === undefined) return badRequest('email: Field required');
    if (typeof body.email !== 'string' || !body.email.trim()) return badRequest('email: must be a non-empty string');
    const bad = roleProblem(body.role);
    if (bad) return bad;
    // deleting an invite keeps it (status deleted), so the count makes a fresh id
    const n = this.inv.items.length + 1;
    return ok(
      this.inv.add({
        id: `invite_${String(n).padStart(2, '0')}`,
        type: 'invite',
        email: body.email,
        role: body.role as Role,
        status: 'pending',
        invited_at: iso(now),
        expires_at: iso(now + INVITE_DAYS * DAY),
      }),
    );
  }
}

function roleProblem(role: unknown): Reply | undefined {
  if (role === undefined) return badRequest('role: Field required');
  if (role === 'admin')
    return badRequest(
      `role: the admin role cannot be given through the API; use one of ${ASSIGNABLE_ROLES.join(', ')}`,
    );
  if (typeof role !== 'string' || !(ASSIGNABLE_ROLES as readonly string[]).includes(role))
    return badRequest(`role: must be one of ${ASSIGNABLE_ROLES.join(', ')}, got ${JSON.stringify(role)}`);
  return undefined;
}

function nameProblem(name: unknown): Reply | undefined {
  if (typeof name !== 'string') return badRequest('name: must be a string');
  return name.trim() ? undefined : badRequest('name: must not be empty');
}

function tagsProblem(tags: unknown): Reply | undefined {
  if (tags === undefined) return undefined;
  if (!isObject(tags)) return badRequest('tags: must be a map of string to string');
  for (const [k, v] of Object.entries(tags)) {
    if (typeof v !== 'string') return badRequest(`tags.${k}: must be a string`);
    if (k.startsWith('vendor')) return badRequest(`tags: key ${JSON.stringify(k)} may not begin with "vendor"`);
  }
  return undefined;
}

function residencyShapeProblem(r: Body): Reply | undefined {
  const extra = Object.keys(r).find(k => !RESIDENCY_FIELDS.has(k));
  if (extra) return badRequest(`data_residency.${extra}: Extra inputs are not permitted`);
  const allowed = r.allowed_inference_geos;
  if (
    allowed !== undefined &&
    allowed !== 'unrestricted' &&
    !(Array.isArray(allowed) && allowed.every(g => typeof g === 'string'))
  )
    return badRequest('data_residency.allowed_inference_geos: must be an array of strings or "unrestricted"');
  for (const k of ['default_inference_geo', 'workspace_geo'])
    if (r[k] !== undefined && (typeof r[k] !== 'string' || !r[k]))
      return badRequest(`data_residency.${k}: must be a non-empty string`);
  return undefined;
}

function residencyRuleProblem(r: DataResidency): Reply | undefined {
  const allowed = r.allowed_inference_geos;
  if (allowed === 'unrestricted' || allowed.includes(r.default_inference_geo)) return undefined;
  return badRequest(
    `data_residency.default_inference_geo: ${JSON.stringify(r.default_inference_geo)} must be one of ` +
      `allowed_inference_geos (${allowed.join(', ') || 'none'}) unless those are "unrestricted"`,
  );
}
