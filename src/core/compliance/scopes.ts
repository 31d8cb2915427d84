// Compliance keys carry scopes (doc3 §5): what each allows, and what a 403 says a key has and lacks.
import { ApiError } from '../api/errors';

export const SCOPES = {
  activities: 'read:compliance_activities',
  orgData: 'read:compliance_org_data',
  userData: 'read:compliance_user_data',
  delete: 'delete:compliance_user_data',
} as const;

const WHAT: Record<string, string> = {
  [SCOPES.activities]: 'read the Activity Feed',
  [SCOPES.orgData]: 'read organizations',
  [SCOPES.userData]: 'read chats, files and projects',
  [SCOPES.delete]: 'delete',
};

/** `Got:` and `Needed:` lists of a 403's message (doc3 §7: the message has that form). */
export function parseScopeError(message: string): { got: string[]; needed: string[] } | undefined {
  // the lists are near the start of a short message; the pattern below is quadratic in a long one
  message = message.slice(0, 2000);
  const list = (label: string) => {
    const m = new RegExp(`${label}:?\\s*\\[?([^\\]\\n]*?)\\]?(?:\\.\\s|\\.?$|\\s+(?:Got|Needed)\\b)`, 'i').exec(
      message,
    );
    return m ? (m[1]!.match(/[a-z_]+:[a-z_]+/g) ?? []) : undefined;
  };
  const got = list('Got');
  const needed = list('Needed');
  return got === undefined && needed === undefined ? undefined : { got: got ?? [], needed: needed ?? [] };
}

/** The prefix of a Compliance Access Key (doc3 §5 rule 2). */
export const COMPLIANCE_KEY_PREFIX = 'sk-vendor-api01';

/**
 * What a compliance error means for the person: a 403 names what the key lacks ("This key cannot delete:
 * it lacks delete:compliance_user_data"); a 401 says the key is the wrong kind (a standard API key) or,
 * when it has a Compliance Access Key's prefix, that it is unknown, deleted or disabled.
 * @param keyPrefix the first characters of the key that was used (never the key itself), when known
 */
export function explainComplianceError(
  e: unknown,
  usedKind: 'compliance' | 'admin',
  keyPrefix?: string,
): string | undefined {
  if (!(e instanceof ApiError)) return undefined;
  if (e.status === 403) {
    const s = parseScopeError(e.message);
    if (!s) return undefined;
    const missing = s.needed.filter(n => !s.got.includes(n));
    const what = missing.map(m => WHAT[m] ?? m).join(' or ') || 'do this';
    const lacks = missing.join(', ') || s.needed.join(', ');
    return `This key cannot ${what}: it lacks ${lacks} (it has ${s.got.join(', ') || 'no scope'}).`;
  }
  if (e.status === 401) {
    if (usedKind === 'admin')
      return (
        'The Admin key was refused here: an Admin key reads only the Activity Feed, and only when it was ' +
        'created after the compliance interface was enabled.'
      );
    if (keyPrefix?.startsWith(COMPLIANCE_KEY_PREFIX))
      return 'The Compliance Access Key was refused: it is unknown, deleted or disabled. Set a current one.';
    return (
      `The key was refused: the compliance interface needs a Compliance Access Key (${COMPLIANCE_KEY_PREFIX}…), ` +
      'not a standard API key.'
    );
  }
  return undefined;
}
