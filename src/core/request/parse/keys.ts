// The keys of a parsed object with many of them, listed once. Listing the keys of an object of 200,000 keys takes
// about as long as JSON.parse of it (the engine keeps so many in a hash table and sorts them to list them), and a
// check lists an object's keys several times: to count them for the duplicate-key check, in the schema's "valid?"
// and its issues, to find where a problem is, and a case's vars to keep them and to match them with the request's
// placeholders. A file built with that many keys made the check of it take five times JSON.parse. A parsed value is
// read, never changed (a case's vars are the parsed object itself), so the list stays true while the object lives.
/** How many keys an object has for its list to be kept. */
export const MANY_KEYS = 1000;

let listed: WeakMap<object, readonly string[]> | undefined;

/** The keys of an object the parser listed, else undefined (most objects: their keys are read with for-in). */
export const listedKeys = (v: object): readonly string[] | undefined => listed?.get(v);

/** The keys of a parsed object, as `Object.keys` lists them: the parser's list, when it kept one. */
export const keysOf = (v: object): readonly string[] => listed?.get(v) ?? Object.keys(v);

/** Keeps the list of a parsed object's keys, in the order for-in and `Object.keys` list them. */
export function keepKeys(v: object, keys: readonly string[]): void {
  (listed ??= new WeakMap()).set(v, keys);
}
