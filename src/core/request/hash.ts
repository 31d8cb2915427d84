// A request body's key in the count caches (the status bar's, the CLI's, the cache breakpoints' and the breakdown's):
// a hash of the exact body sent, so undo, re-open or switching back finds the count already made.

/** The SHA-256 of the body as JSON, base64url. */
export function bodyHash(body: Record<string, unknown>): string {
  // node:crypto is loaded by the first count, not with the extension (it is most of an activation's cost)
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(JSON.stringify(body)).digest('base64url');
}
