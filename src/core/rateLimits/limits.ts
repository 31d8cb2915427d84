// Rate limits (doc2 §2.7, §4.3): organization entries grouped by type, and a workspace's overrides with
// the spec's semantics:
//  1. a group absent from the workspace's data has no override: it inherits the organization's limits;
//  2. a limiter absent from a present group inherits the organization's value;
//  3. org_limit is the organization's value for the same limiter (or null when it has none);
//  4. the default workspace cannot have overrides and has no entry.
import type { RateLimitEntry } from '../api/types';
import { thousands } from '../text';

export interface LimiterView {
  type: string;
  value: number | null;
  source: 'organization' | 'override' | 'inherited';
  orgValue?: number | null;
}
export interface GroupView {
  groupType: string;
  models: string[] | null;
  limiters: LimiterView[];
  inherited: boolean;
}

const key = (e: RateLimitEntry) => `${e.group_type}|${(e.models ?? []).slice().sort().join(',')}`;

export function organizationView(org: readonly RateLimitEntry[]): GroupView[] {
  return org.map(e => ({
    groupType: e.group_type,
    models: e.models,
    inherited: false,
    limiters: e.limits.map(l => ({ type: l.type, value: l.value, source: 'organization' as const })),
  }));
}

export function workspaceView(org: readonly RateLimitEntry[], ws: readonly RateLimitEntry[]): GroupView[] {
  const overrides = new Map(ws.map(e => [key(e), e]));
  const out: GroupView[] = [];
  for (const o of org) {
    const w =
      overrides.get(key(o)) ??
      (o.group_type !== 'model_group' ? ws.find(e => e.group_type === o.group_type) : undefined);
    if (!w) {
      // rule 1: inherits the organization's limits (it is not unlimited)
      out.push({
        groupType: o.group_type,
        models: o.models,
        inherited: true,
        limiters: o.limits.map(l => ({ type: l.type, value: l.value, source: 'inherited' as const })),
      });
      continue;
    }
    const limiters: LimiterView[] = w.limits.map(l => ({
      type: l.type,
      value: l.value,
      source: 'override' as const,
      orgValue: l.org_limit ?? o.limits.find(x => x.type === l.type)?.value ?? null,
    }));
    // rule 2: limiters without an override inherit the organization's value
    for (const l of o.limits)
      if (!w.limits.some(x => x.type === l.type)) limiters.push({ type: l.type, value: l.value, source: 'inherited' });
    out.push({ groupType: o.group_type, models: o.models, inherited: false, limiters });
  }
  // overrides for groups the organization list does not show (e.g. filtered) are still shown
  for (const w of ws) {
    if (!org.some(o => key(o) === key(w) || (o.group_type === w.group_type && o.group_type !== 'model_group'))) {
      out.push({
        groupType: w.group_type,
        models: w.models,
        inherited: false,
        limiters: w.limits.map(l => ({
          type: l.type,
          value: l.value,
          source: 'override' as const,
          orgValue: l.org_limit ?? null,
        })),
      });
    }
  }
  return out;
}

export const isDefaultWorkspace = (id: string) => /^default$/i.test(id.trim());

/** What a limiter limits, in words: "requests/min", "input tokens/min", "queued batch requests". */
const LIMITER_WORDS: Record<string, string> = {
  requests_per_minute: 'requests/min',
  input_tokens_per_minute: 'input tokens/min',
  output_tokens_per_minute: 'output tokens/min',
  enqueued_batch_requests: 'queued batch requests',
};

/** A limiter in words: "4,000 requests/min", with where its value comes from. */
export function limiterText(l: LimiterView): { label: string; description: string } {
  const what = LIMITER_WORDS[l.type] ?? l.type.replace(/_/g, ' ');
  const label = l.value === null ? `no limit set: ${what}` : `${thousands(l.value)} ${what}`;
  if (l.source === 'override') {
    const org = l.orgValue == null ? 'none set' : thousands(l.orgValue);
    return { label, description: `override · organization: ${org}` };
  }
  if (l.source === 'inherited') return { label, description: 'inherited' };
  return { label, description: '' };
}

const GROUP_WORDS: Record<string, string> = {
  batch: 'Batches',
  token_count: 'Token counting',
  files: 'Files',
  skills: 'Skills',
  web_search: 'Web search',
};

/**
 * A group in words: "Opus models" for a model group (the family its models share, from their ids), else
 * the group type's name; the models themselves go in the tooltip.
 */
export function groupText(g: Pick<GroupView, 'groupType' | 'models'>): string {
  if (g.groupType !== 'model_group') return GROUP_WORDS[g.groupType] ?? g.groupType.replace(/_/g, ' ');
  const families = new Set((g.models ?? []).map(m => /^model-(?:\d+-)*([a-z]+)/.exec(m)?.[1]).filter(Boolean));
  if (families.size !== 1) return 'Model group';
  const family = [...families][0]!;
  return `${family[0]!.toUpperCase()}${family.slice(1)} models`;
}

/** A group's limits in one line: "4,000 requests/min · 2,000,000 input tokens/min". */
export function groupSummary(g: GroupView): string {
  return g.limiters.map(l => limiterText(l).label).join(' · ');
}
