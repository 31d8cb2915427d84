// A simulated compliance interface (doc3 §1, §2.2, §2.3, §4, §5, §6, §7, §8), which the offline demo and the
// tests' fake of the service share: the Activity Feed (generated on demand, so a benchmark can ask for
// 100,000+ records without holding them), the organization tree, chats, projects, project attachments and
// files, behind Compliance Access Keys and their scopes, with the one request budget the whole interface
// shares. A server calls admit() before anything else on `/v1/compliance/*`, and handle() after its checks.
import {
  cursorPage,
  decodeCursor,
  encodeCursor,
  iso,
  notFound,
  ok,
  Ordered,
  person,
  problem,
  badRequest,
  segment,
  wrongMethod,
  type Reply,
  type Walk,
} from './admin';
import { ACTIVITY_TYPES } from '../compliance/filters';
import { SlidingBudget, type RateOptions } from './budget';
import { firstTrue, OPS, parseRfc3339, type Bound } from './timeFilters';

const SCOPES = [
  'read:compliance_activities',
  'read:compliance_org_data',
  'read:compliance_user_data',
  'delete:compliance_user_data',
] as const;
type Scope = (typeof SCOPES)[number];

export const DEFAULT_COMPLIANCE_KEYS: Record<string, readonly string[]> = {
  'sk-vendor-api01-full': SCOPES,
  'sk-vendor-api01-readonly': ['read:compliance_activities', 'read:compliance_org_data', 'read:compliance_user_data'],
};
/** doc3 §5 rule 4: an Admin key reads the Activity Feed and nothing else here. */
const ADMIN_KEY_SCOPES: readonly string[] = ['read:compliance_activities'];

export interface ComplianceOptions {
  apiKey: string;
  adminKey: string;
  /** Compliance Access Keys and their scopes */
  keys?: Record<string, readonly string[]>;
  /** how many Activity Feed records exist (default 2000) */
  activities?: number;
  /** the shared budget (default 600 per 60 s, doc3 §8) */
  rate?: RateOptions;
  /** linked organizations (default 7); more than 1,000 makes the list fail as the spec says */
  organizations?: number;
}

export interface Activity {
  id: string;
  type: 'activity';
  activity_type: string;
  created_at: string;
  updated_at: string;
  actor: { type: 'user'; id: string; email: string };
  organization_id: string;
  target: { type: string; id: string };
}

export interface ComplianceOrganization {
  id: string;
  name: string;
  parent_id: string | null;
}

