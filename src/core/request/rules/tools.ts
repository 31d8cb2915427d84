// Tool definitions.
import { BETA_TOOL_TYPES } from '../betas';
import type { Path, PathProblem } from '../types';
import { betaUsed } from './betas';
import { given, isObj, type Obj, type RuleContext } from './common';

/** doc1 §2.6. */
export function toolRules(body: Obj, ctx: RuleContext, out: PathProblem[]): void {
  if (!Array.isArray(body.tools)) return;
  const seen = new Map<string, number>();
  body.tools.forEach((t, i) => {
    if (!isObj(t)) return;
    const at: Path = ['tools', i];
    if (typeof t.name === 'string') {
      const first = seen.get(t.name);
      if (first !== undefined) {
        out.push({
          path: [...at, 'name'],
          anchor: 'value',
          severity: 'error',
          code: 'duplicate-tool-name',
          message: `Tool name "${t.name}" is already used by tools[${first}]; tool names must be unique.`,
        });
      } else seen.set(t.name, i);
    }
    const type = typeof t.type === 'string' ? t.type : undefined;
    const beta = type ? BETA_TOOL_TYPES[type] : undefined;
    if (beta) betaUsed(beta, [...at, 'type'], 'value', ctx, out);
    if (given(t.allowed_domains) && given(t.blocked_domains)) {
      out.push({
        path: [...at, 'blocked_domains'],
        anchor: 'key',
        severity: 'error',
        code: 'exclusive-domains',
        message: 'allowed_domains and blocked_domains are mutually exclusive: give only one.',
        fixes: [
          { kind: 'remove-property', title: 'Remove blocked_domains', path: [...at, 'blocked_domains'] },
          { kind: 'remove-property', title: 'Remove allowed_domains', path: [...at, 'allowed_domains'] },
        ],
      });
    }
    if (isObj(t.user_location)) userLocationRules(t.user_location, [...at, 'user_location'], out);
  });
}

function userLocationRules(loc: Obj, at: Path, out: PathProblem[]): void {
  if (typeof loc.country === 'string' && !/^[A-Za-z]{2}$/.test(loc.country)) {
    out.push({
      path: [...at, 'country'],
      anchor: 'value',
      severity: 'error',
      code: 'country-code',
      message: `country must be a two-letter ISO country code such as "US" or "FR"; got "${loc.country}".`,
    });
  }
  if (typeof loc.timezone === 'string' && !isIanaZone(loc.timezone)) {
    out.push({
      path: [...at, 'timezone'],
      anchor: 'value',
      severity: 'warning',
      code: 'time-zone',
      message: `"${loc.timezone}" is not an IANA time zone this system knows (e.g. "Europe/Paris").`,
    });
  }
}

let zones: Set<string> | undefined;
function isIanaZone(z: string): boolean {
  try {
    zones ??= new Set((Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone'));
    if (zones.has(z) || z === 'UTC') return true;
    new Intl.DateTimeFormat('en-US', { timeZone: z });
    return true;
  } catch {
    return false;
  }
}
