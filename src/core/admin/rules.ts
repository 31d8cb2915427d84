// What the administration interface refuses, checked before a request is sent (doc2 §2.3–§2.6, §4.2):
// each check returns the reasons in words a person can act on, or nothing when the input is fine.
import { ASSIGNABLE_ROLES, type DataResidency } from './types';

const MAX_LIMIT = 1000;

export function roleProblem(role: string): string | undefined {
  if (role === 'admin') {
    return `The admin role cannot be given through the API; choose one of ${ASSIGNABLE_ROLES.join(', ')}.`;
  }
  if (!(ASSIGNABLE_ROLES as readonly string[]).includes(role)) {
    return `"${role}" is not a role; choose one of ${ASSIGNABLE_ROLES.join(', ')}.`;
  }
  return undefined;
}

export function tagProblems(tags: Record<string, string> | undefined): string[] {
  return Object.keys(tags ?? {})
    .filter(k => k.startsWith('vendor'))
    .map(k => `Tag key "${k}" begins with "vendor", which workspace tags may not.`);
}

/** The default geo must be one of the allowed geos, unless those are `unrestricted`. */
export function residencyProblem(r: Partial<DataResidency> | undefined): string | undefined {
  const allowed = r?.allowed_inference_geos;
  const dflt = r?.default_inference_geo;
  if (dflt === undefined || allowed === undefined || allowed === 'unrestricted') return undefined;
  if (!allowed.includes(dflt)) {
    const list = allowed.join(', ') || 'none';
    return (
      `The default geo "${dflt}" must be one of the allowed geos (${list}), or allow unrestricted ` +
      '(give the default geo too).'
    );
  }
  return undefined;
}

export function limitProblem(limit: number | undefined): string | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return `--limit must be a whole number from 1 to ${MAX_LIMIT}.`;
  return undefined;
}

export function nameProblem(name: string | undefined): string | undefined {
  return name !== undefined && !name.trim() ? 'A workspace needs a name.' : undefined;
}

/** `a,b,c` or `unrestricted`, as the CLI and the editor take allowed geos. */
export function parseGeos(text: string): string[] | 'unrestricted' {
  const t = text.trim();
  if (t === 'unrestricted') return 'unrestricted';
  return t
    .split(',')
    .map(s => s.trim())
    .filter(Boolean);
}
