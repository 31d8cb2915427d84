// The compliance interface (doc3 §4) with the Compliance Access Key, or with the Admin key for the
// Activity Feed only (doc3 §5 rule 4). Every request first waits on the shared rate limiter (doc3 §8),
// and bad filters are refused before anything is sent.
import { InputError } from '../api/errors';
import { joinHooks, type CallHooks, type CallOptions, type Http, type KeyKind } from '../api/http';
import { cursorPages, tokenPages, type CursorOptions, type CursorPage, type TokenPage } from '../api/paging';
import { filterProblems, filterQuery, type ActivityFilter } from './filters';
import type { Activity, Attachment, Chat, ComplianceOrganization, Deletion } from './types';

const BASE = '/v1/compliance';
const seg = encodeURIComponent;

export class ComplianceClient {
  /**
   * @param activityKey which key reads the Activity Feed: the Compliance Access Key, or an Admin key
   * when that is all there is (the other endpoints always use the Compliance Access Key)
   * @param hooks given to every call (the editor's shared rate limiter), so `http` can be a client shared with
   * every other request
   */
  constructor(
    private readonly http: Http,
    private readonly activityKey: KeyKind = 'compliance',
    private readonly hooks: CallHooks = {},
  ) {}

  /** A call's options with the client's hooks first. */
  private with<T extends CallOptions>(c: T): T {
    return { ...c, ...joinHooks(this.hooks, c) };
  }

  activities(filter: ActivityFilter = {}, o: CursorOptions = {}): AsyncGenerator<CursorPage<Activity>> {
    const problems = filterProblems(filter);
    if (problems.length) throw new InputError(problems.join(' '));
    if (o.pageSize !== undefined && (!Number.isInteger(o.pageSize) || o.pageSize < 1 || o.pageSize > 1000)) {
      throw new InputError('limit must be a whole number from 1 to 1000.');
    }
    return cursorPages<Activity>(
      this.http,
      { method: 'GET', path: `${BASE}/activities`, query: filterQuery(filter), key: this.activityKey },
      this.with(o),
    );
  }

  /** One page of the feed (an export's own loop pages with this, to retry a page without losing it). */
  async activityPage(filter: ActivityFilter, o: CursorOptions = {}): Promise<CursorPage<Activity>> {
    const first = await this.activities(filter, { ...o, max: undefined }).next();
    return (
      (first.value as CursorPage<Activity> | undefined) ?? { data: [], first_id: null, last_id: null, has_more: false }
    );
  }

  /** The tree of linked organizations: one call, up to 1,000 (a 500 says when there are more). */
  async organizations(c: CallOptions = {}): Promise<ComplianceOrganization[]> {
    const r = await this.http.json<{ data: ComplianceOrganization[] }>(
      { method: 'GET', path: `${BASE}/organizations`, key: 'compliance' },
      this.with(c),
    );
    return r.data.data;
  }

  chats(userIds: string[], projectIds: string[] = [], o: CursorOptions = {}): AsyncGenerator<CursorPage<Chat>> {
    const users = userIds.map(u => u.trim()).filter(Boolean);
    if (!users.length) throw new InputError('Chats are listed per user: give at least one user id.');
    const query = { 'user_ids[]': users, ...(projectIds.length ? { 'project_ids[]': projectIds } : {}) };
    const spec = { method: 'GET', path: `${BASE}/apps/chats`, query, key: 'compliance' as const };
    return cursorPages<Chat>(this.http, spec, this.with(o));
  }

  attachments(projectId: string, o: CallOptions & { page?: string } = {}): AsyncGenerator<TokenPage<Attachment>> {
    const path = `${BASE}/apps/projects/${seg(projectId)}/attachments`;
    return tokenPages<Attachment>(this.http, { method: 'GET', path, key: 'compliance' }, this.with(o));
  }

  /** Immediate and permanent (doc3 §1). */
  deleteChat(id: string, c: CallOptions = {}): Promise<Deletion> {
    return this.remove(`${BASE}/apps/chats/${seg(id)}`, c);
  }

  /** Immediate and permanent; a 409 while chats are attached. */
  deleteProject(id: string, c: CallOptions = {}): Promise<Deletion> {
    return this.remove(`${BASE}/apps/projects/${seg(id)}`, c);
  }

  /** Immediate and permanent: a chat file or a project file. */
  deleteFile(id: string, c: CallOptions = {}): Promise<Deletion> {
    return this.remove(`${BASE}/apps/files/${seg(id)}`, c);
  }

  private async remove(path: string, c: CallOptions): Promise<Deletion> {
    return (await this.http.json<Deletion>({ method: 'DELETE', path, key: 'compliance' }, this.with(c))).data;
  }
}
