// The Activity Feed's filters (doc3 §4): activity types, and created/updated ranges whose bounds must be
// full RFC 3339 timestamps with a time and a zone (the service refuses anything else with a 400, so the
// check happens before sending).

/** The activity types doc3 §6 names (the list is open: others may exist). */
export const ACTIVITY_TYPES = [
  'model_chat_created',
  'model_chat_viewed',
  'model_file_uploaded',
  'model_file_deleted',
  'model_project_created',
  'model_project_deleted',
  'model_project_document_uploaded',
  'org_deletion_requested',
  'org_deleted_via_bulk',
  'org_parent_join_proposal_created',
  'org_join_proposal_decided',
] as const;

/** The organization membership types: each is a reason to list the organizations again (doc3 §6 rule 2). */
export const ORG_MEMBERSHIP_TYPES: readonly string[] = ACTIVITY_TYPES.filter(t => t.startsWith('org_'));

export const BOUNDS = ['gte', 'gt', 'lte', 'lt'] as const;
export type Bound = (typeof BOUNDS)[number];

export interface ActivityFilter {
  types?: string[];
  created?: Partial<Record<Bound, string>>;
  updated?: Partial<Record<Bound, string>>;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** Whether `s` is a full RFC 3339 date-time with a zone, and a real one (no 2026-02-30, no 25:00). */
export function isRfc3339(s: string): boolean {
  const m = RFC3339.exec(s);
  if (!m) return false;
  const [, y, mo, d, h, mi, se, , zone, zh, zm] = m;
  const days = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  const ok = (v: string | undefined, max: number, min = 0) => v === undefined || (Number(v) >= min && Number(v) <= max);
  return (
    ok(mo, 12, 1) &&
    ok(d, days, 1) &&
    ok(h, 23) &&
    ok(mi, 59) &&
    ok(se, 60) &&
    (zone!.length === 1 || (ok(zh, 23) && ok(zm, 59)))
  );
}

/** Every bound that is not a full RFC 3339 timestamp, named as the service would (`created_at.gte`). */
export function filterProblems(f: ActivityFilter): string[] {
  const out: string[] = [];
  for (const [field, range] of [
    ['created_at', f.created],
    ['updated_at', f.updated],
  ] as const) {
    for (const b of BOUNDS) {
      const v = range?.[b];
      if (v !== undefined && !isRfc3339(v)) {
        const example = '2026-01-31T09:00:00Z';
        out.push(
          `${field}.${b} must be a full RFC 3339 timestamp with a time and a zone (e.g. ${example}); got "${v}".`,
        );
      }
    }
  }
  return out;
}

/** The query parameters, named as the spec names them. */
export function filterQuery(f: ActivityFilter): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  if (f.types?.length) q['activity_types[]'] = f.types;
  for (const [field, range] of [
    ['created_at', f.created],
    ['updated_at', f.updated],
  ] as const) {
    for (const b of BOUNDS) if (range?.[b] !== undefined) q[`${field}.${b}`] = range[b];
  }
  return q;
}