export interface Chat {
  id: string;
  type: 'chat';
  user_id: string;
  project_id: string | null;
  name: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface Project {
  id: string;
  type: 'project';
  name: string;
  created_at: string;
}

export interface Attachment {
  id: string;
  type: 'project_document' | 'file';
  name: string;
  created_at: string;
}

export interface ChatFile {
  id: string;
  type: 'file';
  name: string;
  created_at: string;
  chat_id: string;
}

export type Gate = { reply: Reply } | { scopes: readonly string[]; headers: Record<string, string> };

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const ORG_CAP = 1000;
const ACTIVITY_LIMIT = { defaultLimit: 100, maxLimit: 1000 };
const CHAT_LIMIT = { defaultLimit: 20, maxLimit: 1000 };
/** records per page of project attachments: the page-token family takes no limit (doc3 §2.2) */
const ATTACHMENTS_PAGE = 20;

// Activities: record k (0 = oldest) was created at ACT_BASE + ⌊k/2⌋·5 min, so pairs share a timestamp and
// the feed's tie-break (by id) is exercised; every fifth was updated some hours later.
const ACT_BASE = Date.UTC(2026, 0, 1);
const ACT_STEP = 5 * MINUTE;
const createdMs = (k: number) => ACT_BASE + Math.floor(k / 2) * ACT_STEP;
const updatedMs = (k: number) => createdMs(k) + (k % 5 === 0 ? ((k % 13) + 1) * HOUR : 0);
const activityType = (k: number): string => ACTIVITY_TYPES[mix(k) % ACTIVITY_TYPES.length]!;

/** A small integer hash, so seeded values look scattered yet never change. */
function mix(n: number): number {
  let x = (n + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

function uuid(i: number): string {
  const h = [1, 2, 3, 4]
    .map(j =>
      mix(i * 4 + j)
        .toString(16)
        .padStart(8, '0'),
    )
    .join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const ORG_NAMES = ['Example Holdings', 'Example Corp', 'Example Labs', 'Example EU', 'Example Research'];

/** Linked organizations as a tree: the parent first, then three children to each organization in turn. */
function makeOrganizations(n: number): ComplianceOrganization[] {
  const out: ComplianceOrganization[] = [];
  for (let i = 0; i < n; i++)
    out.push({
      id: uuid(i),
      name: ORG_NAMES[i] ?? `Example Unit ${i}`,
      parent_id: i === 0 ? null : out[Math.floor((i - 1) / 3)]!.id,
    });
  return out;
}

export class SimulatedCompliance {
  readonly keys: Record<string, readonly string[]>;
  readonly rate: RateOptions;
  /** the requests counted against the budget, and those refused with 429 (authenticated, over the budget) */
  readonly budget: SlidingBudget;
  readonly activityCount: number;
  readonly organizations: ComplianceOrganization[];
  /** the people whose content is seeded (user_01…user_05, the first administration users) */
  readonly users = [0, 1, 2, 3, 4].map(i => person(i));
  private readonly chatList = new Ordered<Chat>();
  readonly projects: Project[] = [];
  private readonly attached = new Map<string, Ordered<Attachment>>();
  readonly chatFiles: ChatFile[] = [];

  constructor(private readonly o: ComplianceOptions) {
    this.keys = o.keys ?? DEFAULT_COMPLIANCE_KEYS;
    this.rate = o.rate ?? { limit: 600, windowMs: MINUTE };
    this.budget = new SlidingBudget(this.rate);
    this.activityCount = Math.max(0, Math.floor(o.activities ?? 2000));
    this.organizations = makeOrganizations(Math.max(1, Math.floor(o.organizations ?? 7)));
    this.seedContent();
  }

  /** chats that still exist (soft-deleted ones included), oldest first */
  get chats(): Chat[] {
    return this.chatList.items;
  }

  /** current attachments of a project, oldest first (undefined for an unknown or deleted project) */
  attachments(projectId: string): Attachment[] | undefined {
    return this.attached.get(projectId)?.items;
  }

  /** The k-th activity (0 = oldest); the feed lists them newest first. */
  activity(k: number): Activity {
    const actor = this.users[mix(k + 7) % this.users.length]!;
    const type = activityType(k);
    const org = this.organizations[k % Math.min(this.organizations.length, 7)]!;
    const n = String((k % 9999) + 1).padStart(4, '0');
    const target = type.startsWith('org_')
      ? { type: 'organization', id: org.id }
      : type.includes('document')
        ? { type: 'project_document', id: `model_proj_doc_${n}` }
        : type.includes('project')
          ? { type: 'project', id: `model_proj_${n}` }
          : type.includes('file')
            ? { type: 'file', id: `model_file_${n}` }
            : { type: 'chat', id: `model_chat_${n}` };
    return {
      id: `activity_${String(k + 1).padStart(8, '0')}`,
      type: 'activity',
      activity_type: type,
      created_at: iso(createdMs(k)),
      updated_at: iso(updatedMs(k)),
      actor: { type: 'user', id: actor.id, email: actor.email },
      organization_id: org.id,
      target,
    };
  }

  /** Every activity in feed order (newest first), made one at a time. */
  *activities(): Generator<Activity> {
    for (let k = this.activityCount - 1; k >= 0; k--) yield this.activity(k);
  }

  // ---- the budget (doc3 §8): one sliding window shared by every key and endpoint (budget.ts) ----------

  /** times (ms) of the requests counted against the budget, oldest first */
  get log(): readonly number[] {
    return this.budget.log;
  }

  /** times (ms) of the requests refused with 429 (authenticated, over the budget; they use no quota) */
  get throttled(): readonly number[] {
    return this.budget.throttled;
  }

  rateHeaders(now = Date.now()): Record<string, string> {
    return this.budget.headers(now);
  }

  /** The most requests the client sent after authenticating (counted or refused with 429) in any windowMs. */
  maxInAnyWindow(windowMs = this.rate.windowMs): number {
    return this.budget.maxInAnyWindow(windowMs);
  }

  resetRate(): void {
    this.budget.reset();
  }

  /**
   * Authentication, then the budget (doc3 §5, §8): a failed authentication is answered before the limiter
   * and uses nothing; anything authenticated is counted (a later 403 for a missing scope included) or
   * refused with 429 and retry-after.
   */
  admit(key: unknown, now = Date.now()): Gate {
    const unauthenticated = (message: string): Gate => ({
      reply: problem(401, 'authentication_error', message, this.rateHeaders(now)),
    });
    if (typeof key !== 'string' || key === '') return unauthenticated('x-api-key header is required');
    if (key === this.o.apiKey)
      return unauthenticated('a standard API key cannot call the compliance interface; use a Compliance Access Key');
    const scopes = key === this.o.adminKey ? ADMIN_KEY_SCOPES : this.keys[key];
    if (!scopes) return unauthenticated('invalid x-api-key');
    const taken = this.budget.take(now);
    if (!taken.ok)
      return {
        reply: problem(
          429,
          'rate_limit_error',
          `more than ${this.rate.limit} compliance requests in ${this.rate.windowMs / 1000} s for the organization`,
          taken.headers,
        ),
      };
    return { scopes, headers: taken.headers };
  }

  // ---- routes (doc3 §4) --------------------------------------------------------------------------------

  handle(scopes: readonly string[], method: string, url: URL): Reply {
    const parts = url.pathname.split('/').slice(3).map(segment);
    const q = url.searchParams;
    const [a, b, id, sub, ...rest] = parts;
    let route: { method: string; scope: Scope; run: () => Reply } | undefined;
    if (a === 'activities' && b === undefined)
      route = { method: 'GET', scope: 'read:compliance_activities', run: () => this.listActivities(q) };
    else if (a === 'organizations' && b === undefined)
      route = { method: 'GET', scope: 'read:compliance_org_data', run: () => this.listOrganizations() };
    else if (a === 'apps' && b === 'chats' && id === undefined)
      route = { method: 'GET', scope: 'read:compliance_user_data', run: () => this.listChats(q) };
    else if (a === 'apps' && b === 'chats' && id !== undefined && sub === undefined)
      route = { method: 'DELETE', scope: 'delete:compliance_user_data', run: () => this.deleteChat(id) };
    else if (a === 'apps' && b === 'projects' && id !== undefined && sub === undefined)
      route = { method: 'DELETE', scope: 'delete:compliance_user_data', run: () => this.deleteProject(id) };
    else if (a === 'apps' && b === 'projects' && id !== undefined && sub === 'attachments' && !rest.length)
      route = { method: 'GET', scope: 'read:compliance_user_data', run: () => this.listAttachments(id, q) };
    else if (a === 'apps' && b === 'files' && id !== undefined && sub === undefined)
      route = { method: 'DELETE', scope: 'delete:compliance_user_data', run: () => this.deleteFile(id) };
    if (!route) return notFound(`no route for ${method} ${url.pathname}`);
    if (method !== route.method) return wrongMethod(method, url.pathname, [route.method]);
    if (!scopes.includes(route.scope))
      return problem(
        403,
        'permission_error',
        `Missing required scopes. Got: ${scopes.join(', ') || '(none)'}. Needed: ${route.scope}.`,
      );
    return route.run();
  }

  private listActivities(q: URLSearchParams): Reply {
    const created: Bound[] = [];
    const createdUpper: Bound[] = [];
    const updated: Bound[] = [];
    for (const field of ['created_at', 'updated_at'])
      for (const op of Object.keys(OPS))
        for (const value of q.getAll(`${field}.${op}`)) {
          const ms = parseRfc3339(value);
          if (ms === undefined)
            return badRequest(
              `${field}.${op}: must be an RFC 3339 timestamp with date, time and zone ` +
                `(e.g. 2026-01-01T00:00:00Z or 2026-01-01T02:00:00+02:00), got ${JSON.stringify(value)}`,
            );
          const bound = OPS[op]!(ms);
          if (field === 'updated_at') updated.push(bound);
          else (op.startsWith('g') ? created : createdUpper).push(bound);
        }
    const types = q.getAll('activity_types[]');
    const wanted = types.length ? new Set(types) : undefined;
    // created_at only grows with k, so its bounds narrow the walk to [lo, hi] before any record is made
    const n = this.activityCount;
    const lo = firstTrue(n, k => created.every(p => p(createdMs(k))));
    const hi = firstTrue(n, k => !createdUpper.every(p => p(createdMs(k)))) - 1;
    const walk: Walk<number> = {
      key: k => k,
      forward: function* (after) {
        for (let k = Math.min(hi, after === undefined ? n - 1 : after - 1); k >= lo; k--) yield k;
      },
      backward: function* (before) {
        for (let k = Math.max(lo, before + 1); k <= hi; k++) yield k;
      },
    };
    return cursorPage(walk, q, {
      kind: 'activities',
      ...ACTIVITY_LIMIT,
      match: k => (!wanted || wanted.has(activityType(k))) && updated.every(p => p(updatedMs(k))),
      render: k => this.activity(k),
    });
  }

  private listOrganizations(): Reply {
    const n = this.organizations.length;
    if (n > ORG_CAP)
      // the same list fails the same way every time, so the client is told not to retry (doc3 §7 rule 3)
      return problem(
        500,
        'api_error',
        `the organizations list exceeds its cap of ${ORG_CAP} records (${n} linked organizations)`,
        { 'x-should-retry': 'false' },
      );
    return ok({ data: this.organizations });
  }

  private listChats(q: URLSearchParams): Reply {
    const users = new Set(q.getAll('user_ids[]').filter(Boolean));
    if (!users.size) return badRequest('user_ids[]: at least one user id is required');
    const projects = q.getAll('project_ids[]');
    const inProjects = projects.length ? new Set(projects) : undefined;
    return cursorPage(this.chatList.walk(), q, {
      kind: 'chats',
      ...CHAT_LIMIT,
      match: c => users.has(c.user_id) && (!inProjects || (c.project_id !== null && inProjects.has(c.project_id))),
    });
  }

  private deleteChat(id: string): Reply {
    // removing the chat is what detaches it from its project (a project lists its chats by project_id)
    if (!this.chatList.remove(id)) return notFound(`chat ${id} not found`);
    return ok({ id, type: 'chat_deleted' });
  }

  private deleteProject(id: string): Reply {
    const i = this.projects.findIndex(p => p.id === id);
    if (i < 0) return notFound(`project ${id} not found`);
    const attached = this.chats.filter(c => c.project_id === id).length;
    if (attached)
      return problem(
        409,
        'conflict_error',
        `project ${id} still has ${attached} chat(s) attached; delete each of its chats, then retry`,
      );
    this.projects.splice(i, 1);
    this.attached.delete(id);
    return ok({ id, type: 'project_deleted' });
  }

  private listAttachments(projectId: string, q: URLSearchParams): Reply {
    const list = this.attached.get(projectId);
    if (!list) return notFound(`project ${projectId} not found`);
    const kind = `attachments.${projectId}`;
    const token = q.get('page');
    let after: number | undefined;
    if (token !== null) {
      after = decodeCursor(kind, token);
      if (after === undefined)
        return badRequest(`page: cannot be decoded (${JSON.stringify(token.slice(0, 80))}); pass next_page unchanged`);
    }
    const walk = list.walk();
    const got: Attachment[] = [];
    for (const x of walk.forward(after)) {
      got.push(x);
      if (got.length > ATTACHMENTS_PAGE) break;
    }
    const hasMore = got.length > ATTACHMENTS_PAGE;
    got.length = Math.min(got.length, ATTACHMENTS_PAGE);
    const last = got[got.length - 1];
    return ok({
      data: got,
      next_page: hasMore && last ? encodeCursor(kind, walk.key(last)) : null,
      has_more: hasMore,
    });
  }

  private deleteFile(id: string): Reply {
    const i = this.chatFiles.findIndex(f => f.id === id);
    if (i >= 0) {
      this.chatFiles.splice(i, 1);
      return ok({ id, type: 'file_deleted' });
    }
    for (const list of this.attached.values()) {
      const f = list.get(id);
      // a project document is not a file (doc3 §2.3 gives it its own identifier shape)
      if (f?.type === 'file') {
        list.remove(id);
        return ok({ id, type: 'file_deleted' });
      }
    }
    return notFound(`file ${id} not found`);
  }

  // ---- seeds -------------------------------------------------------------------------------------------

  private seedContent(): void {
    let fileN = 0;
    const nextFile = () => `model_file_${String(++fileN).padStart(4, '0')}`;
    const projectBase = Date.UTC(2026, 4, 20);
    const projectSeeds: [string, string, number][] = [
      ['model_proj_01', 'Audit playbook', 45],
      ['model_proj_02', 'Onboarding notes', 3],
      ['model_proj_03', 'Scratch', 0],
    ];
    let docN = 0;
    projectSeeds.forEach(([id, name, count], p) => {
      const created = projectBase + p * DAY;
      this.projects.push({ id, type: 'project', name, created_at: iso(created) });
      const list = new Ordered<Attachment>();
      for (let a = 0; a < count; a++) {
        const at = iso(created + (a + 1) * HOUR);
        list.add(
          a % 3 === 2
            ? { id: nextFile(), type: 'file', name: `evidence-${a + 1}.pdf`, created_at: at }
            : {
                id: `model_proj_doc_${String(++docN).padStart(4, '0')}`,
                type: 'project_document',
                name: `section-${a + 1}.md`,
                created_at: at,
              },
        );
      }
      this.attached.set(id, list);
    });

    // chats round-robin over the users, so creation order mixes them; [chats, local indexes in project 01]
    const plan: [number, number[]][] = [
      [30, [3, 17]],
      [12, [2]],
      [6, [1]],
      [0, []],
      [4, []],
    ];
    const topics = [
      'Quarterly report draft',
      'Refactor plan',
      'Travel policy question',
      'SQL help',
      'Release notes',
      'Customer email reply',
      'Meeting summary',
      'Regex puzzle',
      'Hiring rubric',
      'Budget forecast',
    ];
    const chatBase = Date.UTC(2026, 5, 1);
    let n = 0;
    for (let round = 0; round < 30; round++)
      plan.forEach(([count, inProject], u) => {
        if (round >= count) return;
        n++;
        const created = chatBase + n * 2 * HOUR;
        const updated = created + (n % 3) * 30 * MINUTE;
        // soft-deleted by their users now and then (doc3 §2.3), one of them inside the project
        const softDeleted = n % 7 === 0 || (u === 2 && round === 1);
        const chat: Chat = {
          id: `model_chat_${String(n).padStart(4, '0')}`,
          type: 'chat',
          user_id: this.users[u]!.id,
          project_id: inProject.includes(round) ? 'model_proj_01' : null,
          name: `${topics[n % topics.length]!} ${round + 1}`,
          created_at: iso(created),
          updated_at: iso(updated),
          deleted_at: softDeleted ? iso(updated + HOUR) : null,
        };
        this.chatList.add(chat);
        if (n % 5 === 0)
          this.chatFiles.push({
            id: nextFile(),
            type: 'file',
            name: `notes-${n}.pdf`,
            created_at: iso(created + MINUTE),
            chat_id: chat.id,
          });
      });
  }
}
