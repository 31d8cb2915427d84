// The administration interface (doc2 §4.2) with the Admin key: the organization, workspaces, users and
// invites. Every rule the spec states is checked before the request (rules.ts): a refused input throws an
// InputError and nothing is sent. Lists are async iterators over the cursor pages.
import { InputError } from '../api/errors';
import type { CallOptions, Http } from '../api/http';
import { cursorPages, type CursorOptions, type CursorPage } from '../api/paging';
import { limitProblem, nameProblem, residencyProblem, roleProblem, tagProblems } from './rules';
import { WORKSPACE_DEFAULTS } from './types';
import type {
  AssignableRole,
  Deleted,
  Invite,
  Organization,
  User,
  Workspace,
  WorkspaceCreate,
  WorkspaceUpdate,
} from './types';

const BASE = '/v1/organizations';
const seg = encodeURIComponent;

function refuse(problems: (string | undefined)[]): void {
  const found = problems.filter((p): p is string => !!p);
  if (found.length) throw new InputError(found.join(' '));
}

export class AdminClient {
  constructor(private readonly http: Http) {}

  private get<T>(path: string, c: CallOptions = {}): Promise<T> {
    return this.http.json<T>({ method: 'GET', path, key: 'admin' }, c).then(r => r.data);
  }

  private send<T>(method: string, path: string, body: unknown, c: CallOptions = {}): Promise<T> {
    return this.http
      .json<T>({ method, path, key: 'admin', ...(body !== undefined ? { body } : {}) }, c)
      .then(r => r.data);
  }

  private list<T>(path: string, query: Record<string, string>, o: CursorOptions): AsyncGenerator<CursorPage<T>> {
    refuse([limitProblem(o.pageSize), limitProblem(o.max !== undefined ? Math.min(o.max, 1000) : undefined)]);
    return cursorPages<T>(this.http, { method: 'GET', path, query, key: 'admin' }, o);
  }

  org(c: CallOptions = {}): Promise<Organization> {
    return this.get(`${BASE}/me`, c);
  }

  // ---- workspaces -------------------------------------------------------------------------------------
  workspaces(o: CursorOptions & { includeArchived?: boolean } = {}): AsyncGenerator<CursorPage<Workspace>> {
    return this.list(`${BASE}/workspaces`, o.includeArchived ? { include_archived: 'true' } : {}, o);
  }

  workspace(id: string, c: CallOptions = {}): Promise<Workspace> {
    return this.get(`${BASE}/workspaces/${seg(id)}`, c);
  }

  async createWorkspace(body: WorkspaceCreate, c: CallOptions = {}): Promise<Workspace> {
    // the service fills what is left out with its defaults, then checks the default geo against them
    const residency = body.data_residency && { ...WORKSPACE_DEFAULTS, ...body.data_residency };
    refuse([nameProblem(body.name ?? ''), ...tagProblems(body.tags), residencyProblem(residency)]);
    return this.send('POST', `${BASE}/workspaces`, body, c);
  }

  async updateWorkspace(id: string, body: WorkspaceUpdate, c: CallOptions = {}): Promise<Workspace> {
    const geo = (body.data_residency as { workspace_geo?: unknown } | undefined)?.workspace_geo;
    refuse([
      geo !== undefined ? 'workspace_geo cannot be changed after a workspace is created.' : undefined,
      nameProblem(body.name),
      ...tagProblems(body.tags),
      residencyProblem(body.data_residency),
    ]);
    return this.send('POST', `${BASE}/workspaces/${seg(id)}`, body, c);
  }

  archiveWorkspace(id: string, c: CallOptions = {}): Promise<Workspace> {
    return this.send('POST', `${BASE}/workspaces/${seg(id)}/archive`, undefined, c);
  }

  // ---- users ------------------------------------------------------------------------------------------
  users(o: CursorOptions & { email?: string } = {}): AsyncGenerator<CursorPage<User>> {
    return this.list(`${BASE}/users`, o.email ? { email: o.email } : {}, o);
  }

  user(id: string, c: CallOptions = {}): Promise<User> {
    return this.get(`${BASE}/users/${seg(id)}`, c);
  }

  async setRole(id: string, role: string, c: CallOptions = {}): Promise<User> {
    refuse([roleProblem(role)]);
    return this.send('POST', `${BASE}/users/${seg(id)}`, { role: role as AssignableRole }, c);
  }

  removeUser(id: string, c: CallOptions = {}): Promise<Deleted> {
    return this.send('DELETE', `${BASE}/users/${seg(id)}`, undefined, c);
  }

  // ---- invites ----------------------------------------------------------------------------------------
  invites(o: CursorOptions = {}): AsyncGenerator<CursorPage<Invite>> {
    return this.list(`${BASE}/invites`, {}, o);
  }

  invite(id: string, c: CallOptions = {}): Promise<Invite> {
    return this.get(`${BASE}/invites/${seg(id)}`, c);
  }

  async createInvite(email: string, role: string, c: CallOptions = {}): Promise<Invite> {
    refuse([roleProblem(role), email.trim() ? undefined : 'An invite needs an e-mail address.']);
    return this.send('POST', `${BASE}/invites`, { email: email.trim(), role }, c);
  }

  deleteInvite(id: string, c: CallOptions = {}): Promise<Deleted> {
    return this.send('DELETE', `${BASE}/invites/${seg(id)}`, undefined, c);
  }
}
