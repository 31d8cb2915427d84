// A simulation of the service's interfaces other than messages and token counting, in memory: session
// resources (doc2 §2.1, §4.1), rate limits (doc2 §2.7, §4.3), models (models.ts), Message Batches (batches.ts),
// administration (admin.ts) and compliance (compliance.ts), behind the spec's keys and version header. The
// offline demo (server.ts) and the tests' fake of the service both serve it; each answers POST /v1/messages and
// count_tokens itself, and gives the batches its own answer to a request.
import type { IncomingHttpHeaders } from 'node:http';
import { problem, SimulatedAdmin, type Reply } from './admin';
import { SimulatedBatches, type BatchesOptions } from './batches';
import { SimulatedCompliance, type ComplianceOptions } from './compliance';
import { demoModels, SimulatedModels } from './models';
import type { ServiceModel } from '../models/types';

export type { Reply } from './admin';

export interface Resource {
  id?: string;
  type: 'github_repository' | 'file' | 'memory_store';
  [k: string]: unknown;
}

export interface ServiceRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ServiceOptions extends Omit<ComplianceOptions, 'apiKey' | 'adminKey'> {
  apiKey: string;
  adminKey: string;
  /** the sessions and their resources (the demo's one session, the tests' small and big ones) */
  sessions?: [string, Resource[]][];
  /** what `GET /v1/models` lists (default: the built-in table's current models) */
  models?: readonly ServiceModel[];
  /** Message Batches: how long a batch takes, and each request's answer (the server's own messages reply) */
  batches: BatchesOptions;
}

/** What admission decides: a refusal, or the compliance scopes and the headers every answer carries. */
export type Admission = { reply: Reply } | { scopes: readonly string[]; headers: Record<string, string> };

const API_VERSION = '2023-06-01';

export class SimulatedService {
  readonly admin = new SimulatedAdmin();
  readonly compliance: SimulatedCompliance;
  readonly sessions: Map<string, Resource[]>;
  readonly models: SimulatedModels;
  readonly batches: SimulatedBatches;

  constructor(readonly o: ServiceOptions) {
    this.compliance = new SimulatedCompliance(o);
    this.batches = new SimulatedBatches(o.batches);
    this.sessions = new Map(o.sessions ?? []);
    this.models = new SimulatedModels(o.models ?? demoModels());
  }

  /**
   * Authentication first (doc3 §5 rule 5; doc3 §8: failures use no quota), then the version header. The
   * compliance interface has its own keys and budget, whose headers every later answer carries.
   */
  admit(r: ServiceRequest): Admission {
    const key = r.headers['x-api-key'];
    const path = r.url.pathname;
    let admitted: Admission = { scopes: [], headers: {} };
    if (/^\/v1\/compliance(\/|$)/.test(path)) {
      admitted = this.compliance.admit(key);
      if ('reply' in admitted) return admitted;
    } else {
      if (typeof key !== 'string' || key === '' || (key !== this.o.apiKey && key !== this.o.adminKey))
        return { reply: problem(401, 'authentication_error', 'invalid x-api-key') };
      if (path.startsWith('/v1/organizations') && key !== this.o.adminKey)
        return { reply: problem(403, 'permission_error', 'this endpoint needs an Admin API key') };
    }
    if (r.headers['vendor-version'] !== API_VERSION) {
      const got = String(r.headers['vendor-version']);
      const reply = problem(400, 'invalid_request_error', `vendor-version header must be ${API_VERSION}, got ${got}`);
      return { reply: { ...reply, headers: { ...admitted.headers, ...reply.headers } } };
    }
    return admitted;
  }

  /** The answer of every route but messages and count_tokens, or undefined when none matches. */
  route(r: ServiceRequest, scopes: readonly string[]): Reply | undefined {
    const path = r.url.pathname;
    if (/^\/v1\/compliance(\/|$)/.test(path)) return this.compliance.handle(scopes, r.method, r.url);
    if (path.startsWith('/v1/organizations')) {
      const admin = this.admin.handle(r.method, r.url, r.body);
      if (admin) return admin;
    }
    if (path === '/v1/models' || path.startsWith('/v1/models/')) return this.models.handle(r.method, r.url);
    if (path.startsWith('/v1/messages/batches'))
      return this.batches.handle(r.method, r.url, r.body, `http://${r.headers.host ?? '127.0.0.1'}`);
    const sm = /^\/v1\/sessions\/([^/]+)\/resources(?:\/([^/]+))?$/.exec(path);
    if (sm) return this.resources(r, decodeURIComponent(sm[1]!), sm[2] && decodeURIComponent(sm[2]));
    if (r.method === 'GET' && path === '/v1/organizations/rate_limits') return this.orgRateLimits(r.url);
    const wm = /^\/v1\/organizations\/workspaces\/([^/]+)\/rate_limits$/.exec(path);
    if (r.method === 'GET' && wm) {
      // a workspace with no overrides has no entries (doc2 §2.7 rule 1); an unknown one is a 404
      if (!this.admin.workspaces.some(w => w.id === wm[1]))
        return problem(404, 'not_found_error', `workspace ${wm[1]} not found`);
      return ok({ data: wm[1] === 'wrkspc_demo' ? WORKSPACE_LIMITS : [], next_page: null });
    }
    return undefined;
  }

