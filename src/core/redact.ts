// Keys never reach output. Whatever text the service sends back (an error message a gateway wrote with the key
// in it, a Location, a batch result's error) is cleaned of every key the process holds before anything keeps it,
// and every output (logs, the CLI's stdout and stderr, notifications) is cleaned again on its way out.

/** The marker a key is replaced with. */
const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets (they would blank out ordinary words). */
const MIN_SECRET_LENGTH = 4;

/** Replaces every occurrence of the given secrets (and nothing else) with a marker. */
export function redactKnown(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  // the longest first, so a secret inside another cannot leave part of the longer one
  for (const s of [...secrets].sort((a, b) => (b?.length ?? 0) - (a?.length ?? 0)))
    if (s && s.length >= MIN_SECRET_LENGTH && out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** Replaces every occurrence of the given secrets, and anything shaped like an API key, with a marker. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  // x-api-key header values, wherever they appear in text
  return redactKnown(text, secrets).replace(
    /(x-api-key["']?\s*[:=]\s*["']?)([^\s"',}]+)/gi,
    (_m, p: string, v: string) => p + (v.startsWith(REDACTED) ? v : REDACTED),
  );
}
