// Rate limits (doc2 §2.7, §4.3): organization entries grouped by type, and a workspace's overrides with
// the spec's semantics:
//  1. a group absent from the workspace's data has no override: it inherits the organization's limits;
//  2. a limiter absent from a present group inherits the organization's value;
//  3. org_limit is the organization's value for the same limiter (or null when it has none);
//  4. the default workspace cannot have overrides and has no entry.
import type { RateLimitEntry } from '../api/types';

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

export function limiterText(l: LimiterView): { label: string; description: string } {
  const v = l.value === null ? 'none' : l.value.toLocaleString('en-US');
  if (l.source === 'override')
    return {
      label: `${l.type}: ${v}`,
      description:
        `override · organization ` + `${l.orgValue == null ? 'none configured' : l.orgValue.toLocaleString('en-US')}`,
    };
  if (l.source === 'inherited') return { label: `${l.type}: ${v}`, description: 'inherited from the organization' };
  return { label: `${l.type}: ${v}`, description: '' };
}