  private resources(r: ServiceRequest, sessionId: string, resourceId: string | undefined): Reply | undefined {
    const list = this.sessions.get(sessionId);
    if (!list) return problem(404, 'not_found_error', `session ${sessionId} not found`);
    if (r.method === 'GET' && resourceId) {
      const found = list.find(x => x.id === resourceId);
      return found ? ok(found) : problem(404, 'not_found_error', `resource ${resourceId} not found`);
    }
    if (r.method === 'GET') {
      const limitRaw = r.url.searchParams.get('limit');
      const limit = limitRaw === null ? list.length : Number(limitRaw);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        return invalid(`limit: must be between 1 and 1000, got ${limitRaw}`);
      const page = r.url.searchParams.get('page');
      let offset = 0;
      if (page !== null) {
        const m = /^cur_(\d+)$/.exec(Buffer.from(page, 'base64url').toString());
        if (!m) return invalid('page: cannot be decoded');
        offset = Number(m[1]);
      }
      const data = list.slice(offset, offset + limit);
      const next = offset + limit < list.length ? Buffer.from(`cur_${offset + limit}`).toString('base64url') : null;
      return ok({ data, next_page: next });
    }
    if (r.method === 'POST') {
      const b = r.body as Record<string, unknown> | undefined;
      if (!b || b.type !== 'file' || typeof b.file_id !== 'string' || !b.file_id)
        return invalid('type must be "file" and file_id is required');
      if (b.mount_path !== undefined && typeof b.mount_path !== 'string') return invalid('mount_path must be a string');
      const ts = new Date().toISOString();
      const added: Resource = {
        id: `sesrsc_new_${list.length}`,
        type: 'file',
        file_id: b.file_id,
        mount_path: b.mount_path ?? `/mnt/session/uploads/${b.file_id}`,
        created_at: ts,
        updated_at: ts,
      };
      list.push(added);
      return ok(added);
    }
    return undefined;
  }

  private orgRateLimits(url: URL): Reply {
    let data = ORG_LIMITS;
    const group = url.searchParams.get('group_type');
    const model = url.searchParams.get('model');
    if (group) data = data.filter(d => d.group_type === group);
    if (model) {
      data = data.filter(d => d.models?.includes(model));
      // doc2 §4.3 rule 1: a model that matches no group is a 404
      if (!data.length) return problem(404, 'not_found_error', `model ${model} matches no rate limit group`);
    }
    return ok({ data, next_page: null });
  }
}

const ok = (body: unknown): Reply => ({ status: 200, body });
const invalid = (message: string): Reply => problem(400, 'invalid_request_error', message);

/**
 * `n` resources of a session, of each type in turn (file, repository on a branch or a commit, memory store),
 * a minute apart.
 */
export function makeResources(n: number, sessionId: string): Resource[] {
  const out: Resource[] = [];
  const base = Date.UTC(2026, 3, 1);
  for (let i = 0; i < n; i++) {
    const ts = new Date(base + i * 60000).toISOString();
    const k = i % 3;
    if (k === 0)
      out.push({
        id: `sesrsc_${sessionId}_${i}`,
        type: 'file',
        file_id: `file_${i}`,
        mount_path: `/mnt/session/uploads/file_${i}`,
        created_at: ts,
        updated_at: ts,
      });
    else if (k === 1)
      out.push({
        id: `sesrsc_${sessionId}_${i}`,
        type: 'github_repository',
        url: `https://github.com/example/repo-${i}`,
        mount_path: `/workspace/repo-${i}`,
        checkout: i % 2 ? { type: 'branch', name: 'main' } : { type: 'commit', sha: 'a'.repeat(40) },
        created_at: ts,
        updated_at: ts,
      });
    else
      out.push({
        type: 'memory_store',
        memory_store_id: `memstore_${i}`,
        name: `notes-${i}`,
        access: 'read_only',
        description: 'Team notes',
        instructions: 'Consult before answering.',
        mount_path: `/mnt/memory/notes-${i}`,
      });
  }
  return out;
}

const ORG_LIMITS = [
  {
    type: 'rate_limit',
    group_type: 'model_group',
    models: ['model-opus-4-7', 'model-opus-4-6', 'model-opus-4-5', 'model-opus-4-5-20251101'],
    limits: [
      { type: 'requests_per_minute', value: 4000 },
      { type: 'input_tokens_per_minute', value: 2000000 },
      { type: 'output_tokens_per_minute', value: 400000 },
    ],
  },
  {
    type: 'rate_limit',
    group_type: 'model_group',
    models: ['model-sonnet-4-6', 'model-sonnet-4-5', 'model-sonnet-4-5-20250929'],
    limits: [
      { type: 'requests_per_minute', value: 4000 },
      { type: 'input_tokens_per_minute', value: 2000000 },
      { type: 'output_tokens_per_minute', value: 400000 },
    ],
  },
  {
    type: 'rate_limit',
    group_type: 'batch',
    models: null,
    limits: [{ type: 'enqueued_batch_requests', value: 500000 }],
  },
  {
    type: 'rate_limit',
    group_type: 'token_count',
    models: null,
    limits: [{ type: 'requests_per_minute', value: 2000 }],
  },
];
const WORKSPACE_LIMITS = [
  {
    type: 'workspace_rate_limit',
    group_type: 'model_group',
    models: ORG_LIMITS[0]!.models,
    limits: [{ type: 'requests_per_minute', value: 1000, org_limit: 4000 }],
  },
];
