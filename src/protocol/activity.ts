// The one message protocol between the extension and the Activity Feed webview (doc3 §4, §6). Neither side
// imports `vscode` or the DOM here. The webview posts `ready` first; the extension posts nothing before that,
// and answers every `ready` (a webview is rebuilt each time its tab comes back) with the whole current state.
import { BOUNDS, ORG_MEMBERSHIP_TYPES, type ActivityFilter } from '../core/compliance/filters';
export { count } from '../core/text';
export { activityLabel } from '../core/compliance/types';
import { activityLabel, activityType, type Activity } from '../core/compliance/types';
import { boundedString, record, type ErrorInfo, type Ready } from './common';

export const ACTIVITY_VIEW_TYPE = 'promptwright.activity';

// The webview imports this module only: the filter's vocabulary and its timestamp check are the core's own,
// so the form refuses exactly what the client would refuse before sending.
export { ACTIVITY_TYPES, ORG_MEMBERSHIP_TYPES, isRfc3339, type ActivityFilter } from '../core/compliance/filters';

/** One line of the table: what a person scans for. The whole record stays in the extension ("Open"). */
export interface ActivityRow {
  id: string;
  /** created_at as the service wrote it */
  time: string;
  type: string;
  /** the type in words ("Chat created") */
  label: string;
  actor: string;
  /** the target's identifier, and its kind (chat, file, project, organization…) */
  target: string;
  targetKind: string;
  organization: string;
  /** an organization membership type: a reason to list the organizations again (doc3 §6 rule 2) */
  membership: boolean;
}

/** An error as the banner shows it: what the service said (its `type` may be one of ours: configuration,
 * invalid_filter), and what it means for this key. */
export interface FeedError extends ErrorInfo {
  /** what the key lacks, or that it is the wrong kind of key (compliance/scopes.ts) */
  explanation?: string;
  /** no key at all, or one that was refused: the banner offers to set one */
  offerSetKey?: boolean;
}

/** What is being fetched: the first page, the next one (scrolling), or records newer than the first. */
export type Loading = 'first' | 'more' | 'newer';

export interface FeedStatus {
  loaded: number;
  loading?: Loading;
  /** `has_more` was false: everything that matches is loaded */
  end: boolean;
  /** which key reads the feed (an Admin key reads only the feed, doc3 §5 rule 4) */
  keyKind?: 'compliance' | 'admin';
}

export interface ExportState {
  running: boolean;
  records: number;
  pages: number;
}

export type ToActivityWebview =
  /** the filter in force; the table starts over empty (rows follow) */
  | { type: 'state'; filter: ActivityFilter }
  /** `restore`: the rows a rebuilt webview had before (its tab came back), so it may put its scroll back too */
  | { type: 'rows'; where: 'append' | 'prepend'; rows: ActivityRow[]; restore?: boolean }
  | { type: 'status'; status: FeedStatus }
  /** an error to show, or undefined to clear the banner */
  | { type: 'error'; error: FeedError | undefined }
  | { type: 'export'; state: ExportState }
  /** a passing remark ("3 newer records", "Organizations refreshed") */
  | { type: 'notice'; text: string }
  /** the whole of a record the person opened, for the pane beside the table (as the service sent it) */
  | { type: 'record'; id: string; label: string; record: unknown };

export type FromActivityWebview =
  | Ready
  | { type: 'apply'; filter: ActivityFilter }
  /** the table was scrolled near its end: the next page (`after_id` = the last page's `last_id`) */
  | { type: 'more' }
  /** records newer than the first loaded one (`before_id` = the first page's `first_id`), put on top */
  | { type: 'newer' }
  /** shows a record in the pane beside the table */
  | { type: 'open'; id: string }
  /** opens a record as a JSON document of its own */
  | { type: 'open-json'; id: string }
  | { type: 'refresh-organizations'; id: string }
  | { type: 'export' }
  | { type: 'retry' }
  | { type: 'set-key' };

/** What the webview keeps with setState, so a reload (or VS Code restarting) shows the same filter. */
export interface ActivityWebviewState {
  filter: ActivityFilter;
  /** where the table was scrolled to (a webview is rebuilt each time its tab comes back) */
  scrollTop?: number;
}

