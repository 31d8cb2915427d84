/** Replaces every occurrence of the given secrets, and anything shaped like an API key, with a marker. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4) out = out.split(s).join(redacted(s));
  }
  // x-api-key header values, wherever they appear in text
  return out.replace(
    /(x-api-key["']?\s*[:=]\s*["']?)([^\s"',}]+)/gi,
    (_m, p: string, v: string) => p + (v.startsWith('[redacted') ? v : redacted(v)),
  );
}

function redacted(_secret: string): string {
  return '[redacted]';
}