const MEMBERSHIP = new Set(ORG_MEMBERSHIP_TYPES);
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/**
 * The table's view of a record. The spec shows no fields beyond identifiers (doc3 §2.3), so every field is
 * read defensively: an actor may be a string or an object with an e-mail, a name or an id.
 */
export function activityRow(a: Activity): ActivityRow {
  const actor = record(a.actor);
  const target = record(a.target);
  const type = activityType(a);
  return {
    id: a.id,
    time: text(a.created_at),
    type,
    label: activityLabel(type),
    actor: actor ? text(actor.email ?? actor.name ?? actor.id) : text(a.actor),
    target: target ? text(target.id) : text(a.target),
    targetKind: target ? text(target.type) : '',
    organization: text(a.organization_id ?? record(a.organization)?.id ?? a.org_id),
    membership: MEMBERSHIP.has(type),
  };
}

// Bounds on what the webview may send: generous for people, small enough that a bad message costs nothing.
const MAX_TYPES = 100;
const MAX_TYPE_LENGTH = 200;
const MAX_TIMESTAMP_LENGTH = 64;
const MAX_ID_LENGTH = 500;
const TYPE_NAME = /^[A-Za-z0-9_.:-]+$/;

/**
 * The shape of a filter (types: names without spaces; created/updated: only gte/gt/lte/lt, string values).
 * Whether the timestamps are RFC 3339 is the extension's next check (filterProblems), so the person is
 * told which bound is wrong rather than the message being dropped.
 */
export function parseFilter(raw: unknown): ActivityFilter | undefined {
  const o = record(raw);
  if (!o) return undefined;
  const out: ActivityFilter = {};
  if (o.types !== undefined) {
    if (!Array.isArray(o.types) || o.types.length > MAX_TYPES) return undefined;
    const types: string[] = [];
    for (const t of o.types as unknown[]) {
      if (typeof t !== 'string' || t.length > MAX_TYPE_LENGTH || !TYPE_NAME.test(t)) return undefined;
      if (!types.includes(t)) types.push(t);
    }
    if (types.length) out.types = types;
  }
  for (const field of ['created', 'updated'] as const) {
    if (o[field] === undefined) continue;
    const range = record(o[field]);
    if (!range) return undefined;
    const bounds: Partial<Record<(typeof BOUNDS)[number], string>> = {};
    for (const [bound, value] of Object.entries(range)) {
      if (!(BOUNDS as readonly string[]).includes(bound)) return undefined;
      if (typeof value !== 'string' || value.length > MAX_TIMESTAMP_LENGTH) return undefined;
      bounds[bound as (typeof BOUNDS)[number]] = value;
    }
    if (Object.keys(bounds).length) out[field] = bounds;
  }
  return out;
}

const id = (v: unknown) => boundedString(v, MAX_ID_LENGTH, true);

/** Checks a message from the webview (it is untrusted input); undefined for anything malformed. */
export function parseFromActivityWebview(raw: unknown): FromActivityWebview | undefined {
  const o = record(raw);
  if (!o) return undefined;
  switch (o.type) {
    case 'ready':
    case 'more':
    case 'newer':
    case 'export':
    case 'retry':
    case 'set-key':
      return { type: o.type };
    case 'apply': {
      const filter = parseFilter(o.filter);
      return filter ? { type: 'apply', filter } : undefined;
    }
    case 'open':
    case 'open-json':
    case 'refresh-organizations': {
      const which = id(o.id);
      return which ? { type: o.type, id: which } : undefined;
    }
    default:
      return undefined;
  }
}

/** The state a restored panel hands back (what the webview saved), or undefined when it is not one. */
export function parseActivityWebviewState(raw: unknown): ActivityWebviewState | undefined {
  const o = record(raw);
  const filter = parseFilter(o?.filter);
  const scrollTop = o?.scrollTop;
  const scrolled = typeof scrollTop === 'number' && Number.isFinite(scrollTop) && scrollTop > 0;
  return filter ? { filter, ...(scrolled ? { scrollTop } : {}) } : undefined;
}
